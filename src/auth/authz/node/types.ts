// What feeds the Node authorizer's graph: the watched kinds and the handlers a source calls. The
// server's source reads its own watch cache (server/node-graph-feed.ts); tests hand objects in.

export type NodeGraphKind = 'Pod' | 'PersistentVolume';

/** An object as the store returns it; the graph reads only what it needs, defensively. */
export type NodeGraphObject = Record<string, unknown>;

export interface NodeGraphFeedHandlers {
  /** The whole current set of a kind (after a list or relist). */
  replace(kind: NodeGraphKind, items: readonly NodeGraphObject[]): void;
  upsert(kind: NodeGraphKind, obj: NodeGraphObject): void;
  remove(kind: NodeGraphKind, obj: NodeGraphObject): void;
}

export interface NodeGraphFeed {
  /** Resolves once each kind has been listed once (kinds not served count as listed). */
  synced: Promise<void>;
  stop(): void;
}

export interface NodeGraphSource {
  start(handlers: NodeGraphFeedHandlers): NodeGraphFeed;
}

// An RbacObjectSource over objects held in memory: tests and the decision benchmark feed the index
// through it exactly as the server's store feed does, without a server.

import type { RbacFeed, RbacFeedHandlers, RbacKind, RbacObject, RbacObjectSource } from './types.ts';

export class MemoryRbacSource implements RbacObjectSource {
  private handlers: RbacFeedHandlers | undefined;
  private readonly objects = new Map<string, { kind: RbacKind; obj: RbacObject }>();

  constructor(initial: readonly { kind: RbacKind; obj: RbacObject }[] = []) {
    for (const o of initial) this.objects.set(key(o.kind, o.obj), o);
  }

  start(handlers: RbacFeedHandlers): RbacFeed {
    this.handlers = handlers;
    for (const kind of ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'] as const) {
      handlers.replace(
        kind,
        [...this.objects.values()].filter((o) => o.kind === kind).map((o) => o.obj),
      );
    }
    return {
      synced: Promise.resolve(),
      stop: () => {
        this.handlers = undefined;
      },
    };
  }

  /** Adds or replaces an object (ADDED or MODIFIED). */
  put(kind: RbacKind, obj: RbacObject): void {
    this.objects.set(key(kind, obj), { kind, obj });
    this.handlers?.upsert(kind, obj);
  }

  delete(kind: RbacKind, obj: RbacObject): void {
    this.objects.delete(key(kind, obj));
    this.handlers?.remove(kind, obj);
  }
}

function key(kind: RbacKind, obj: RbacObject): string {
  return `${kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

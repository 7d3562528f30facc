// The Node authorizer's graph: one vertex per object that can grant a node agent access, edges
// pointing toward the Node vertices, as upstream builds it:
//
//   pod -> node;  secret, configmap, pvc, serviceaccount, resourceclaim -> pod
//   pv -> pvc;  secret -> pv
//
// An edge out of a Pod's dependants records the node it leads to (its destination), so a walk
// never wanders into other nodes' Pods, and each vertex counts its edges per destination: for a
// Secret used by thousands of Pods the answer is one map lookup, not a walk. A vertex whose only
// edge goes away goes with it, so the graph holds what bound Pods and PVs name and nothing more.
// Only a Pod's or PV's own add or delete rewrites its edges (what a bound Pod names is immutable).

export type VertexType =
  | 'configmap'
  | 'node'
  | 'pod'
  | 'pvc'
  | 'pv'
  | 'resourceclaim'
  | 'resourceslice'
  | 'secret'
  | 'volumeattachment'
  | 'serviceAccount';

class Vertex {
  /** Edges out: target -> the node the edge leads to (null: not known, pv edges). */
  readonly out = new Map<Vertex, Vertex | null>();
  readonly in = new Set<Vertex>();
  /** Edges out per destination node. */
  readonly destinations = new Map<Vertex, number>();

  constructor(
    readonly type: VertexType,
    readonly namespace: string,
    readonly name: string,
  ) {}

  get degree(): number {
    return this.out.size + this.in.size;
  }
}

export interface PodEdges {
  namespace: string;
  name: string;
  nodeName: string;
  /** Mirror Pods get no edges beyond their node: a node must not grant itself access by making one. */
  mirror: boolean;
  serviceAccount: string;
  secrets: Iterable<string>;
  configMaps: Iterable<string>;
  claims: Iterable<string>;
  resourceClaims: Iterable<string>;
}

export interface PvEdges {
  name: string;
  /** The bound claim; no edges without one. */
  claim?: { namespace: string; name: string };
  /** Secrets a node agent reads to mount the volume. */
  secrets: Iterable<{ namespace: string; name: string }>;
}

/** Why a walk found no path: upstream logs it; the decision's reason is the same either way. */
export type PathResult = { found: true } | { found: false; why: string };

const key = (t: VertexType, ns: string, name: string) => `${t}\u0000${ns}\u0000${name}`;

export class Graph {
  private readonly vertices = new Map<string, Vertex>();

  /** How many vertices the graph holds (tests and metrics). */
  get size(): number {
    return this.vertices.size;
  }

  has(type: VertexType, namespace: string, name: string): boolean {
    return this.vertices.has(key(type, namespace, name));
  }

  /** Whether an edge runs from one vertex to the other. */
  hasEdge(from: [VertexType, string, string], to: [VertexType, string, string]): boolean {
    const f = this.vertices.get(key(...from));
    const t = this.vertices.get(key(...to));
    return f !== undefined && t !== undefined && f.out.has(t);
  }

  private vertex(type: VertexType, namespace: string, name: string): Vertex {
    const k = key(type, namespace, name);
    let v = this.vertices.get(k);
    if (v === undefined) {
      v = new Vertex(type, namespace, name);
      this.vertices.set(k, v);
    }
    return v;
  }

  private addEdge(from: Vertex, to: Vertex, destination: Vertex | null): void {
    if (from.out.has(to)) return;
    from.out.set(to, destination);
    to.in.add(from);
    if (destination !== null)
      from.destinations.set(destination, (from.destinations.get(destination) ?? 0) + 1);
  }

  private removeEdge(from: Vertex, to: Vertex): void {
    if (!from.out.has(to)) return;
    const destination = from.out.get(to) ?? null;
    from.out.delete(to);
    to.in.delete(from);
    if (destination !== null) {
      const n = (from.destinations.get(destination) ?? 1) - 1;
      if (n <= 0) from.destinations.delete(destination);
      else from.destinations.set(destination, n);
    }
  }

  private forget(v: Vertex): void {
    for (const to of [...v.out.keys()]) this.removeEdge(v, to);
    for (const from of [...v.in]) this.removeEdge(from, v);
    this.vertices.delete(key(v.type, v.namespace, v.name));
  }

  /** Removes a vertex, and every neighbour that had no edge but the one to it. */
  private deleteVertex(type: VertexType, namespace: string, name: string): void {
    const v = this.vertices.get(key(type, namespace, name));
    if (v === undefined) return;
    const orphans: Vertex[] = [];
    for (const n of v.out.keys()) if (n.degree === 1) orphans.push(n);
    for (const n of v.in) if (n.degree === 1) orphans.push(n);
    this.forget(v);
    for (const o of orphans) this.forget(o);
  }

  /** A bound Pod's edges, replacing any it had. */
  addPod(p: PodEdges): void {
    this.deleteVertex('pod', p.namespace, p.name);
    const pod = this.vertex('pod', p.namespace, p.name);
    const node = this.vertex('node', '', p.nodeName);
    this.addEdge(pod, node, node);
    if (p.mirror) return;
    const into = (type: VertexType, names: Iterable<string>) => {
      for (const name of names) this.addEdge(this.vertex(type, p.namespace, name), pod, node);
    };
    if (p.serviceAccount !== '') into('serviceAccount', [p.serviceAccount]);
    into('secret', p.secrets);
    into('configmap', p.configMaps);
    into('pvc', p.claims);
    into('resourceclaim', p.resourceClaims);
  }

  deletePod(namespace: string, name: string): void {
    this.deleteVertex('pod', namespace, name);
  }

  /** A PersistentVolume's edges, replacing any it had. */
  addPv(p: PvEdges): void {
    this.deleteVertex('pv', '', p.name);
    if (p.claim === undefined) return;
    const pv = this.vertex('pv', '', p.name);
    // The claim's Pods (and so the node) are not known from here: these edges carry no destination.
    this.addEdge(pv, this.vertex('pvc', p.claim.namespace, p.claim.name), null);
    for (const s of p.secrets) this.addEdge(this.vertex('secret', s.namespace, s.name), pv, null);
  }

  deletePv(name: string): void {
    this.deleteVertex('pv', '', name);
  }

  /** Whether a path leads from the object to the node, never through another node's Pods. */
  pathToNode(nodeName: string, type: VertexType, namespace: string, name: string): PathResult {
    const node = this.vertices.get(key('node', '', nodeName));
    const what = `${type} ${namespace}/${name}`;
    if (node === undefined) return { found: false, why: `unknown node '${nodeName}' cannot get ${what}` };
    const start = this.vertices.get(key(type, namespace, name));
    if (start === undefined) return { found: false, why: `node '${nodeName}' cannot get unknown ${what}` };
    if (start.destinations.has(node)) return { found: true };
    const seen = new Set<Vertex>([start]);
    const stack = [start];
    while (stack.length > 0) {
      const v = stack.pop() as Vertex;
      for (const [to, destination] of v.out) {
        if (destination !== null && destination !== node) continue;
        if (to === node || destination === node) return { found: true };
        if (seen.has(to)) continue;
        seen.add(to);
        stack.push(to);
      }
    }
    return {
      found: false,
      why: `node '${nodeName}' cannot get ${what}, no relationship to this object was found in the node authorizer graph`,
    };
  }
}

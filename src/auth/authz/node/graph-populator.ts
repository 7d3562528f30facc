// Keeps the graph in step with the watched objects: Pods once bound to a node (what a bound Pod
// names cannot change, so a later update rewrites its edges only when its node, its uid or the
// claims made for it change), and PersistentVolumes. A relist hands over the whole set, so objects
// deleted while the watch was down leave the graph too.

import {
  podClaimNames,
  podClaimStatusKey,
  podConfigMapNames,
  podResourceClaimNames,
  podSecretNames,
  pvSecrets,
  rec,
  str,
} from '../../../machinery/pod-references.ts';
import { mirrorPodAnnotation } from '../../../naming/node-agents.ts';
import type { NamingProfile } from '../../../naming/profile.ts';
import type { Graph } from './graph.ts';
import type { NodeGraphFeedHandlers, NodeGraphKind, NodeGraphObject } from './types.ts';

/** What decides whether a Pod's edges must be rebuilt. */
interface PodSeen {
  nodeName: string;
  uid: string;
  claims: string;
}

export class GraphPopulator implements NodeGraphFeedHandlers {
  private readonly pods = new Map<string, PodSeen>();
  private readonly pvs = new Set<string>();
  private readonly mirror: string;

  constructor(
    private readonly graph: Graph,
    profile: NamingProfile,
  ) {
    this.mirror = mirrorPodAnnotation(profile);
  }

  upsert(kind: NodeGraphKind, obj: NodeGraphObject): void {
    if (kind === 'Pod') this.upsertPod(obj);
    else this.upsertPv(obj);
  }

  remove(kind: NodeGraphKind, obj: NodeGraphObject): void {
    const meta = rec(obj.metadata);
    if (kind === 'Pod') {
      const k = `${str(meta?.namespace)}/${str(meta?.name)}`;
      if (!this.pods.delete(k)) return;
      this.graph.deletePod(str(meta?.namespace), str(meta?.name));
    } else {
      this.pvs.delete(str(meta?.name));
      this.graph.deletePv(str(meta?.name));
    }
  }

  replace(kind: NodeGraphKind, items: readonly NodeGraphObject[]): void {
    if (kind === 'Pod') {
      const present = new Set<string>();
      for (const o of items) {
        const meta = rec(o.metadata);
        present.add(`${str(meta?.namespace)}/${str(meta?.name)}`);
      }
      for (const k of [...this.pods.keys()]) {
        if (present.has(k)) continue;
        const slash = k.indexOf('/');
        this.pods.delete(k);
        this.graph.deletePod(k.slice(0, slash), k.slice(slash + 1));
      }
    } else {
      const present = new Set(items.map((o) => str(rec(o.metadata)?.name)));
      for (const name of [...this.pvs]) {
        if (present.has(name)) continue;
        this.pvs.delete(name);
        this.graph.deletePv(name);
      }
    }
    for (const o of items) this.upsert(kind, o);
  }

  private upsertPod(pod: NodeGraphObject): void {
    const meta = rec(pod.metadata);
    const namespace = str(meta?.namespace);
    const name = str(meta?.name);
    const spec = rec(pod.spec);
    const nodeName = str(spec?.nodeName);
    // Not yet scheduled: nothing is granted until it is bound.
    if (nodeName === '') return;
    const seen: PodSeen = { nodeName, uid: str(meta?.uid), claims: podClaimStatusKey(pod) };
    const k = `${namespace}/${name}`;
    const before = this.pods.get(k);
    if (
      before !== undefined &&
      before.nodeName === seen.nodeName &&
      before.uid === seen.uid &&
      before.claims === seen.claims
    ) {
      return;
    }
    this.pods.set(k, seen);
    const annotations = rec(meta?.annotations);
    this.graph.addPod({
      namespace,
      name,
      nodeName,
      mirror: annotations !== undefined && Object.hasOwn(annotations, this.mirror),
      serviceAccount: str(spec?.serviceAccountName),
      secrets: podSecretNames(pod),
      configMaps: podConfigMapNames(pod),
      claims: podClaimNames(pod),
      resourceClaims: podResourceClaimNames(pod),
    });
  }

  private upsertPv(pv: NodeGraphObject): void {
    const name = str(rec(pv.metadata)?.name);
    this.pvs.add(name);
    const ref = rec(rec(pv.spec)?.claimRef);
    this.graph.addPv({
      name,
      claim: ref === undefined ? undefined : { namespace: str(ref.namespace), name: str(ref.name) },
      secrets: pvSecrets(pv).filter((s) => s.nodeVisible),
    });
  }
}

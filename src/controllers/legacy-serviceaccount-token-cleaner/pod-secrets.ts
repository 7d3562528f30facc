// The names of the Secrets a Pod refers to, as upstream's VisitPodSecretNames finds them: image
// pull secrets; each container's (init, ephemeral included) env secretKeyRef and envFrom secretRef;
// and the volumes that name a Secret (secret, projected secret sources, and the secretRef or
// secretName of azureFile, cephfs, cinder, flexVolume, iscsi, rbd, scaleIO, storageos, and csi's
// nodePublishSecretRef). Odd shapes are skipped, never errors.

import type { ApiObject } from '../../machinery/object.ts';

type Rec = Record<string, unknown>;

const rec = (v: unknown): Rec | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function add(out: Set<string>, v: unknown): void {
  if (typeof v === 'string' && v !== '') out.add(v);
}

const REF_VOLUMES = ['cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos'] as const;

export function podSecretNames(pod: ApiObject): Set<string> {
  const out = new Set<string>();
  const spec = rec(pod.spec);
  if (spec === undefined) return out;
  for (const ref of arr(spec.imagePullSecrets)) add(out, rec(ref)?.name);
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of arr(spec[field])) {
      for (const env of arr(rec(c)?.env)) add(out, rec(rec(rec(env)?.valueFrom)?.secretKeyRef)?.name);
      for (const from of arr(rec(c)?.envFrom)) add(out, rec(rec(from)?.secretRef)?.name);
    }
  }
  for (const vol of arr(spec.volumes)) {
    const v = rec(vol);
    if (v === undefined) continue;
    add(out, rec(v.secret)?.secretName);
    add(out, rec(v.azureFile)?.secretName);
    for (const kind of REF_VOLUMES) add(out, rec(rec(v[kind])?.secretRef)?.name);
    add(out, rec(rec(v.csi)?.nodePublishSecretRef)?.name);
    for (const source of arr(rec(v.projected)?.sources)) add(out, rec(rec(source)?.secret)?.name);
  }
  return out;
}

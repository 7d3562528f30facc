// What a Pod or a PersistentVolume names, as the Node authorizer's graph and the NodeRestriction
// admission plugin need it (both layers read it from here): a Pod's Secrets
// (image pull secrets, env and envFrom of every container kind, secret-bearing volumes), ConfigMaps
// (env, envFrom, configMap and projected volumes), PersistentVolumeClaims (claims and the claim an
// ephemeral volume makes, `<pod>-<volume>`) and ResourceClaims (named, or made from a template
// and reported in status); a PersistentVolume's Secrets with whether a node agent ever reads them
// (the CSI controller secrets it does not). Odd shapes are skipped, never errors: the objects come
// from the store, but the graph must not fall over on one it cannot read.

type Rec = Record<string, unknown>;

export const rec = (v: unknown): Rec | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined;
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function add(out: Set<string>, v: unknown): void {
  if (typeof v === 'string' && v !== '') out.add(v);
}

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;
const SECRET_REF_VOLUMES = [
  'cephfs',
  'cinder',
  'flexVolume',
  'iscsi',
  'rbd',
  'scaleIO',
  'storageos',
] as const;

function containers(spec: Rec): Rec[] {
  const out: Rec[] = [];
  for (const list of CONTAINER_LISTS) {
    for (const c of arr(spec[list])) {
      const r = rec(c);
      if (r !== undefined) out.push(r);
    }
  }
  return out;
}

function volumes(spec: Rec): Rec[] {
  return arr(spec.volumes)
    .map(rec)
    .filter((v): v is Rec => v !== undefined);
}

export function podSecretNames(pod: Rec): Set<string> {
  const out = new Set<string>();
  const spec = rec(pod.spec);
  if (spec === undefined) return out;
  for (const ref of arr(spec.imagePullSecrets)) add(out, rec(ref)?.name);
  for (const c of containers(spec)) {
    for (const env of arr(c.env)) add(out, rec(rec(rec(env)?.valueFrom)?.secretKeyRef)?.name);
    for (const from of arr(c.envFrom)) add(out, rec(rec(from)?.secretRef)?.name);
  }
  for (const v of volumes(spec)) {
    add(out, rec(v.secret)?.secretName);
    add(out, rec(v.azureFile)?.secretName);
    for (const kind of SECRET_REF_VOLUMES) add(out, rec(rec(v[kind])?.secretRef)?.name);
    add(out, rec(rec(v.csi)?.nodePublishSecretRef)?.name);
    for (const source of arr(rec(v.projected)?.sources)) add(out, rec(rec(source)?.secret)?.name);
  }
  return out;
}

export function podConfigMapNames(pod: Rec): Set<string> {
  const out = new Set<string>();
  const spec = rec(pod.spec);
  if (spec === undefined) return out;
  for (const c of containers(spec)) {
    for (const env of arr(c.env)) add(out, rec(rec(rec(env)?.valueFrom)?.configMapKeyRef)?.name);
    for (const from of arr(c.envFrom)) add(out, rec(rec(from)?.configMapRef)?.name);
  }
  for (const v of volumes(spec)) {
    add(out, rec(v.configMap)?.name);
    for (const source of arr(rec(v.projected)?.sources)) add(out, rec(rec(source)?.configMap)?.name);
  }
  return out;
}

/** Whether the Pod names a ClusterTrustBundle in a projected volume. */
export function podReferencesTrustBundles(pod: Rec): boolean {
  const spec = rec(pod.spec);
  if (spec === undefined) return false;
  return volumes(spec).some((v) =>
    arr(rec(v.projected)?.sources).some((s) => rec(rec(s)?.clusterTrustBundle)),
  );
}

export function podClaimNames(pod: Rec): Set<string> {
  const out = new Set<string>();
  const spec = rec(pod.spec);
  if (spec === undefined) return out;
  const podName = str(rec(pod.metadata)?.name);
  for (const v of volumes(spec)) {
    const pvc = rec(v.persistentVolumeClaim);
    if (pvc !== undefined) add(out, pvc.claimName);
    else if (rec(v.ephemeral) !== undefined && podName !== '') add(out, `${podName}-${str(v.name)}`);
  }
  return out;
}

/** The ResourceClaims the Pod uses whose names are known by now. */
export function podResourceClaimNames(pod: Rec): Set<string> {
  const out = new Set<string>();
  const spec = rec(pod.spec);
  if (spec === undefined) return out;
  const status = rec(pod.status);
  const made = new Map<string, unknown>();
  for (const s of arr(status?.resourceClaimStatuses)) {
    const r = rec(s);
    if (r !== undefined && typeof r.name === 'string') made.set(r.name, r.resourceClaimName);
  }
  for (const c of arr(spec.resourceClaims)) {
    const r = rec(c);
    if (r === undefined) continue;
    if (typeof r.resourceClaimName === 'string') add(out, r.resourceClaimName);
    else if (typeof r.resourceClaimTemplateName === 'string') add(out, made.get(str(r.name)));
  }
  add(out, rec(status?.extendedResourceClaimStatus)?.resourceClaimName);
  return out;
}

/** What of a Pod's status changes its edges: the claims made for it. */
export function podClaimStatusKey(pod: Rec): string {
  const status = rec(pod.status);
  return JSON.stringify([
    arr(status?.resourceClaimStatuses).map((s) => [rec(s)?.name, rec(s)?.resourceClaimName ?? null]),
    rec(status?.extendedResourceClaimStatus)?.resourceClaimName ?? null,
  ]);
}

export interface PvSecret {
  namespace: string;
  name: string;
  /** Whether a node agent reads it (mounting); the CSI controller secrets only controllers read. */
  nodeVisible: boolean;
}

export function pvSecrets(pv: Rec): PvSecret[] {
  const out: PvSecret[] = [];
  const spec = rec(pv.spec);
  if (spec === undefined) return out;
  const claimNs = str(rec(spec.claimRef)?.namespace);
  const push = (namespace: string, name: unknown, nodeVisible = true) => {
    if (typeof name === 'string' && name !== '') out.push({ namespace, name, nodeVisible });
  };
  /** A secretRef whose namespace defaults to the claim's (older objects carried none). */
  const ref = (r: Rec | undefined, defaultNs: string) => {
    if (r !== undefined) push(str(r.namespace) || defaultNs, r.name);
  };
  const azure = rec(spec.azureFile);
  if (azure !== undefined) {
    push(str(azure.secretNamespace) || claimNs, azure.secretName);
    return out;
  }
  if (rec(spec.cephfs)) ref(rec(rec(spec.cephfs)?.secretRef), claimNs);
  else if (rec(spec.cinder)) ref(rec(rec(spec.cinder)?.secretRef), '');
  else if (rec(spec.flexVolume)) ref(rec(rec(spec.flexVolume)?.secretRef), claimNs);
  else if (rec(spec.rbd)) ref(rec(rec(spec.rbd)?.secretRef), claimNs);
  else if (rec(spec.scaleIO)) ref(rec(rec(spec.scaleIO)?.secretRef), claimNs);
  else if (rec(spec.iscsi)) ref(rec(rec(spec.iscsi)?.secretRef), claimNs);
  else if (rec(spec.storageos)) ref(rec(rec(spec.storageos)?.secretRef), '');
  else if (rec(spec.csi)) {
    const csi = rec(spec.csi) ?? {};
    for (const [field, visible] of [
      ['controllerPublishSecretRef', false],
      ['controllerExpandSecretRef', false],
      ['nodePublishSecretRef', true],
      ['nodeStageSecretRef', true],
      ['nodeExpandSecretRef', true],
    ] as const) {
      const r = rec(csi[field]);
      if (r !== undefined) push(str(r.namespace), r.name, visible);
    }
  }
  return out;
}

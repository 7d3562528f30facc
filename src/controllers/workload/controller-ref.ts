// Controller references and claiming (upstream's ControllerRefManager): which object controls
// another, and how a workload controller takes in matching orphans and lets go of objects that no
// longer match, each by a JSON patch whose first operation tests the object's uid, so a patch never
// lands on an object deleted and recreated under the same name.

import type { ResourceClient } from '../../client/api.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { messageOf, statusCode } from '../controller-support.ts';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

function isOwnerRef(v: unknown): v is OwnerReference {
  if (v === null || typeof v !== 'object') return false;
  const r = v as Record<string, unknown>;
  return typeof r.uid === 'string' && typeof r.kind === 'string' && typeof r.name === 'string';
}

/** The object's owner references that are well formed. */
export function ownerRefsOf(obj: ApiObject): OwnerReference[] {
  const refs = obj.metadata?.ownerReferences;
  return Array.isArray(refs) ? refs.filter(isOwnerRef) : [];
}

/** The reference marked `controller: true`, if any. */
export function controllerRefOf(obj: ApiObject): OwnerReference | undefined {
  return ownerRefsOf(obj).find((r) => r.controller === true);
}

/** A controller reference to `owner` as its dependents carry it (blocking the owner's deletion). */
export function newControllerRef(owner: ApiObject, apiVersion: string, kind: string): OwnerReference {
  return {
    apiVersion,
    kind,
    name: String(owner.metadata?.name ?? ''),
    uid: String(owner.metadata?.uid ?? ''),
    controller: true,
    blockOwnerDeletion: true,
  };
}

export interface ClaimOptions {
  owner: ApiObject;
  apiVersion: string;
  kind: string;
  /** Whether an object's labels match the owner's selector. */
  matches(labels: Record<string, string>): boolean;
  /** The resource client of the claimed kind in the owner's namespace (to patch ownerReferences). */
  client: ResourceClient;
  /** Re-reads the owner (uncached) and throws if it is being deleted or its uid changed: upstream's canAdopt. */
  canAdopt(): Promise<void>;
}

/**
 * A canAdopt for ClaimOptions: reads the owner fresh and refuses when it is gone, was replaced by
 * another object of the same name, or is being deleted (upstream's RecheckDeletionTimestamp).
 */
export function recheckOwner(
  read: () => Promise<ApiObject>,
  owner: ApiObject,
  describe: string,
): () => Promise<void> {
  return async () => {
    const fresh = await read();
    if (fresh.metadata?.uid !== owner.metadata?.uid)
      throw new Error(
        `original ${describe} is gone: got uid ${String(fresh.metadata?.uid)}, wanted ${String(owner.metadata?.uid)}`,
      );
    if (fresh.metadata?.deletionTimestamp)
      throw new Error(`${describe} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
  };
}

const is404 = (err: unknown): boolean => statusCode(err) === 404;
const is422 = (err: unknown): boolean => statusCode(err) === 422;

/** Adds `ref` to the object's owner references, tested against the uid and the references it had. */
export async function adoptObject(
  client: ResourceClient,
  obj: ApiObject,
  ref: OwnerReference,
): Promise<void> {
  const name = String(obj.metadata?.name ?? '');
  const current = obj.metadata?.ownerReferences;
  const ops: unknown[] = [{ op: 'test', path: '/metadata/uid', value: obj.metadata?.uid }];
  if (Array.isArray(current)) {
    // A concurrent change to the references fails the test rather than being overwritten.
    ops.push({ op: 'test', path: '/metadata/ownerReferences', value: current });
    ops.push({ op: 'replace', path: '/metadata/ownerReferences', value: [...current, ref] });
  } else {
    ops.push({ op: 'add', path: '/metadata/ownerReferences', value: [ref] });
  }
  await client.patch(name, 'json', ops);
}

/**
 * Removes the reference to `ownerUid` from the object. A vanished object, or one whose uid or
 * references changed (the patch's tests fail with 422), needs no release: upstream ignores both.
 */
export async function releaseObject(client: ResourceClient, obj: ApiObject, ownerUid: string): Promise<void> {
  const refs = Array.isArray(obj.metadata?.ownerReferences) ? obj.metadata.ownerReferences : [];
  const index = refs.findIndex((r) => isOwnerRef(r) && r.uid === ownerUid);
  if (index < 0) return;
  const ops = [
    { op: 'test', path: '/metadata/uid', value: obj.metadata?.uid },
    { op: 'test', path: `/metadata/ownerReferences/${index}/uid`, value: ownerUid },
    { op: 'remove', path: `/metadata/ownerReferences/${index}` },
  ];
  try {
    await client.patch(String(obj.metadata?.name ?? ''), 'json', ops);
  } catch (err) {
    if (is404(err) || is422(err)) return;
    throw err;
  }
}

/**
 * Adopts orphans that match (after canAdopt, asked once), releases owned objects that no longer
 * match, and answers the objects owned afterwards (upstream's ClaimObjects). Objects controlled by another owner are left alone;
 * an owner being deleted adopts nothing and releases nothing. The first failure is thrown after
 * every object was tried, as upstream aggregates them.
 */
export async function claimObjects(objects: readonly ApiObject[], opts: ClaimOptions): Promise<ApiObject[]> {
  const ownerUid = String(opts.owner.metadata?.uid ?? '');
  const ownerDeleting = Boolean(opts.owner.metadata?.deletionTimestamp);
  const ownerNs = opts.owner.metadata?.namespace;
  let adoptable: Promise<void> | undefined;
  const canAdoptOnce = (): Promise<void> => {
    adoptable ??= opts.canAdopt();
    return adoptable;
  };
  const claimed: ApiObject[] = [];
  const errors: unknown[] = [];
  for (const obj of objects) {
    const labels = obj.metadata?.labels ?? {};
    const ref = controllerRefOf(obj);
    try {
      if (ref !== undefined) {
        if (ref.uid !== ownerUid) continue;
        if (opts.matches(labels)) {
          claimed.push(obj);
          continue;
        }
        if (ownerDeleting) continue;
        await releaseObject(opts.client, obj, ownerUid);
        continue;
      }
      if (ownerDeleting || !opts.matches(labels)) continue;
      if (obj.metadata?.deletionTimestamp) continue;
      if (ownerNs && obj.metadata?.namespace !== ownerNs) continue;
      try {
        await canAdoptOnce();
      } catch (err) {
        const m = obj.metadata;
        throw new Error(`can't adopt ${m?.namespace}/${m?.name} (${m?.uid}): ${messageOf(err)}`, {
          cause: err,
        });
      }
      try {
        await adoptObject(opts.client, obj, newControllerRef(opts.owner, opts.apiVersion, opts.kind));
      } catch (err) {
        if (is404(err)) continue;
        throw err;
      }
      claimed.push(obj);
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) throw errors[0];
  return claimed;
}

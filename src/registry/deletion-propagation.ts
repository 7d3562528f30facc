// Deletion propagation: how a delete treats the object's dependents (objects whose ownerReferences
// name it). Orphan and Foreground are carried out by the garbage collector, signalled through two
// finalizers the delete adds; Background deletes the owner at once and leaves the collector to
// remove dependents that have no owner left.

export const PROPAGATION_POLICIES = ['Orphan', 'Background', 'Foreground'] as const;
export type PropagationPolicy = (typeof PROPAGATION_POLICIES)[number];

/** The collector strips the owner's references from its dependents, then removes this finalizer. */
export const ORPHAN_FINALIZER = 'orphan';
/** The collector deletes the dependents (waiting for blocking ones), then removes this finalizer. */
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/**
 * The finalizers an object carries once deleted with `policy`: the policy's own finalizer added and
 * the other one dropped. Without a policy the object keeps what it has.
 */
export function finalizersForPolicy(
  finalizers: readonly string[],
  policy: PropagationPolicy | undefined,
): string[] {
  if (policy === undefined) return [...finalizers];
  const rest = finalizers.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (policy === 'Orphan') return [...rest, ORPHAN_FINALIZER];
  if (policy === 'Foreground') return [...rest, FOREGROUND_FINALIZER];
  return rest;
}

// The conditions a terminating namespace carries while the namespace controller empties it, as
// upstream's namespaceConditionUpdater: five condition types, each True with a reason and message
// naming what goes wrong (discovery failures, deletions that failed, resources and finalizers that
// remain), or False with its all-clear reason and message. lastTransitionTime moves only when a
// condition's status changes; a write is needed only when something changed.

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

/** Upstream's condition types, reasons and messages, in upstream's order. */
const CONDITION_TYPES: readonly [type: string, okReason: string, okMessage: string][] = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  [
    'NamespaceDeletionGroupVersionParsingFailure',
    'ParsedGroupVersions',
    'All legacy kube types successfully parsed',
  ],
  [
    'NamespaceDeletionContentFailure',
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
];

/** metav1.Now() as it travels: RFC 3339 to the second. */
export function conditionTime(nowMs: number): string {
  return `${new Date(nowMs).toISOString().slice(0, 19)}Z`;
}

/** What one pass over a namespace found, turned into conditions by update(). */
export class ConditionUpdater {
  private readonly failing: NamespaceCondition[] = [];
  private readonly deleteErrors: string[] = [];

  constructor(private readonly now: string) {}

  /** Discovery failed, wholly (`groups` undefined) or for some group versions. */
  discoveryFailed(message: string, groups?: Record<string, string>): void {
    let text = message;
    if (groups !== undefined) {
      const list = Object.entries(groups)
        .map(([gv, why]) => `${gv}: ${why}`)
        .sort();
      text = `Discovery failed for some groups, ${list.length} failing: unable to retrieve the complete list of server APIs: ${list.join(', ')}`;
    }
    this.fail('NamespaceDeletionDiscoveryFailure', 'DiscoveryFailed', text);
  }

  groupVersionParsingFailed(message: string): void {
    this.fail('NamespaceDeletionGroupVersionParsingFailure', 'GroupVersionParsingFailed', message);
  }

  deleteContentFailed(message: string): void {
    this.deleteErrors.push(message);
  }

  /** Remaining objects per `resource.group`, and per finalizer the objects it holds. */
  contentTotals(remaining: ReadonlyMap<string, number>, finalizers: ReadonlyMap<string, number>): void {
    const resources = [...remaining]
      .filter(([, n]) => n > 0)
      .map(([gr, n]) => `${gr} has ${n} resource instances`)
      .sort();
    if (remaining.size > 0)
      this.fail(
        'NamespaceContentRemaining',
        'SomeResourcesRemain',
        `Some resources are remaining: ${resources.join(', ')}`,
      );
    const held = [...finalizers]
      .filter(([, n]) => n > 0)
      .map(([f, n]) => `${f} in ${n} resource instances`)
      .sort();
    if (finalizers.size > 0)
      this.fail(
        'NamespaceFinalizersRemaining',
        'SomeFinalizersRemain',
        `Some content in the namespace has finalizers remaining: ${held.join(', ')}`,
      );
  }

  /** Brings `conditions` (changed in place) up to date; true when anything changed. */
  update(conditions: NamespaceCondition[]): boolean {
    if (
      this.deleteErrors.length > 0 &&
      !this.failing.some((c) => c.type === 'NamespaceDeletionContentFailure')
    ) {
      const msgs = [...this.deleteErrors].sort();
      this.fail(
        'NamespaceDeletionContentFailure',
        'ContentDeletionFailed',
        `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
      );
    }
    let changed = false;
    for (const [type, okReason, okMessage] of CONDITION_TYPES) {
      const wanted = this.failing.find((c) => c.type === type) ?? {
        type,
        status: 'False' as const,
        lastTransitionTime: this.now,
        reason: okReason,
        message: okMessage,
      };
      const old = conditions.find((c) => c.type === type);
      if (old === undefined) {
        conditions.push({ ...wanted });
        changed = true;
      } else if (
        old.status !== wanted.status ||
        old.reason !== wanted.reason ||
        old.message !== wanted.message
      ) {
        if (old.status !== wanted.status) old.lastTransitionTime = this.now;
        old.status = wanted.status;
        old.reason = wanted.reason;
        old.message = wanted.message;
        changed = true;
      }
    }
    return changed;
  }

  private fail(type: string, reason: string, message: string): void {
    this.failing.push({ type, status: 'True', lastTransitionTime: this.now, reason, message });
  }
}

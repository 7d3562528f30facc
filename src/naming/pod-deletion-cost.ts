// The annotation by which a user tells workload controllers which Pods to delete first on scale
// down (upstream `controller.kubernetes.io/pod-deletion-cost`): lower costs go first.

import type { NamingProfile } from './profile.ts';

export function podDeletionCostAnnotation(profile: NamingProfile): string {
  return `controller.${profile.labelDomain}/pod-deletion-cost`;
}

// The core kinds of running workloads: Pod, with its sub-resources.

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';

export function workloadCoreKinds(_profile: NamingProfile): KindDefinition[] {
  return [];
}

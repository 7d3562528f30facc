// The core kinds of running workloads: Pod, with its sub-resources (status, binding, eviction,
// ephemeralcontainers).

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { podKind } from './pod/kind.ts';

export function workloadCoreKinds(profile: NamingProfile): KindDefinition[] {
  return [podKind(profile)];
}

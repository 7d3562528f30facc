// The core kinds that describe the cluster itself: Node, and Event (also served in the events group).

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';

export function clusterCoreKinds(_profile: NamingProfile): KindDefinition[] {
  return [];
}

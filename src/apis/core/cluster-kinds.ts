// The core kinds that describe the cluster itself: Node, and Event (also served in the events group).

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { eventKind } from './event.ts';
import { nodeKind } from './node.ts';

export function clusterCoreKinds(profile: NamingProfile): KindDefinition[] {
  return [nodeKind(profile), eventKind(profile)];
}

// The labels that give a Node its roles in `kubectl get nodes` (upstream's `node-role.kubernetes.io/<role>`
// keys and the older `kubernetes.io/role` key), under the profile's label domain.

import { labelKey, type NamingProfile } from './profile.ts';

/** Keys starting with this name a role after it (`<prefix>control-plane`). */
export function nodeRoleLabelPrefix(profile: NamingProfile): string {
  return `node-role.${profile.labelDomain}/`;
}

/** The older key whose value is the role. */
export function nodeRoleLabel(profile: NamingProfile): string {
  return labelKey(profile, 'role');
}

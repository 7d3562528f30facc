// The strategy settings the four RBAC kinds share: upstream's RBAC strategies create on PUT, take
// unconditional updates, keep no status and no generation, and name objects as path segments.
//
// Escalation prevention (a role's permissions, a binding's `bind`) needs the requesting user and
// the authorizer, which a strategy never sees: it belongs in a validating admission plugin over the
// four resources (src/admission, AdmissionAttributes carry the user and both objects), or in a
// wrapper around these kinds' stores. The strategies here only default and validate.

import type { Strategy } from '../../registry/strategy.ts';
import { NAMESPACED_DEFAULTS } from '../strategy-defaults.ts';
import { rbacName } from './validation.ts';

export const RBAC_STRATEGY_DEFAULTS: Omit<Strategy, 'validate' | 'validateUpdate' | 'namespaced'> = {
  ...NAMESPACED_DEFAULTS,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  validateName: rbacName,
};

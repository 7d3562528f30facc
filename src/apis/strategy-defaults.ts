// The strategy settings most built-in kinds share; each kind spreads these and overrides what differs.

import { nameIsDNSSubdomain } from '../machinery/validation/names.ts';
import type { Strategy } from '../registry/strategy.ts';

export const NAMESPACED_DEFAULTS: Omit<Strategy, 'validate' | 'validateUpdate'> = {
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  hasStatus: false,
  returnDeletedObject: false,
  validateName: nameIsDNSSubdomain,
};

// Shared by the generic store's tests: a permissive strategy to override per case, and the Status
// a rejected call carries.

import assert from 'node:assert/strict';
import { type ApiError, type Status, statusOf } from '../../machinery/status.ts';
import { nameIsDNSSubdomain } from '../../machinery/validation/names.ts';
import type { Strategy } from '../strategy.ts';

/** A namespaced kind with no status, no generation and no validation beyond names. */
export const testStrategy = (over: Partial<Strategy> = {}): Strategy => ({
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  hasStatus: false,
  returnDeletedObject: false,
  validateName: nameIsDNSSubdomain,
  validate: () => [],
  validateUpdate: () => [],
  ...over,
});

/** The Status of the error `p` rejects with; fails the test when it resolves. */
export async function rejectionStatus(p: Promise<unknown>): Promise<Status> {
  try {
    await p;
  } catch (err) {
    return statusOf(err as ApiError);
  }
  assert.fail('expected an error');
}

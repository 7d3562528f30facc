// Storage failures as the API reports them: the one place that turns a StorageError into a Status.

import {
  alreadyExists,
  badRequest,
  conflict,
  type GroupResource,
  internalError,
  notFound,
  resourceExpired,
  serviceUnavailable,
  tooLargeResourceVersion,
} from '../machinery/status.ts';
import { type CompactedError, isStorageError, type TooLargeResourceVersionError } from '../storage/errors.ts';

const CONTINUE_TOO_OLD =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list ' +
  'without the continue parameter, or use the continue token in this response to retrieve the remainder of the ' +
  'results. Continuing with the provided token results in an inconsistent list - objects that were created, ' +
  'modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Maps a storage failure for `name` of `gr`; anything that is not a storage error passes through. */
export function fromStorageError(err: unknown, gr: GroupResource, name: string): unknown {
  if (!isStorageError(err)) return err;
  switch (err.code) {
    case 'KeyNotFound':
      return notFound(gr, name);
    case 'KeyExists':
      return alreadyExists(gr, name);
    // A failed precondition and a stored object that cannot be used are both conflicts upstream.
    case 'ResourceVersionConflict':
    case 'InvalidObject':
      return conflict(gr, name, err.message);
    case 'Compacted': {
      const c = err as CompactedError;
      if (c.fromContinue) return resourceExpired(CONTINUE_TOO_OLD);
      return resourceExpired(`too old resource version: ${c.requested} (${c.compactRevision})`);
    }
    case 'TooLargeResourceVersion': {
      const t = err as TooLargeResourceVersionError;
      return tooLargeResourceVersion(t.requested, t.current, t.retryAfterSeconds);
    }
    case 'InvalidContinue':
      return badRequest(err.message);
    case 'Unavailable':
      return serviceUnavailable(err.message);
    default:
      return internalError(err);
  }
}

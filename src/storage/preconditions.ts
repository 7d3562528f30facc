// Delete and update preconditions: the caller names the uid and/or resourceVersion it expects.

import type { ApiObject } from '../machinery/object.ts';
import { ResourceVersionConflictError } from './errors.ts';
import type { Preconditions } from './interface.ts';

export function checkPreconditions(key: string, pre: Preconditions | undefined, obj: ApiObject): void {
  if (pre === undefined) return;
  const meta = obj.metadata ?? {};
  if (pre.uid !== undefined && pre.uid !== meta.uid) {
    throw new ResourceVersionConflictError(
      key,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`,
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
    throw new ResourceVersionConflictError(
      key,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
    );
  }
}

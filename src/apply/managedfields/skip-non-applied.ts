// Objects nobody ever applied carry no bookkeeping for updates, except from their creation. The
// first apply to an object without managedFields first records its existing fields under
// "before-first-apply", so the applier conflicts with them instead of silently taking them.

import type { JsonObject } from '../value.ts';
import type { Managed } from './managed.ts';
import type { Manager, Written } from './manager.ts';

const BEFORE_FIRST_APPLY = 'before-first-apply';

function hasUid(obj: JsonObject): boolean {
  const meta = obj.metadata;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) && !!meta.uid;
}

export class SkipNonApplied implements Manager {
  constructor(
    private readonly inner: Manager,
    private readonly empty: () => JsonObject,
  ) {}

  update(live: JsonObject, next: JsonObject, managed: Managed, manager: string): Written {
    if (managed.fields.size === 0 && hasUid(live)) return { object: next, managed };
    return this.inner.update(live, next, managed, manager);
  }

  apply(live: JsonObject, config: JsonObject, managed: Managed, manager: string, force: boolean): Written {
    let current = managed;
    if (managed.fields.size === 0)
      current = this.inner.update(this.empty(), live, managed, BEFORE_FIRST_APPLY).managed;
    return this.inner.apply(live, config, current, manager, force);
  }
}

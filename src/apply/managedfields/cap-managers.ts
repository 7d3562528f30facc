// At most ten Update entries: past that, the oldest are folded into one "ancient-changes" entry
// per apiVersion, so managedFields cannot grow without bound.

import type { JsonObject } from '../value.ts';
import { type Managed, managerIdentifier } from './managed.ts';
import type { Manager, Written } from './manager.ts';

export const MAX_UPDATE_MANAGERS = 10;
const BUCKET = 'ancient-changes';

function seconds(t: string | undefined): number {
  return t === undefined ? 0 : Math.floor(Date.parse(t) / 1000);
}

export class CapManagers implements Manager {
  constructor(
    private readonly inner: Manager,
    private readonly max = MAX_UPDATE_MANAGERS,
  ) {}

  update(live: JsonObject, next: JsonObject, managed: Managed, manager: string): Written {
    const out = this.inner.update(live, next, managed, manager);
    this.cap(out.managed);
    return out;
  }

  apply(live: JsonObject, config: JsonObject, managed: Managed, manager: string, force: boolean): Written {
    return this.inner.apply(live, config, managed, manager, force);
  }

  private cap(managed: Managed): void {
    const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
    if (updaters.length <= this.max) return;
    updaters.sort(
      (a, b) => seconds(managed.times.get(a)) - seconds(managed.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0),
    );
    const firstByVersion = new Map<string, string>();
    let length = updaters.length;
    for (let i = 0; i < updaters.length && length > this.max; i++) {
      const id = updaters[i];
      const vs = managed.fields.get(id);
      if (vs === undefined) continue;
      const bucket = managerIdentifier({ manager: BUCKET, operation: 'Update', apiVersion: vs.apiVersion });
      const first = firstByVersion.get(vs.apiVersion);
      if (first === undefined) {
        firstByVersion.set(vs.apiVersion, id);
        continue;
      }
      if (!managed.fields.has(bucket)) {
        const moved = managed.fields.get(first);
        managed.fields.delete(first);
        if (moved !== undefined) managed.fields.set(bucket, moved);
      }
      const into = managed.fields.get(bucket);
      managed.fields.set(bucket, { ...vs, set: into === undefined ? vs.set : vs.set.union(into.set) });
      managed.fields.delete(id);
      length--;
      managed.times.set(bucket, managed.times.get(id));
    }
  }
}

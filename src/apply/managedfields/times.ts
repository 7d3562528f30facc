// Stamps the time of a manager's last change. An update is computed under a placeholder manager
// and then joined to the real one, so a write that changes nothing leaves the entry's time alone.

import type { JsonObject } from '../value.ts';
import type { Managed } from './managed.ts';
import type { Manager, Written } from './manager.ts';

const CURRENT = 'current-operation';

/** Now at second precision, as metadata times are written. */
function now(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`;
}

export class ManagedFieldsTimes implements Manager {
  constructor(private readonly inner: Manager) {}

  update(live: JsonObject, next: JsonObject, managed: Managed, manager: string): Written {
    const out = this.inner.update(live, next, managed, CURRENT);
    const vs = out.managed.fields.get(CURRENT);
    if (vs !== undefined) {
      out.managed.fields.delete(CURRENT);
      const previous = out.managed.fields.get(manager);
      out.managed.fields.set(
        manager,
        previous === undefined ? vs : { ...vs, set: vs.set.union(previous.set) },
      );
      out.managed.times.set(manager, now());
    }
    return out;
  }

  apply(live: JsonObject, config: JsonObject, managed: Managed, manager: string, force: boolean): Written {
    const out = this.inner.apply(live, config, managed, manager, force);
    if (out.object !== undefined) out.managed.times.set(manager, now());
    return out;
  }
}

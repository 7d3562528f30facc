// Nobody owns the type and identity fields (apiVersion, kind, name, namespace, uid, timestamps,
// resourceVersion, generation, managedFields): the server or the URL sets them.

import { field } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import type { JsonObject } from '../value.ts';
import type { Managed } from './managed.ts';
import type { Manager, Written } from './manager.ts';

const META = [
  'name',
  'namespace',
  'creationTimestamp',
  'selfLink',
  'uid',
  'clusterName',
  'generation',
  'managedFields',
  'resourceVersion',
];

const STRIPPED = FieldSet.of(
  [field('apiVersion')],
  [field('kind')],
  [field('metadata')],
  ...META.map((m) => [field('metadata'), field(m)]),
);

export class StripMeta implements Manager {
  constructor(private readonly inner: Manager) {}

  private strip(managed: Managed, manager: string): void {
    const vs = managed.fields.get(manager);
    if (vs === undefined) return;
    const set = vs.set.difference(STRIPPED);
    if (set.empty()) managed.fields.delete(manager);
    else managed.fields.set(manager, { ...vs, set });
  }

  update(live: JsonObject, next: JsonObject, managed: Managed, manager: string): Written {
    const out = this.inner.update(live, next, managed, manager);
    this.strip(out.managed, manager);
    return out;
  }

  apply(live: JsonObject, config: JsonObject, managed: Managed, manager: string, force: boolean): Written {
    const out = this.inner.apply(live, config, managed, manager, force);
    this.strip(out.managed, manager);
    return out;
  }
}

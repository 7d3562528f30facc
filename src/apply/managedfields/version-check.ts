// An applied configuration must name the kind and version of the endpoint it is sent to.

import { badRequest } from '../../machinery/status.ts';
import type { JsonObject } from '../value.ts';
import type { Managed } from './managed.ts';
import type { Manager, Written } from './manager.ts';

export class VersionCheck implements Manager {
  constructor(
    private readonly inner: Manager,
    private readonly group: string,
    private readonly version: string,
    private readonly kind: string,
  ) {}

  update(live: JsonObject, next: JsonObject, managed: Managed, manager: string): Written {
    return this.inner.update(live, next, managed, manager);
  }

  apply(live: JsonObject, config: JsonObject, managed: Managed, manager: string, force: boolean): Written {
    const apiVersion = typeof config.apiVersion === 'string' ? config.apiVersion : '';
    const kind = typeof config.kind === 'string' ? config.kind : '';
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    if (group !== this.group || version !== this.version || kind !== this.kind) {
      throw badRequest(`invalid object type: ${group}/${version}, Kind=${kind}`);
    }
    return this.inner.apply(live, config, managed, manager, force);
  }
}

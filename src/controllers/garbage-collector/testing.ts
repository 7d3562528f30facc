// Test support for the controllers that work from discovery (garbage collector, namespace
// controller) against the fake cluster: a discovery answering a fixed, changeable list of core
// resources, and a logger that keeps what it was told. Imported by tests only.

import type { DiscoveredResource, DiscoveryResult } from '../../client/discovery.ts';
import type { ControllerLogger, ResourceDiscovery } from '../controller.ts';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** A preferred-version resource as discovery reports it (all verbs unless given). */
export function discovered(
  group: string,
  version: string,
  resource: string,
  kind: string,
  namespaced: boolean,
  verbs: string[] = VERBS,
): DiscoveredResource {
  return { group, version, resource, kind, namespaced, verbs, subresources: [], preferred: true };
}

export const CONFIG_MAPS = discovered('', 'v1', 'configmaps', 'ConfigMap', true);
export const SECRETS = discovered('', 'v1', 'secrets', 'Secret', true);
export const NAMESPACES_RESOURCE = discovered('', 'v1', 'namespaces', 'Namespace', false);

export class StaticDiscovery implements ResourceDiscovery {
  failed: Record<string, string> = {};
  /** When set, all() rejects with it. */
  error: Error | undefined;
  refreshes = 0;

  constructor(public resources: DiscoveredResource[]) {}

  async all(): Promise<DiscoveryResult> {
    if (this.error !== undefined) throw this.error;
    return { resources: [...this.resources], failed: { ...this.failed } };
  }

  refresh(): void {
    this.refreshes++;
  }
}

export class MemoryLog implements ControllerLogger {
  readonly lines: string[] = [];

  info(msg: string, fields?: Record<string, unknown>): void {
    this.lines.push(`I ${msg} ${fields === undefined ? '' : JSON.stringify(fields)}`);
  }

  error(msg: string, fields?: Record<string, unknown>): void {
    this.lines.push(`E ${msg} ${fields === undefined ? '' : JSON.stringify(fields)}`);
  }
}

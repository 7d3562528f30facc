// Node (core/v1, cluster-scoped, `nodes`, short name `no`) with its status sub-resource: a node
// agent may set every field, status included, when it registers its Node; afterwards the main
// resource keeps the status and /status keeps the spec. Columns as `kubectl get nodes`.

import type { ApiObject } from '../../machinery/object.ts';
import { nameIsDNSSubdomain } from '../../machinery/validation/names.ts';
import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { nodeColumns } from './node-columns.ts';
import { nodeSchema } from './node-schema.ts';
import { specOf, statusOf, validateNode, validateNodeUpdate } from './node-validation.ts';

/** Upstream keeps podCIDR as podCIDRs[0]; a client that sends only the old field fills the new one. */
function syncPodCIDRs(node: ApiObject): void {
  if (node.spec === undefined || node.spec === null || typeof node.spec !== 'object') return;
  const spec = node.spec as Record<string, unknown>;
  const cidrs = Array.isArray(spec.podCIDRs) ? (spec.podCIDRs as unknown[]) : [];
  if (cidrs.length > 0) spec.podCIDR = cidrs[0];
  else if (typeof spec.podCIDR === 'string' && spec.podCIDR !== '') spec.podCIDRs = [spec.podCIDR];
}

/** The removed dynamic configuration: kept on a Node only where the stored one already has it. */
function dropConfigSource(node: ApiObject, old: ApiObject | undefined): void {
  const spec = specOf(node);
  if (old === undefined || specOf(old).configSource === undefined) delete spec.configSource;
}

function dropStatusConfig(node: ApiObject, old: ApiObject | undefined): void {
  const status = statusOf(node);
  if (old === undefined || statusOf(old).config === undefined) delete status.config;
}

export function nodeKind(profile: NamingProfile): KindDefinition {
  return {
    resource: {
      group: '',
      version: 'v1',
      resource: 'nodes',
      singular: 'node',
      kind: 'Node',
      listKind: 'NodeList',
      shortNames: ['no'],
      namespaced: false,
      verbs: STANDARD_VERBS,
      subresources: { status: ['get', 'patch', 'update'] },
    },
    schema: nodeSchema,
    strategy: {
      namespaced: false,
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: true,
      tracksGeneration: false,
      hasStatus: true,
      returnDeletedObject: false,
      validateName: nameIsDNSSubdomain,
      // Status is kept on create: a node agent registers its Node with it.
      prepareForCreate: (obj) => {
        dropConfigSource(obj, undefined);
        dropStatusConfig(obj, undefined);
      },
      prepareForUpdate: (obj, old) => dropConfigSource(obj, old),
      prepareForStatusUpdate: (obj, old) => dropStatusConfig(obj, old),
      applyDefaults: syncPodCIDRs,
      // Upstream's rules are all hand-written: the schema's required fields are not checked apart.
      validate: validateNode,
      validateUpdate: validateNodeUpdate,
      selectableFields: {
        'spec.unschedulable': (obj) => String(specOf(obj).unschedulable === true),
      },
    },
    table: nodeColumns(profile),
  };
}

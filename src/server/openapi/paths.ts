// The operations of every resource path shape, in a form both OpenAPI versions render: which verb,
// which action, which parameters. Write operations declare dryRun, fieldManager and fieldValidation:
// kubectl reads the last to decide that the server validates fields itself.

import { OPENAPI_EXTENSIONS as X } from '../../naming/openapi-extensions.ts';
import type { KindDefinition, SubresourceView } from '../../registry/kind.ts';
import type { DescribedKind } from './schema-objects.ts';

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  action: string;
  operationId: string;
  description: string;
  /** Definition the response (and the body of post/put) is: the kind, its list, or a Status. */
  responseKind: string;
  hasBody: boolean;
  query: string[];
}

export interface PathItem {
  path: string;
  pathParams: string[];
  operations: Operation[];
  kind: DescribedKind;
}

const WRITE_QUERY = ['dryRun', 'fieldManager', 'fieldValidation'];
const LIST_QUERY = [
  'allowWatchBookmarks',
  'continue',
  'fieldSelector',
  'labelSelector',
  'limit',
  'resourceVersion',
  'resourceVersionMatch',
  'sendInitialEvents',
  'timeoutSeconds',
  'watch',
];

export const QUERY_PARAMS: Record<string, { type: string; description: string; uniqueItems?: boolean }> = {
  pretty: { type: 'string', description: "If 'true', then the output is pretty printed." },
  dryRun: {
    type: 'string',
    description:
      'When present, indicates that modifications should not be persisted. The only valid value is All.',
  },
  fieldManager: {
    type: 'string',
    description: 'fieldManager is a name associated with the actor or entity that is making these changes.',
  },
  fieldValidation: {
    type: 'string',
    description:
      'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: Ignore, Warn (default), Strict.',
    uniqueItems: true,
  },
  allowWatchBookmarks: {
    type: 'boolean',
    description: 'allowWatchBookmarks requests watch events with type "BOOKMARK".',
  },
  continue: {
    type: 'string',
    description: 'The continue option should be set when retrieving more results from the server.',
  },
  fieldSelector: {
    type: 'string',
    description: 'A selector to restrict the list of returned objects by their fields.',
  },
  labelSelector: {
    type: 'string',
    description: 'A selector to restrict the list of returned objects by their labels.',
  },
  limit: {
    type: 'integer',
    description: 'limit is a maximum number of responses to return for a list call.',
  },
  resourceVersion: {
    type: 'string',
    description: 'resourceVersion sets a constraint on what resource versions a request may be served from.',
  },
  resourceVersionMatch: {
    type: 'string',
    description: 'resourceVersionMatch determines how resourceVersion is applied to list calls.',
  },
  sendInitialEvents: {
    type: 'boolean',
    description: 'sendInitialEvents=true may be set together with watch=true.',
  },
  timeoutSeconds: { type: 'integer', description: 'Timeout for the list/watch call.' },
  watch: {
    type: 'boolean',
    description:
      'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.',
  },
  gracePeriodSeconds: {
    type: 'integer',
    description: 'The duration in seconds before the object should be deleted.',
  },
  propagationPolicy: { type: 'string', description: 'Whether and how garbage collection will be performed.' },
};

function opId(verb: string, k: DescribedKind, scope: string, suffix = ''): string {
  const g =
    k.resource.group === '' ? 'Core' : k.resource.group.split('.')[0].replace(/^./, (c) => c.toUpperCase());
  const v = k.resource.version.replace(/^./, (c) => c.toUpperCase());
  return `${verb}${g}${v}${scope}${k.resource.kind}${suffix}`;
}

/** What each verb becomes as an operation; `subject` is `the specified Kind` or `status of ...`. */
interface VerbSpec {
  method: Operation['method'];
  action: string;
  idVerb: string;
  describe: (subject: string, kind: string) => string;
  response: 'kind' | 'list' | 'Status';
  hasBody: boolean;
  query: string[];
}

const COLLECTION_VERBS: Record<string, VerbSpec> = {
  list: {
    method: 'get',
    action: 'list',
    idVerb: 'list',
    describe: (_s, k) => `list or watch objects of kind ${k}`,
    response: 'list',
    hasBody: false,
    query: LIST_QUERY,
  },
  create: {
    method: 'post',
    action: 'post',
    idVerb: 'create',
    describe: (_s, k) => `create a ${k}`,
    response: 'kind',
    hasBody: true,
    query: WRITE_QUERY,
  },
  deletecollection: {
    method: 'delete',
    action: 'deletecollection',
    idVerb: 'deleteCollection',
    describe: (_s, k) => `delete collection of ${k}`,
    response: 'Status',
    hasBody: false,
    query: ['dryRun', 'gracePeriodSeconds', 'propagationPolicy', ...LIST_QUERY],
  },
};

const OBJECT_VERBS: Record<string, VerbSpec> = {
  get: {
    method: 'get',
    action: 'get',
    idVerb: 'read',
    describe: (s) => `read ${s}`,
    response: 'kind',
    hasBody: false,
    query: [],
  },
  update: {
    method: 'put',
    action: 'put',
    idVerb: 'replace',
    describe: (s) => `replace ${s}`,
    response: 'kind',
    hasBody: true,
    query: WRITE_QUERY,
  },
  patch: {
    method: 'patch',
    action: 'patch',
    idVerb: 'patch',
    describe: (s) => `partially update ${s}`,
    response: 'kind',
    hasBody: true,
    query: [...WRITE_QUERY, 'force'],
  },
  delete: {
    method: 'delete',
    action: 'delete',
    idVerb: 'delete',
    describe: (_s, k) => `delete a ${k}`,
    response: 'Status',
    hasBody: false,
    query: ['dryRun', 'gracePeriodSeconds', 'propagationPolicy'],
  },
};

/** The operations of `verbs` that `table` knows, in the table's order. */
function operations(
  k: DescribedKind,
  table: Record<string, VerbSpec>,
  verbs: readonly string[],
  scope: string,
  suffix: string,
  subject: string,
): Operation[] {
  const r = k.resource;
  const responseOf = { kind: r.kind, list: r.listKind, Status: 'Status' };
  return Object.entries(table)
    .filter(([verb]) => verbs.includes(verb))
    .map(([, v]) => ({
      method: v.method,
      action: v.action,
      operationId: opId(v.idVerb, k, scope, suffix),
      description: v.describe(subject, r.kind),
      responseKind: responseOf[v.response],
      hasBody: v.hasBody,
      query: v.query,
    }));
}

export function pathItems(k: KindDefinition): PathItem[] {
  const r = k.resource;
  const root = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const base = r.namespaced ? `${root}/namespaces/{namespace}/${r.resource}` : `${root}/${r.resource}`;
  const scope = r.namespaced ? 'Namespaced' : '';
  const baseParams = r.namespaced ? ['namespace'] : [];
  const itemParams = [...baseParams, 'name'];
  const specified = `the specified ${r.kind}`;
  const items: PathItem[] = [
    {
      path: base,
      pathParams: baseParams,
      operations: operations(k, COLLECTION_VERBS, r.verbs, scope, '', ''),
      kind: k,
    },
    {
      path: `${base}/{name}`,
      pathParams: itemParams,
      operations: operations(k, OBJECT_VERBS, r.verbs, scope, '', specified),
      kind: k,
    },
  ];
  for (const [sub, subVerbs] of Object.entries(r.subresources)) {
    const suffix = sub.replace(/^./, (c) => c.toUpperCase());
    // Deleting a sub-resource is not a thing; only reads and writes of it are described.
    const writable = subVerbs.filter((v) => v !== 'delete');
    const view = k.views?.[sub];
    const action = k.actions?.[sub];
    const shaped = view ?? action;
    const bodyKind = shaped === undefined ? k : viewKindOf(shaped);
    // An action (pods/binding, serviceaccounts/token) is a POST to the object's sub-resource path.
    const verbs = action === undefined ? OBJECT_VERBS : { ...OBJECT_VERBS, create: COLLECTION_VERBS.create };
    items.push({
      path: `${base}/{name}/${sub}`,
      pathParams: itemParams,
      operations: operations(bodyKind, verbs, writable, scope, suffix, `${sub} of ${specified}`),
      kind: bodyKind,
    });
  }
  if (r.namespaced && r.verbs.includes('list')) {
    items.push({
      path: `${root}/${r.resource}`,
      pathParams: [],
      operations: operations(k, { list: COLLECTION_VERBS.list }, ['list'], '', 'ForAllNamespaces', ''),
      kind: k,
    });
  }
  return items;
}

export function gvkExtension(k: DescribedKind): Record<string, unknown> {
  return {
    [X.groupVersionKind]: { group: k.resource.group, kind: k.resource.kind, version: k.resource.version },
  };
}

export const ACTION_KEY = X.action;

QUERY_PARAMS.force = { type: 'boolean', description: 'Force is going to "force" Apply requests.' };

/**
 * A sub-resource view as a kind of its own, for its definition and the operations that carry it
 * (a Deployment's scale operations read and write autoscaling/v1 Scale). It has no list.
 */
export function viewKindOf(view: Pick<SubresourceView, 'schema'>): DescribedKind {
  const { group, version, kind } = view.schema;
  return {
    resource: {
      group,
      version,
      kind,
      resource: '',
      singular: '',
      listKind: '',
      namespaced: false,
      verbs: [],
      subresources: {},
    },
    schema: view.schema,
  };
}

/** The view kinds of `kinds`, once each. */
export function viewKinds(kinds: readonly KindDefinition[]): DescribedKind[] {
  const seen = new Map<string, DescribedKind>();
  for (const k of kinds) {
    for (const view of [...Object.values(k.views ?? {}), ...Object.values(k.actions ?? {})]) {
      const { group, version, kind } = view.schema;
      seen.set(`${group}/${version}/${kind}`, viewKindOf(view));
    }
  }
  return [...seen.values()];
}

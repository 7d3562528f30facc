// The operations of every resource path shape, in a form both OpenAPI versions render: which verb,
// which action, which parameters. Write operations declare dryRun, fieldManager and fieldValidation:
// kubectl reads the last to decide that the server validates fields itself.

import { OPENAPI_EXTENSIONS as X } from '../../naming/openapi-extensions.ts';
import type { KindDefinition } from '../../registry/kind.ts';

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
  kind: KindDefinition;
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

function opId(verb: string, k: KindDefinition, scope: string, suffix = ''): string {
  const g =
    k.resource.group === '' ? 'Core' : k.resource.group.split('.')[0].replace(/^./, (c) => c.toUpperCase());
  const v = k.resource.version.replace(/^./, (c) => c.toUpperCase());
  return `${verb}${g}${v}${scope}${k.resource.kind}${suffix}`;
}

export function pathItems(k: KindDefinition): PathItem[] {
  const r = k.resource;
  const root = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const nsd = r.namespaced;
  const base = nsd ? `${root}/namespaces/{namespace}/${r.resource}` : `${root}/${r.resource}`;
  const scope = nsd ? 'Namespaced' : '';
  const baseParams = nsd ? ['namespace'] : [];
  const verbs = new Set(r.verbs);
  const items: PathItem[] = [];
  const collection: Operation[] = [];
  if (verbs.has('list'))
    collection.push({
      method: 'get',
      action: 'list',
      operationId: opId('list', k, scope),
      description: `list or watch objects of kind ${r.kind}`,
      responseKind: r.listKind,
      hasBody: false,
      query: LIST_QUERY,
    });
  if (verbs.has('create'))
    collection.push({
      method: 'post',
      action: 'post',
      operationId: opId('create', k, scope),
      description: `create a ${r.kind}`,
      responseKind: r.kind,
      hasBody: true,
      query: WRITE_QUERY,
    });
  if (verbs.has('deletecollection'))
    collection.push({
      method: 'delete',
      action: 'deletecollection',
      operationId: opId('deleteCollection', k, scope),
      description: `delete collection of ${r.kind}`,
      responseKind: 'Status',
      hasBody: false,
      query: ['dryRun', 'gracePeriodSeconds', 'propagationPolicy', ...LIST_QUERY],
    });
  items.push({ path: base, pathParams: baseParams, operations: collection, kind: k });

  const one: Operation[] = [];
  if (verbs.has('get'))
    one.push({
      method: 'get',
      action: 'get',
      operationId: opId('read', k, scope),
      description: `read the specified ${r.kind}`,
      responseKind: r.kind,
      hasBody: false,
      query: [],
    });
  if (verbs.has('update'))
    one.push({
      method: 'put',
      action: 'put',
      operationId: opId('replace', k, scope),
      description: `replace the specified ${r.kind}`,
      responseKind: r.kind,
      hasBody: true,
      query: WRITE_QUERY,
    });
  if (verbs.has('patch'))
    one.push({
      method: 'patch',
      action: 'patch',
      operationId: opId('patch', k, scope),
      description: `partially update the specified ${r.kind}`,
      responseKind: r.kind,
      hasBody: true,
      query: [...WRITE_QUERY, 'force'],
    });
  if (verbs.has('delete'))
    one.push({
      method: 'delete',
      action: 'delete',
      operationId: opId('delete', k, scope),
      description: `delete a ${r.kind}`,
      responseKind: 'Status',
      hasBody: false,
      query: ['dryRun', 'gracePeriodSeconds', 'propagationPolicy'],
    });
  items.push({ path: `${base}/{name}`, pathParams: [...baseParams, 'name'], operations: one, kind: k });

  for (const [sub, subVerbs] of Object.entries(r.subresources)) {
    const ops: Operation[] = [];
    const suffix = sub.replace(/^./, (c) => c.toUpperCase());
    if (subVerbs.includes('get'))
      ops.push({
        method: 'get',
        action: 'get',
        operationId: opId('read', k, scope, suffix),
        description: `read ${sub} of the specified ${r.kind}`,
        responseKind: r.kind,
        hasBody: false,
        query: [],
      });
    if (subVerbs.includes('update'))
      ops.push({
        method: 'put',
        action: 'put',
        operationId: opId('replace', k, scope, suffix),
        description: `replace ${sub} of the specified ${r.kind}`,
        responseKind: r.kind,
        hasBody: true,
        query: WRITE_QUERY,
      });
    if (subVerbs.includes('patch'))
      ops.push({
        method: 'patch',
        action: 'patch',
        operationId: opId('patch', k, scope, suffix),
        description: `partially update ${sub} of the specified ${r.kind}`,
        responseKind: r.kind,
        hasBody: true,
        query: [...WRITE_QUERY, 'force'],
      });
    items.push({
      path: `${base}/{name}/${sub}`,
      pathParams: [...baseParams, 'name'],
      operations: ops,
      kind: k,
    });
  }
  if (nsd && verbs.has('list')) {
    items.push({
      path: `${root}/${r.resource}`,
      pathParams: [],
      operations: [
        {
          method: 'get',
          action: 'list',
          operationId: opId('list', k, '', 'ForAllNamespaces'),
          description: `list or watch objects of kind ${r.kind}`,
          responseKind: r.listKind,
          hasBody: false,
          query: LIST_QUERY,
        },
      ],
      kind: k,
    });
  }
  return items;
}

export function gvkExtension(k: KindDefinition): Record<string, unknown> {
  return {
    [X.groupVersionKind]: { group: k.resource.group, kind: k.resource.kind, version: k.resource.version },
  };
}

export const ACTION_KEY = X.action;

QUERY_PARAMS.force = { type: 'boolean', description: 'Force is going to "force" Apply requests.' };

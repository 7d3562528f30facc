// Request info: what a request is about, read from its method, path and query alone, before any
// handler runs. Authorization, audit and routing all decide on this.
//
// Path shapes (document 1, "Path shapes"):
//   /api/v1/<resource>[/<name>[/<subresource>...]]
//   /api/v1/namespaces/<ns>/<resource>[/<name>[/<subresource>...]]
//   /apis/<group>/<version>/... the same below the version
// Anything else, and the discovery roots themselves (/api, /apis, /apis/<group>), is a
// non-resource request whose verb is the lowercase HTTP method.

export interface RequestInfo {
  isResourceRequest: boolean;
  /** The request path without the query string. */
  path: string;
  /** API verb: get, list, watch, create, update, patch, delete, deletecollection, or a lowercase method. */
  verb: string;
  /** `api` or `apis` for resource requests. */
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments from the resource on (resource, name, subresource, ...). */
  parts: string[];
  /**
   * The path named a namespace before the resource (`/namespaces/{ns}/{resource}/…`), which only
   * namespaced resources have: `/api/v1/namespaces/x/namespaces` is no path at all.
   */
  underNamespace?: boolean;
  /**
   * The group as the path spelled it, when that is the upstream-named alias of `apiGroup`
   * (group-aliases.ts): routing answers in it; everything else decides on `apiGroup`.
   */
  pathGroup?: string;
}

/** Sub-resources of a namespace that stay sub-resources rather than naming a nested resource. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const VERB_BY_METHOD: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

function nonResource(path: string, method: string): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function parseRequestInfo(method: string, rawUrl: string): RequestInfo {
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
  const segments = path.split('/').filter((s) => s !== '');
  const decoded = segments.map(decodeSegment);
  if (decoded.some((s) => s === null)) return nonResource(path, method);
  let parts = decoded as string[];

  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return nonResource(path, method);
  let group = '';
  if (prefix === 'apis') {
    if (parts.length < 3) return nonResource(path, method);
    group = parts[1];
    parts = parts.slice(2);
  } else {
    if (parts.length < 2) return nonResource(path, method);
    parts = parts.slice(1);
  }
  const version = parts[0];
  parts = parts.slice(1);
  if (parts.length === 0) return nonResource(path, method);

  const info: RequestInfo = {
    isResourceRequest: true,
    path,
    verb: VERB_BY_METHOD[method.toUpperCase()] ?? '',
    apiPrefix: prefix,
    apiGroup: group,
    apiVersion: version,
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };

  if (parts[0] === 'namespaces' && parts.length > 1) {
    info.namespace = parts[1];
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2])) {
      parts = parts.slice(2);
      info.underNamespace = true;
    }
  }
  info.parts = parts;
  info.resource = parts[0];
  if (parts.length >= 2) info.name = parts[1];
  if (parts.length >= 3) info.subresource = parts[2];

  if (info.name === '' && info.verb === 'get') {
    info.verb = isTrue(query.get('watch')) ? 'watch' : 'list';
  } else if (info.name === '' && info.verb === 'delete') {
    info.verb = 'deletecollection';
  }
  // A list or watch narrowed to one name by field selector is about that object (for authorization).
  if ((info.verb === 'list' || info.verb === 'watch') && info.name === '') {
    const selected = nameFromFieldSelector(query.get('fieldSelector'));
    if (selected !== undefined) info.name = selected;
  }
  return info;
}

/** Go's strconv.ParseBool spellings of true, which is what clients are used to. */
const TRUE_SPELLINGS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

function isTrue(v: string | null): boolean {
  return v !== null && TRUE_SPELLINGS.has(v);
}

function nameFromFieldSelector(selector: string | null): string | undefined {
  if (selector === null || selector === '') return undefined;
  for (const term of selector.split(',')) {
    const m = /^metadata\.name==?(.*)$/.exec(term.trim());
    // Only a usable object name narrows the request; anything else stays a plain list.
    if (m && m[1] !== '' && m[1] !== '.' && m[1] !== '..' && !/[/%]/.test(m[1])) return m[1];
  }
  return undefined;
}

// One resource over HTTP: the paths (`/api/v1` for the core group, `/apis/<group>/<version>` for the
// others; `namespaces/<ns>/` when a namespace is given; a name and a subresource after the resource)
// and the query parameters exactly as the server reads them. Patches go in their own media types, an
// apply as application/apply-patch+yaml (JSON is valid YAML); delete options travel as a
// DeleteOptions body, as client-go sends them.

import type { ApiObject } from '../machinery/object.ts';
import type { Status } from '../machinery/status.ts';
import type {
  DeleteOptions,
  GroupVersionResource,
  ListOptions,
  ObjectList,
  PatchOptions,
  PatchType,
  ResourceClient,
  WatchOptions,
  WatchStream,
  WriteOptions,
} from './api.ts';
import type { RestClient, RestRequest } from './rest-client.ts';

export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

const seg = (s: string) => encodeURIComponent(s);

function setIf(q: URLSearchParams, key: string, value: string | number | boolean | undefined): void {
  if (value === undefined || value === '') return;
  q.set(key, String(value));
}

function listQuery(opts: ListOptions = {}): URLSearchParams {
  const q = new URLSearchParams();
  setIf(q, 'labelSelector', opts.labelSelector);
  setIf(q, 'fieldSelector', opts.fieldSelector);
  if (opts.limit !== undefined && opts.limit > 0) q.set('limit', String(opts.limit));
  setIf(q, 'continue', opts.continue);
  setIf(q, 'resourceVersion', opts.resourceVersion);
  setIf(q, 'resourceVersionMatch', opts.resourceVersionMatch);
  return q;
}

function watchQuery(opts: WatchOptions = {}): URLSearchParams {
  const q = new URLSearchParams({ watch: 'true' });
  setIf(q, 'labelSelector', opts.labelSelector);
  setIf(q, 'fieldSelector', opts.fieldSelector);
  setIf(q, 'resourceVersion', opts.resourceVersion);
  setIf(q, 'resourceVersionMatch', opts.resourceVersionMatch);
  if (opts.timeoutSeconds !== undefined) q.set('timeoutSeconds', String(Math.trunc(opts.timeoutSeconds)));
  if (opts.allowWatchBookmarks) q.set('allowWatchBookmarks', 'true');
  if (opts.sendInitialEvents !== undefined) q.set('sendInitialEvents', String(opts.sendInitialEvents));
  return q;
}

function writeQuery(opts: WriteOptions & { force?: boolean } = {}): URLSearchParams {
  const q = new URLSearchParams();
  if (opts.dryRun) q.set('dryRun', 'All');
  setIf(q, 'fieldManager', opts.fieldManager);
  setIf(q, 'fieldValidation', opts.fieldValidation);
  if (opts.force !== undefined) q.set('force', String(opts.force));
  return q;
}

function deleteOptionsBody(opts: DeleteOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1' };
  if (opts.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = opts.gracePeriodSeconds;
  if (opts.preconditions !== undefined) body.preconditions = opts.preconditions;
  if (opts.propagationPolicy !== undefined) body.propagationPolicy = opts.propagationPolicy;
  if (opts.dryRun) body.dryRun = ['All'];
  return body;
}

export class HttpResourceClient<T extends ApiObject = ApiObject> implements ResourceClient<T> {
  constructor(
    private readonly rest: RestClient,
    readonly resource: GroupVersionResource,
    readonly namespace: string | undefined,
  ) {}

  inNamespace(namespace: string | undefined): ResourceClient<T> {
    return new HttpResourceClient<T>(this.rest, this.resource, namespace);
  }

  /** The path of the collection, an object, or an object's subresource. */
  path(name?: string, subresource?: string): string {
    const { group, version, resource } = this.resource;
    let p = group === '' ? `/api/${seg(version)}` : `/apis/${seg(group)}/${seg(version)}`;
    if (this.namespace !== undefined && this.namespace !== '') p += `/namespaces/${seg(this.namespace)}`;
    p += `/${seg(resource)}`;
    if (name !== undefined) {
      if (name === '') throw new Error(`resource name may not be empty (${resource})`);
      p += `/${seg(name)}`;
      if (subresource !== undefined && subresource !== '') p += `/${seg(subresource)}`;
    }
    return p;
  }

  private req(
    method: string,
    name: string | undefined,
    subresource: string | undefined,
    extra: Omit<Partial<RestRequest>, 'name'>,
  ): RestRequest {
    return {
      method,
      path: this.path(name, subresource),
      groupResource: { group: this.resource.group, resource: this.resource.resource },
      ...extra,
      ...(name !== undefined ? { name } : {}),
    };
  }

  get(name: string, opts: { resourceVersion?: string; subresource?: string } = {}): Promise<T> {
    const query = new URLSearchParams();
    setIf(query, 'resourceVersion', opts.resourceVersion);
    return this.rest.call<T>(this.req('GET', name, opts.subresource, { query }));
  }

  list(opts: ListOptions = {}): Promise<ObjectList<T>> {
    return this.rest.call<ObjectList<T>>(
      this.req('GET', undefined, undefined, { query: listQuery(opts), signal: opts.signal }),
    );
  }

  watch(opts: WatchOptions = {}): Promise<WatchStream<T>> {
    return this.rest.watch<T>(
      this.req('GET', undefined, undefined, { query: watchQuery(opts), signal: opts.signal }),
    );
  }

  create(obj: T, opts: WriteOptions = {}): Promise<T> {
    // A subresource create (a TokenRequest, an eviction, a binding) posts to the parent object.
    const parent = opts.subresource !== undefined ? (opts.name ?? obj.metadata?.name ?? '') : undefined;
    return this.rest.call<T>(
      this.req('POST', parent, opts.subresource, { query: writeQuery(opts), body: obj }),
    );
  }

  update(obj: T, opts: WriteOptions = {}): Promise<T> {
    const name = obj.metadata?.name ?? '';
    return this.rest.call<T>(this.req('PUT', name, opts.subresource, { query: writeQuery(opts), body: obj }));
  }

  patch(name: string, type: PatchType, body: unknown, opts: PatchOptions = {}): Promise<T> {
    const contentType = PATCH_CONTENT_TYPES[type];
    if (contentType === undefined) return Promise.reject(new Error(`unknown patch type "${type}"`));
    const data = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    return this.rest.call<T>(
      this.req('PATCH', name, opts.subresource, {
        query: writeQuery(type === 'apply' ? opts : { ...opts, force: undefined }),
        rawBody: { data, contentType },
      }),
    );
  }

  apply(obj: T, opts: PatchOptions & { fieldManager: string }): Promise<T> {
    const name = obj.metadata?.name ?? '';
    return this.patch(name, 'apply', obj, opts);
  }

  delete(name: string, opts: DeleteOptions = {}): Promise<T | Status> {
    return this.rest.call<T | Status>(this.req('DELETE', name, undefined, { body: deleteOptionsBody(opts) }));
  }

  deleteCollection(opts: ListOptions & DeleteOptions = {}): Promise<ObjectList<T> | Status> {
    return this.rest.call<ObjectList<T> | Status>(
      this.req('DELETE', undefined, undefined, {
        query: listQuery(opts),
        body: deleteOptionsBody(opts),
        signal: opts.signal,
      }),
    );
  }
}

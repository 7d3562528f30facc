// An in-memory ResourceClient over FakeCluster, with the server's read semantics that informers
// depend on: resourceVersions from one counter, lists at "0", unset, NotOlderThan or Exact,
// paging with continue tokens pinned to the first page's revision, watches from a revision (or
// with the current state first), streaming lists ending in the initial-events-end bookmark, 410
// Expired below the compaction, and optimistic concurrency on update. Writes are simplified:
// strategic merge patch behaves as merge patch and apply as create-or-merge.

import { randomUUID } from 'node:crypto';
import { forbidden as forbiddenField, newPath } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import {
  alreadyExists,
  badRequest,
  conflict,
  invalid,
  notFound,
  OPTIMISTIC_LOCK_MESSAGE,
  resourceExpired,
  type Status,
  successStatus,
  tooLargeResourceVersion,
} from '../../machinery/status.ts';
import { generateName } from '../../machinery/validation/names.ts';
import { UPSTREAM_ALIASES } from '../../naming/profile.ts';
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
} from '../api.ts';
import { type FakeCall, type FakeCluster, type FakeVerb, objectKeyOf, resourceKey } from './fake-cluster.ts';
import { jsonPatch, mergePatch } from './fake-patch.ts';
import { FakeWatchStream } from './fake-watch.ts';

const CONTINUE_TOO_OLD =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list ' +
  'without the continue parameter, or use the continue token in this response to retrieve the remainder of the ' +
  'results. Continuing with the provided token results in an inconsistent list - objects that were created, ' +
  'modified, or deleted between the time the first chunk was returned and now may show up in the list.';

const tooOld = (requested: number, compacted: number) =>
  resourceExpired(`too old resource version: ${requested} (${compacted})`);

function parseRev(rv: string, what = 'resourceVersion'): number {
  if (!/^[0-9]+$/.test(rv)) throw badRequest(`Invalid value for ${what}: ${JSON.stringify(rv)}`);
  return Number(rv);
}

function strip(opts: object | undefined): Record<string, unknown> | undefined {
  if (opts === undefined) return undefined;
  const { signal: _signal, ...rest } = opts as Record<string, unknown>;
  return rest;
}

export class FakeResourceClient<T extends ApiObject = ApiObject> implements ResourceClient<T> {
  constructor(
    private readonly cluster: FakeCluster,
    readonly resource: GroupVersionResource,
    readonly namespace: string | undefined,
  ) {}

  inNamespace(namespace: string | undefined): ResourceClient<T> {
    return new FakeResourceClient<T>(this.cluster, this.resource, namespace);
  }

  async get(name: string, opts?: { resourceVersion?: string; subresource?: string }): Promise<T> {
    await this.enter('get', name, opts);
    const obj = this.cluster.store(this.resource).get(this.key(name));
    if (obj === undefined) throw notFound(this.resource, name);
    return this.cluster.out(obj);
  }

  async list(opts: ListOptions = {}): Promise<ObjectList<T>> {
    await this.enter('list', undefined, opts);
    const store = this.cluster.store(this.resource);
    const revs = this.cluster.revisions;
    const sel = this.cluster.selectors(opts.labelSelector, opts.fieldSelector);
    let at = revs.current();
    let start = '';
    if (opts.continue) {
      let token: { rev?: unknown; start?: unknown };
      try {
        token = JSON.parse(Buffer.from(opts.continue, 'base64url').toString('utf8'));
      } catch {
        throw badRequest('continue key is not valid: incorrect encoded start resourceVersion');
      }
      if (typeof token.rev !== 'number' || typeof token.start !== 'string')
        throw badRequest('continue key is not valid: incorrect encoded start resourceVersion');
      if (token.rev < revs.compacted) throw resourceExpired(CONTINUE_TOO_OLD);
      at = token.rev;
      start = token.start;
    } else if (opts.resourceVersion !== undefined && opts.resourceVersion !== '') {
      const rev = parseRev(opts.resourceVersion);
      const exact =
        opts.resourceVersionMatch === 'Exact' ||
        (opts.resourceVersionMatch === undefined && rev !== 0 && opts.limit !== undefined && opts.limit > 0);
      if (rev > revs.current()) throw tooLargeResourceVersion(rev, revs.current());
      if (exact) {
        if (rev < revs.compacted) throw tooOld(rev, revs.compacted);
        at = rev;
      }
    }
    const all = store
      .snapshot(at)
      .filter(([key, obj]) => key > start && this.cluster.matches(obj, this.namespace, sel));
    const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : all.length;
    const page = all.slice(0, limit);
    const metadata: ObjectList['metadata'] = { resourceVersion: String(at) };
    if (all.length > page.length) {
      const last = page[page.length - 1][0];
      metadata.continue = Buffer.from(JSON.stringify({ rev: at, start: last })).toString('base64url');
      if (!opts.labelSelector && !opts.fieldSelector) metadata.remainingItemCount = all.length - page.length;
    }
    return { metadata, items: page.map(([, obj]) => this.cluster.out<T>(obj)) };
  }

  async watch(opts: WatchOptions = {}): Promise<WatchStream<T>> {
    await this.enter('watch', undefined, opts);
    const cluster = this.cluster;
    const revs = cluster.revisions;
    const store = cluster.store(this.resource);
    const sel = cluster.selectors(opts.labelSelector, opts.fieldSelector);
    if (opts.sendInitialEvents !== undefined) {
      const errs = [];
      if (opts.resourceVersionMatch !== 'NotOlderThan')
        errs.push(
          forbiddenField(
            newPath('resourceVersionMatch'),
            'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
          ),
        );
      if (!cluster.streamingLists)
        errs.push(
          forbiddenField(
            newPath('sendInitialEvents'),
            'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
          ),
        );
      if (errs.length > 0)
        throw invalid({ group: UPSTREAM_ALIASES.metaGroup, kind: 'ListOptions' }, '', errs);
    }
    const stream = new FakeWatchStream<T>();
    const rv = opts.resourceVersion ?? '';
    const rev = rv === '' ? 0 : parseRev(rv);
    if (rev > revs.current()) throw tooLargeResourceVersion(rev, revs.current());
    const key = resourceKey(this.resource);
    const watcher = {
      resKey: key,
      namespace: this.namespace,
      ...sel,
      allowBookmarks: opts.allowWatchBookmarks === true,
      stream: stream as unknown as FakeWatchStream,
    };
    if (opts.sendInitialEvents === true || rev === 0) {
      // The current state as ADDED events (a streaming list, or a watch from "now" or "any").
      const now = revs.current();
      for (const [, obj] of store.snapshot(now)) {
        if (cluster.matches(obj, this.namespace, sel))
          stream.push({ type: 'ADDED', object: cluster.out(obj) });
      }
      if (opts.sendInitialEvents === true && watcher.allowBookmarks)
        stream.push(cluster.bookmarkEvent(key, String(now), true) as never);
    } else if (rev < revs.compacted) {
      stream.push(cluster.errorEvent(tooOld(rev, revs.compacted).status) as never);
      stream.end();
      return stream;
    } else {
      for (const c of store.changesAfter(rev)) {
        const ev = cluster.eventFor(watcher, c);
        if (ev !== undefined) stream.push(ev as never);
      }
    }
    cluster.addWatcher(watcher, opts.timeoutSeconds);
    if (opts.signal !== undefined) {
      if (opts.signal.aborted) stream.stop();
      else opts.signal.addEventListener('abort', () => stream.stop(), { once: true });
    }
    return stream;
  }

  async create(obj: T, opts?: WriteOptions): Promise<T> {
    await this.enter('create', obj.metadata?.name, opts);
    return this.doCreate(obj, opts);
  }

  async update(obj: T, opts?: WriteOptions): Promise<T> {
    const name = obj.metadata?.name ?? '';
    await this.enter('update', name, opts);
    const store = this.cluster.store(this.resource);
    const key = this.key(name, obj.metadata?.namespace);
    const cur = store.get(key);
    if (cur === undefined) throw notFound(this.resource, name);
    const rv = obj.metadata?.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== cur.metadata?.resourceVersion)
      throw conflict(this.resource, name, OPTIMISTIC_LOCK_MESSAGE);
    return this.replace(key, cur, obj, opts);
  }

  async patch(name: string, type: PatchType, body: unknown, opts?: PatchOptions): Promise<T> {
    await this.enter('patch', name, opts);
    const store = this.cluster.store(this.resource);
    const key = this.key(name);
    const cur = store.get(key);
    if (cur === undefined) {
      if (type === 'apply')
        return this.doCreate({ ...(body as T), metadata: { ...(body as T).metadata, name } }, opts);
      throw notFound(this.resource, name);
    }
    let next: ApiObject;
    if (type === 'json') next = jsonPatch(cur, body) as ApiObject;
    else next = mergePatch(cur, body) as ApiObject;
    const rv = (body as ApiObject | undefined)?.metadata?.resourceVersion;
    if (type !== 'json' && typeof rv === 'string' && rv !== cur.metadata?.resourceVersion)
      throw conflict(this.resource, name, OPTIMISTIC_LOCK_MESSAGE);
    return this.replace(key, cur, next, opts);
  }

  async apply(obj: T, opts: PatchOptions & { fieldManager: string }): Promise<T> {
    const name = obj.metadata?.name ?? '';
    await this.enter('apply', name, opts);
    const key = this.key(name, obj.metadata?.namespace);
    const cur = this.cluster.store(this.resource).get(key);
    if (cur === undefined) return this.doCreate(obj, opts);
    return this.replace(key, cur, mergePatch(cur, obj) as ApiObject, opts);
  }

  async delete(name: string, opts?: DeleteOptions): Promise<T | Status> {
    await this.enter('delete', name, opts);
    return this.doDelete(name, this.key(name), opts);
  }

  async deleteCollection(opts: ListOptions & DeleteOptions = {}): Promise<ObjectList<T> | Status> {
    await this.enter('deletecollection', undefined, opts);
    const sel = this.cluster.selectors(opts.labelSelector, opts.fieldSelector);
    const store = this.cluster.store(this.resource);
    for (const [key, obj] of store.snapshot(this.cluster.revisions.current())) {
      if (this.cluster.matches(obj, this.namespace, sel)) this.doDelete(obj.metadata?.name ?? '', key, opts);
    }
    return successStatus({}) as unknown as Status;
  }

  // ----- internals

  private enter(verb: FakeVerb, name: string | undefined, opts: object | undefined): Promise<void> {
    const call: FakeCall = { verb, resource: this.resource, namespace: this.namespace, opts: strip(opts) };
    if (name !== undefined) call.name = name;
    return this.cluster.enter(call);
  }

  private key(name: string, objNamespace?: string): string {
    const ns = this.namespace ?? objNamespace;
    return ns ? `${ns}/${name}` : name;
  }

  /**
   * A generated name not yet taken, from upstream's alphabet; like the real server (upstream's
   * RetryGenerateName), a collision is retried rather than answered 409.
   */
  private freshName(prefix: string, namespace: string | undefined): string {
    const store = this.cluster.store(this.resource);
    let name = generateName(prefix);
    for (let attempt = 1; attempt < 8 && store.get(this.key(name, namespace)) !== undefined; attempt++) {
      name = generateName(prefix);
    }
    return name;
  }

  private doCreate(obj: T, opts: WriteOptions | undefined): T {
    const meta = { ...(obj.metadata ?? {}) };
    if (this.namespace !== undefined && meta.namespace !== undefined && meta.namespace !== this.namespace)
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    if (this.namespace !== undefined) meta.namespace = this.namespace;
    if (!meta.name && meta.generateName) meta.name = this.freshName(meta.generateName, meta.namespace);
    if (!meta.name) throw badRequest('name or generateName is required');
    if (meta.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
    const created: ApiObject = {
      ...structuredClone(obj),
      metadata: {
        ...structuredClone(meta),
        uid: randomUUID(),
        creationTimestamp: new Date(this.cluster.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
        generation: 1,
      },
    };
    const key = objectKeyOf(created);
    const store = this.cluster.store(this.resource);
    if (store.get(key) !== undefined) throw alreadyExists(this.resource, meta.name);
    if (opts?.dryRun) return this.cluster.out(created);
    this.cluster.rememberKind(this.resource, created);
    const c = store.write('ADDED', key, created);
    this.cluster.publish(this.resource, c);
    return this.cluster.out(c.obj);
  }

  private replace(key: string, cur: ApiObject, obj: ApiObject, opts: WriteOptions | undefined): T {
    let next: ApiObject = structuredClone(obj);
    if (opts?.subresource === 'status') next = { ...structuredClone(cur), status: next.status };
    next.metadata = {
      ...next.metadata,
      name: cur.metadata?.name,
      namespace: cur.metadata?.namespace,
      uid: cur.metadata?.uid,
      creationTimestamp: cur.metadata?.creationTimestamp,
      deletionTimestamp: cur.metadata?.deletionTimestamp,
      generation: cur.metadata?.generation,
      resourceVersion: cur.metadata?.resourceVersion,
    };
    if (opts?.dryRun) return this.cluster.out(next);
    const store = this.cluster.store(this.resource);
    const finalizing = next.metadata?.deletionTimestamp !== undefined && !next.metadata?.finalizers?.length;
    const c = store.write(finalizing ? 'DELETED' : 'MODIFIED', key, next);
    this.cluster.publish(this.resource, c);
    return this.cluster.out(c.obj);
  }

  private doDelete(name: string, key: string, opts: DeleteOptions | undefined): T | Status {
    const store = this.cluster.store(this.resource);
    const cur = store.get(key);
    if (cur === undefined) throw notFound(this.resource, name);
    const pre = opts?.preconditions;
    if (pre?.uid !== undefined && pre.uid !== cur.metadata?.uid)
      throw conflict(
        this.resource,
        name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${cur.metadata?.uid ?? ''}`,
      );
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== cur.metadata?.resourceVersion)
      throw conflict(
        this.resource,
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${cur.metadata?.resourceVersion ?? ''}`,
      );
    if (opts?.dryRun) return this.cluster.out(cur);
    if (cur.metadata?.finalizers?.length) {
      if (cur.metadata.deletionTimestamp !== undefined) return this.cluster.out(cur);
      const marked = {
        ...cur,
        metadata: { ...cur.metadata, deletionTimestamp: new Date(this.cluster.clock.now()).toISOString() },
      };
      const c = store.write('MODIFIED', key, marked);
      this.cluster.publish(this.resource, c);
      return this.cluster.out(c.obj);
    }
    const c = store.write('DELETED', key, cur);
    this.cluster.publish(this.resource, c);
    return successStatus({
      name,
      group: this.resource.group,
      kind: this.resource.resource,
      uid: cur.metadata?.uid,
    }) as unknown as Status;
  }
}

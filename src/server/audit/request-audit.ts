// One request's audit record, upstream's AuditContext: made when the request arrives (its Audit-ID
// and arrival time), given its level and omitted stages once the policy is evaluated, filled in as
// the request goes (who, what, the objects, the answer), and turned into one Event per stage.
//
// Handlers reach it through the three hooks at the bottom (request object, request body,
// response), through the request's context; with no audit anywhere in the process they return at
// once, so an unaudited server pays one comparison per hook.

import { parse as yamlParse } from 'yaml';
import type { UserInfo } from '../../auth/authn/types.ts';
import type { RequestContext } from '../context.ts';
import type {
  Accepted,
  AuditBackend,
  AuditEvent,
  AuditObjectReference,
  AuditResponseStatus,
  AuditUserInfo,
} from './event-types.ts';
import { withoutManagedFields } from './managed-fields.ts';
import { formatMicroTime, nowMicros } from './micro-time.ts';
import type { RequestAuditConfig } from './policy-checker.ts';
import type { AuditLevel, AuditStage } from './policy-types.ts';
import { sourceIps } from './source-ips.ts';

const LEVEL_RANK: Record<AuditLevel, number> = { None: 0, Metadata: 1, Request: 2, RequestResponse: 3 };

/** Upstream cuts a longer User-Agent and marks the cut. */
const MAX_USER_AGENT = 1024;

/** What the pipeline lends each record: where events go and how they are counted. */
export interface AuditSink {
  backend: AuditBackend;
  /** The Events' apiVersion: the profile's audit group, v1. */
  apiVersion: string;
  /** Called once per event handed to the backend (apiserver_audit_event_total). */
  observeEvent(): void;
}

type Dict = Record<string, unknown>;

/** The Status's empty ObjectMeta, shared: it is only ever written out. */
const EMPTY_METADATA: Record<string, never> = Object.freeze({}) as Record<string, never>;

export class RequestAudit {
  level: AuditLevel = 'None';
  private initialized = false;
  private omitStages: readonly AuditStage[] = [];
  private omitManagedFields = false;
  private sink: AuditSink | undefined;

  private readonly receivedAtText: string;
  private requestURI = '';
  private verb = '';
  private user: AuditUserInfo = {};
  /** The user authentication found: a different ctx.user later is the impersonated one. */
  private authenticatedUser: UserInfo | undefined;
  private sourceIPs: string[] | undefined;
  private userAgent: string | undefined;
  private objectRef: AuditObjectReference | undefined;
  responseStatus: AuditResponseStatus | undefined;
  private requestObject: unknown;
  /** A body kept as read until an event needs it (patches, delete options). */
  private requestBody: Buffer | undefined;
  private responseObject: unknown;

  constructor(
    private readonly ctx: RequestContext,
    readonly auditID: string,
    receivedAt: number,
  ) {
    this.receivedAtText = formatMicroTime(receivedAt);
  }

  /** Whether events are being recorded (initialized at a level above None). */
  get enabled(): boolean {
    return this.initialized && this.level !== 'None';
  }

  /** Once, as upstream's Init: the evaluated policy. False when already initialized. */
  init(config: RequestAuditConfig, sink: AuditSink): boolean {
    if (this.initialized) return false;
    this.initialized = true;
    this.level = config.level;
    this.omitStages = config.omitStages;
    this.omitManagedFields = config.omitManagedFields;
    this.sink = sink;
    return true;
  }

  atLeast(level: AuditLevel): boolean {
    return LEVEL_RANK[this.level] >= LEVEL_RANK[level];
  }

  /** Who asked, what for and from where, as upstream's LogRequestMetadata records it. */
  logRequestMetadata(): void {
    const { ctx } = this;
    this.requestURI = ctx.url;
    this.verb = ctx.info.verb;
    const ua = ctx.req.headers['user-agent'];
    if (ua !== undefined && ua !== '') {
      this.userAgent = ua.length > MAX_USER_AGENT ? `${ua.slice(0, MAX_USER_AGENT)}...TRUNCATED` : ua;
    }
    const ips = sourceIps(ctx.req.headers, ctx.req.socket?.remoteAddress);
    if (ips.length > 0) this.sourceIPs = ips;
    this.authenticatedUser = ctx.user;
    if (ctx.user !== undefined) this.user = auditUser(ctx.user);
    const info = ctx.info;
    if (info.isResourceRequest) {
      const ref: AuditObjectReference = {};
      if (info.resource !== '') ref.resource = info.resource;
      if (info.namespace !== '') ref.namespace = info.namespace;
      if (info.name !== '') ref.name = info.name;
      if (info.apiGroup !== '') ref.apiGroup = info.apiGroup;
      if (info.apiVersion !== '') ref.apiVersion = info.apiVersion;
      if (info.subresource !== '') ref.subresource = info.subresource;
      this.objectRef = ref;
    }
  }

  /**
   * A decoded write body: names the object where the path did not (a create's name, the uid and
   * resourceVersion an update carries), and at Request level and above is recorded as decoded,
   * copied now because admission and the store go on to change it.
   */
  logRequestObject(obj: unknown): void {
    if (!this.enabled || typeof obj !== 'object' || obj === null) return;
    const meta = (obj as Dict).metadata as Dict | undefined;
    if (meta !== undefined && meta !== null) {
      const ref = { ...(this.objectRef ?? {}) };
      const fill = (k: 'namespace' | 'name' | 'uid' | 'resourceVersion') => {
        const v = meta[k];
        if ((ref[k] ?? '') === '' && typeof v === 'string' && v !== '') ref[k] = v;
      };
      fill('namespace');
      fill('name');
      fill('uid');
      fill('resourceVersion');
      this.objectRef = orderedRef(ref);
    }
    if (!this.atLeast('Request')) return;
    const copy = structuredClone(obj);
    this.requestObject = this.omitManagedFields ? withoutManagedFields(copy) : copy;
    this.requestBody = undefined;
  }

  /** A body read whole; decoded only if an event at Request level or above needs it. */
  logRequestBody(raw: Buffer): void {
    if (!this.atLeast('Request') || !this.initialized || this.requestObject !== undefined) return;
    if (raw.length > 0) this.requestBody = raw;
  }

  /** An answer being written: its code, a Status's details, and at RequestResponse the object. */
  logResponse(code: number, value: unknown): void {
    if (!this.enabled) return;
    const v = value as Dict | null;
    if (v !== null && typeof v === 'object' && v.kind === 'Status' && typeof v.status === 'string') {
      const s: AuditResponseStatus = { metadata: EMPTY_METADATA };
      if (v.status !== '') s.status = v.status;
      if (typeof v.message === 'string' && v.message !== '') s.message = v.message;
      if (typeof v.reason === 'string' && v.reason !== '') s.reason = v.reason;
      if (v.details !== undefined) s.details = v.details;
      s.code = code;
      this.responseStatus = s;
    } else {
      this.setResponseCode(code);
    }
    if (!this.atLeast('RequestResponse')) return;
    const shown = listView(value);
    this.responseObject = this.omitManagedFields ? withoutManagedFields(shown) : shown;
  }

  /** The code alone (upstream's response writer, for answers not written as objects). */
  setResponseCode(code: number): void {
    // A new object: an event already handed on (a batch backend may hold it) keeps its own.
    const s = this.responseStatus;
    this.responseStatus = s === undefined ? { metadata: EMPTY_METADATA, code } : { ...s, code };
  }

  /** Hands the event for `stage` to the backend; false when the backend refused it. */
  processStage(stage: AuditStage): Accepted {
    const sink = this.sink;
    if (!this.enabled || sink === undefined || this.omitStages.includes(stage)) return true;
    const stageTimestamp = stage === 'RequestReceived' ? this.receivedAtText : formatMicroTime(nowMicros());
    sink.observeEvent();
    return sink.backend.processEvents(this.event(stage, sink.apiVersion, stageTimestamp));
  }

  private event(stage: AuditStage, apiVersion: string, stageTimestamp: string): AuditEvent {
    // Field order is upstream's, so that JSON lines read the same.
    const ev: AuditEvent = {
      kind: 'Event',
      apiVersion,
      level: this.level,
      auditID: this.auditID,
      stage,
      requestURI: this.requestURI,
      verb: this.verb,
      user: this.user,
    } as AuditEvent;
    const current = this.ctx.user;
    if (current !== undefined && current !== this.authenticatedUser && this.authenticatedUser !== undefined) {
      ev.impersonatedUser = auditUser(current);
    }
    if (this.sourceIPs !== undefined) ev.sourceIPs = this.sourceIPs;
    if (this.userAgent !== undefined) ev.userAgent = this.userAgent;
    if (this.objectRef !== undefined) ev.objectRef = this.objectRef;
    // Never changed once set (replaced instead), so events share it.
    if (this.responseStatus !== undefined) ev.responseStatus = this.responseStatus;
    if (this.atLeast('Request')) {
      if (this.requestObject === undefined && this.requestBody !== undefined) {
        this.requestObject = decodeBody(this.requestBody, this.ctx.req.headers['content-type']);
        if (this.omitManagedFields) this.requestObject = withoutManagedFields(this.requestObject);
        this.requestBody = undefined;
      }
      if (this.requestObject !== undefined) ev.requestObject = this.requestObject;
    }
    if (this.responseObject !== undefined) ev.responseObject = this.responseObject;
    ev.requestReceivedTimestamp = this.receivedAtText;
    ev.stageTimestamp = stageTimestamp;
    const annotations = this.ctx.auditAnnotations;
    if (annotations !== undefined) {
      // Annotations only grow while the request runs: an earlier stage's event gets a copy, the
      // last one the request's own.
      const last = stage === 'ResponseComplete' || stage === 'Panic';
      for (const _ in annotations) {
        ev.annotations = last ? annotations : { ...annotations };
        break;
      }
    }
    return ev;
  }
}

function auditUser(u: UserInfo): AuditUserInfo {
  const out: AuditUserInfo = {};
  if (u.username !== '') out.username = u.username;
  if (u.uid !== undefined && u.uid !== '') out.uid = u.uid;
  if (u.groups.length > 0) out.groups = u.groups;
  if (u.extra !== undefined && Object.keys(u.extra).length > 0) out.extra = u.extra;
  return out;
}

/** Upstream's ObjectReference field order. */
function orderedRef(r: AuditObjectReference): AuditObjectReference {
  const out: AuditObjectReference = {};
  for (const k of REF_KEYS) if (r[k] !== undefined) out[k] = r[k];
  return out;
}
const REF_KEYS = [
  'resource',
  'namespace',
  'name',
  'uid',
  'apiGroup',
  'apiVersion',
  'resourceVersion',
  'subresource',
] as const;

/** A list as the client sees it, without the cache's encoded forms it travels with. */
function listView(value: unknown): unknown {
  const v = value as Dict | null;
  if (v === null || typeof v !== 'object' || !('runs' in v || 'encoded' in v)) return value;
  return { apiVersion: v.apiVersion, kind: v.kind, metadata: v.metadata, items: v.items };
}

/**
 * A body kept as bytes (a patch, delete options), as an event carries it: JSON as parsed, YAML
 * (an apply patch) as the JSON it stands for. Binary encodings are not decoded here: upstream
 * re-encodes them through the scheme, which a raw body does not have; the event goes without.
 */
function decodeBody(raw: Buffer, contentType: string | undefined): unknown {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  try {
    if (type === '' || type.endsWith('json')) return JSON.parse(raw.toString('utf8'));
    if (type.endsWith('yaml')) return yamlParse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Hooks: the record of a request, by its context.

// The record rides on the context's own field. A WeakMap keyed by context was the first form: its
// entries cost the garbage collector about 6 us per request (ephemerons are traced specially), a
// third of Metadata audit's whole cost.
const recordOf = (ctx: RequestContext): RequestAudit | undefined => ctx.audit;
/** Servers with audit on in this process: zero makes every hook a single comparison. */
let auditingServers = 0;

export function auditingStarted(): void {
  auditingServers++;
}
export function auditingStopped(): void {
  auditingServers = Math.max(0, auditingServers - 1);
}

export function attachRequestAudit(ctx: RequestContext, ra: RequestAudit): void {
  ctx.audit = ra;
}

export function requestAuditOf(ctx: RequestContext): RequestAudit | undefined {
  return auditingServers === 0 ? undefined : recordOf(ctx);
}

/** Hook: a write's body decoded into its object (handlers/body.ts). */
export function auditRequestObject(ctx: RequestContext, obj: unknown): void {
  if (auditingServers === 0) return;
  recordOf(ctx)?.logRequestObject(obj);
}

/** Hook: a request body read whole (handlers/body.ts), for bodies no object is decoded from. */
export function auditRequestBody(ctx: RequestContext, raw: Buffer): void {
  if (auditingServers === 0) return;
  recordOf(ctx)?.logRequestBody(raw);
}

/** Hook: an object or Status about to be written with this code (respond.ts, handlers/output.ts). */
export function auditResponse(ctx: RequestContext, code: number, value: unknown): void {
  if (auditingServers === 0) return;
  recordOf(ctx)?.logResponse(code, value);
}

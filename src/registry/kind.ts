// A served kind, complete: its resource names, the strategy the generic store follows, its compiled
// schema and its table columns, and what upstream declares beside a type: its API lifecycle (a
// deprecated version) and its declarative validation rules. API groups under src/apis/ export
// these; the server is built from them.

import type { TableColumn } from '../codec/table.ts';
import type { FieldError } from '../machinery/field-errors.ts';
import type { ApiObject } from '../machinery/object.ts';
import type { KindSchema } from '../schema/types.ts';
import type { ShapeConversion } from './converting-storage.ts';
import type { ResourceInfo } from './resource.ts';
import type { Strategy } from './strategy.ts';
import type { SubresourceAction } from './subresource-action.ts';

export interface KindDefinition {
  resource: ResourceInfo;
  strategy: Strategy;
  schema: KindSchema;
  /** Table columns; absent means the default Name / Created At table. */
  table?: TableColumn[];
  /** Sub-resources served in another kind's shape, by sub-resource name (`scale`). */
  views?: Record<string, SubresourceView>;
  /** Sub-resources that only create and store nothing, by sub-resource name (`token`). */
  actions?: Record<string, SubresourceAction>;
  /**
   * A kind that is never stored (TokenReview, SelfSubjectReview, the access reviews): a create is
   * answered by this, from the decoded, admitted body and the request's user. Such a kind serves
   * `create` alone and its store is never asked.
   */
  review?: Review;
  /**
   * A kind kept as another resource's objects in another shape (the events group's Event is
   * stored as core/v1 Events): its store reads and writes that resource's keys through the
   * conversions (converting-storage.ts).
   */
  storedAs?: StoredAs;
  /**
   * A deprecated version (upstream's prerelease-lifecycle tags, APILifecycleDeprecated and
   * friends): its calls carry a Warning, audit annotations and the deprecated-APIs metric.
   * Absent for a version nobody deprecated, which costs its requests nothing.
   */
  lifecycle?: ApiLifecycle;
  /**
   * Rules upstream moved to declarative validation (`+k8s:` tags) for this kind: run beside the
   * strategy's hand-written validation and compared (registry/declarative-validation.ts).
   */
  declarativeValidation?: DeclarativeValidation;
}

/** A served version's place in upstream's API lifecycle, once it is deprecated. */
export interface ApiLifecycle {
  /** `major.minor` of the release that deprecated the version (`1.22`); later releases warn. */
  deprecated: string;
  /** `major.minor` of the release that stops serving it, when one is planned. */
  removed?: string;
  /** The kind to move to. */
  replacement?: { group: string; version: string; kind: string };
}

/**
 * A kind's declarative validation: the rules upstream generates from `+k8s:` tags for the fields
 * it migrated, and which of the hand-written errors those rules stand for.
 */
export interface DeclarativeValidation {
  /**
   * The declarative rules' errors for an object written through `subresource` ('' for the
   * resource itself); `old` is the stored object on update, undefined on create.
   */
  validate(obj: ApiObject, old: ApiObject | undefined, subresource: string): FieldError[];
  /** Whether a hand-written error is one the rules cover (upstream's MarkCoveredByDeclarative). */
  covers(err: FieldError): boolean;
  /** Rewrites of declarative field paths before they are compared (upstream's normalization rules). */
  normalization?: readonly { pattern: RegExp; replacement: string }[];
}

/** Where and in which shape a kind's objects are stored, when that is another resource's. */
export interface StoredAs extends ShapeConversion {
  /** The group and plural resource name whose keys hold the objects. */
  group: string;
  resource: string;
}

/** Who asks, as authentication found them (the shape of a user everywhere on the request path). */
export interface RequestUser {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export interface ReviewRequest {
  user?: RequestUser;
  /** The namespace of the path ('' for cluster-scoped kinds). */
  namespace: string;
  dryRun: boolean;
  /** Runs admission on the body; a review calls it where upstream's validates (after its own checks). */
  admit(obj: ApiObject): Promise<void>;
}

/** Answers a review: the object to send back (201), or a thrown Status. */
export type Review = (obj: ApiObject, req: ReviewRequest) => Promise<ApiObject>;

/**
 * A sub-resource that reads and writes part of the object in another kind's shape: a
 * Deployment's `scale` is an autoscaling/v1 Scale. Reads map the stored object to the view; writes
 * map a view back onto the stored object, which is then updated like any write of the resource.
 */
export interface SubresourceView {
  /** The view's kind, with the schema its bodies are decoded against. */
  schema: KindSchema;
  read(obj: ApiObject): ApiObject;
  /** The stored object with the view's changes; the view was validated first. */
  write(view: ApiObject, current: ApiObject): ApiObject;
  validate(view: ApiObject): FieldError[];
}

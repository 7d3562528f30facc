// Sub-resources that only create: a POST whose body is another kind and whose answer is computed
// from it and the objects it names (serviceaccounts/token takes a TokenRequest and answers it with
// a token). Views (kind.ts) read and write part of the parent in another shape; most actions leave
// every stored object as it was, and those that act on their parent (a Pod's binding and eviction)
// do it through the parent's own store, with its rules. A kind declares its actions by sub-resource name; the server
// routes `create` on such a sub-resource to the action.

import type { ApiObject } from '../machinery/object.ts';
import type { KindSchema } from '../schema/types.ts';
import type { KindDefinition } from './kind.ts';

export interface SubresourceActionRequest {
  /** The namespace and name of the parent object, from the path. */
  namespace: string;
  name: string;
  /** The decoded body, defaulted by the schema, unknown fields dropped; its apiVersion as the client named it (the schema's or an alias's). */
  body: ApiObject;
  /** Reads an object of the API (current state); undefined when it does not exist or is not served. */
  get(
    group: string,
    version: string,
    resource: string,
    namespace: string,
    name: string,
  ): Promise<ApiObject | undefined>;
  /** Adds a warning for the client (a Warning header). */
  warn(text: string): void;
  /** The request's dryRun query parameter asked for no change to be stored. */
  dryRun?: boolean;
  /**
   * Writes the parent object through its store, as a write of sub-resource `subresource` (the
   * strategy's rules for it apply): `change` gets the current object and answers the next one.
   * For actions that change their parent (a Pod's binding).
   */
  updateParent?(
    change: (current: ApiObject) => ApiObject,
    subresource: string,
    opts?: { dryRun?: boolean },
  ): Promise<ApiObject>;
  /** Deletes the parent object as a DELETE of it would (a Pod's eviction). */
  deleteParent?(opts: ParentDeleteOptions): Promise<ApiObject>;
}

/** What a DeleteOptions says, for an action that deletes its parent. */
export interface ParentDeleteOptions {
  dryRun?: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
}

export interface SubresourceAction {
  /** The kind posted and answered. */
  schema: KindSchema;
  /**
   * The same kind under other group names a client may post it in (upstream's group names, which
   * stock clients hard-code); the answer comes back in the group the body named.
   */
  aliases?: readonly KindSchema[];
  /** The answer (status 201), or a thrown Status. */
  create(req: SubresourceActionRequest): Promise<ApiObject>;
}

/** `kind` with the action served as its sub-resource `name` (verb `create` alone). */
export function withSubresourceAction(
  kind: KindDefinition,
  name: string,
  action: SubresourceAction,
): KindDefinition {
  return {
    ...kind,
    resource: { ...kind.resource, subresources: { ...kind.resource.subresources, [name]: ['create'] } },
    actions: { ...kind.actions, [name]: action },
  };
}

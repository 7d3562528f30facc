// What an admission plugin sees of a request: the operation, the resource and the objects.

import type { UserInfo } from '../auth/authn/types.ts';
import type { ApiObject } from '../machinery/object.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: Operation;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  kind: string;
  namespace: string;
  name: string;
  /** Whether the resource lives in namespaces. */
  namespaced: boolean;
  /** The incoming object (create and update). */
  object?: ApiObject;
  /** The stored object (update and delete), when known. */
  oldObject?: ApiObject;
  user?: UserInfo;
  dryRun: boolean;
  /**
   * Records an annotation on the request's audit events (upstream's AddAnnotation): keys name
   * the plugin (`<plugin>.admission.<domain>/<what>`); the first value for a key stays.
   */
  addAnnotation?(key: string, value: string): void;
}

/** A validating plugin: resolves to admit, throws an ApiError to reject. */
export interface ValidatingPlugin {
  name: string;
  /**
   * A check upstream makes outside admission (in a resource's storage): not reported as an
   * admission controller in the metrics.
   */
  notAdmissionController?: boolean;
  validate(a: AdmissionAttributes): Promise<void>;
}

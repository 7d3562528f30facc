// Creating and deleting a ReplicaSet's Pods (upstream's RealPodControl): a Pod from the template
// carries its labels, annotations and finalizers, the controller reference, and the generateName
// `<owner>-`; every outcome is recorded as an Event on the owner (SuccessfulCreate, FailedCreate,
// SuccessfulDelete, FailedDelete), except a create refused because the namespace is going away.

import type { ResourceClient } from '../../client/api.ts';
import type { EventRecorder } from '../../client/events/recorder.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { hasStatusCause, isNotFound, messageOf, NAMESPACE_TERMINATING_CAUSE } from '../controller-support.ts';
import type { OwnerReference } from '../workload/controller-ref.ts';
import { type PodTemplateSpec, REASON } from './types.ts';

/** A DNS subdomain of at most 253 characters (what a generateName prefix must be, trailing dash allowed). */
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `<owner>-`, or the owner's name alone when the dash would make an invalid prefix (upstream's getPodsPrefix). */
export function podNamePrefix(ownerName: string): string {
  const prefix = `${ownerName}-`;
  // The server's generateName check accepts a prefix that is a subdomain once its dash is dropped.
  return prefix.length <= 253 && SUBDOMAIN.test(ownerName) ? prefix : ownerName;
}

/** The Pod a template makes for `owner` (upstream's GetPodFromTemplate). */
export function podFromTemplate(
  template: PodTemplateSpec,
  ownerName: string,
  ref: OwnerReference,
): ApiObject {
  const tm = template.metadata ?? {};
  const metadata: Record<string, unknown> = { generateName: podNamePrefix(ownerName) };
  if (tm.labels !== undefined) metadata.labels = { ...tm.labels };
  if (tm.annotations !== undefined) metadata.annotations = { ...tm.annotations };
  if (tm.finalizers !== undefined) metadata.finalizers = [...tm.finalizers];
  metadata.ownerReferences = [ref];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(template.spec ?? {}) };
}

export class PodControl {
  constructor(
    private readonly pods: (namespace: string) => ResourceClient,
    private readonly recorder: EventRecorder,
  ) {}

  async createPod(
    namespace: string,
    template: PodTemplateSpec,
    owner: ApiObject,
    ref: OwnerReference,
  ): Promise<ApiObject> {
    const pod = podFromTemplate(template, String(owner.metadata?.name ?? ''), ref);
    const labels = (pod.metadata?.labels ?? {}) as Record<string, string>;
    if (Object.keys(labels).length === 0) throw new Error('unable to create pods, no labels');
    try {
      const created = await this.pods(namespace).create(pod);
      this.recorder.event(
        owner,
        'Normal',
        REASON.successfulCreate,
        `Created pod: ${created.metadata?.name ?? ''}`,
      );
      return created;
    } catch (err) {
      if (!hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE))
        this.recorder.event(owner, 'Warning', REASON.failedCreate, `Error creating: ${messageOf(err)}`);
      throw err;
    }
  }

  /** Deletes a Pod (its own grace period applies); a Pod already gone rejects with the NotFound. */
  async deletePod(namespace: string, name: string, owner: ApiObject): Promise<void> {
    try {
      await this.pods(namespace).delete(name);
    } catch (err) {
      if (isNotFound(err)) throw err;
      this.recorder.event(owner, 'Warning', REASON.failedDelete, `Error deleting: ${messageOf(err)}`);
      throw new Error(`unable to delete pods: ${messageOf(err)}`, { cause: err });
    }
    this.recorder.event(owner, 'Normal', REASON.successfulDelete, `Deleted pod: ${name}`);
  }
}

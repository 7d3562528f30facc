// Defaults of a pod template, as upstream's core/v1 defaulting fills them: what `kubectl get -o yaml`
// shows in a Deployment's template that its author never wrote.

import type { ApiObject } from '../../../machinery/object.ts';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const setDefault = (o: Obj, key: string, value: unknown) => {
  if (o[key] === undefined || o[key] === null) o[key] = value;
};

/** `Always` for an image without a tag or tagged `latest` (and no digest), else `IfNotPresent`. */
export function defaultPullPolicy(image: string): string {
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  const tag = colon === -1 ? '' : image.slice(colon + 1);
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(probe: unknown): void {
  if (!isObj(probe)) return;
  setDefault(probe, 'timeoutSeconds', 1);
  setDefault(probe, 'periodSeconds', 10);
  setDefault(probe, 'successThreshold', 1);
  setDefault(probe, 'failureThreshold', 3);
  if (isObj(probe.httpGet)) setDefault(probe.httpGet, 'scheme', 'HTTP');
}

function defaultContainer(c: unknown): void {
  if (!isObj(c)) return;
  if (typeof c.image === 'string' && c.image !== '')
    setDefault(c, 'imagePullPolicy', defaultPullPolicy(c.image));
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'resources', {});
  for (const port of Array.isArray(c.ports) ? c.ports : [])
    if (isObj(port)) setDefault(port, 'protocol', 'TCP');
  for (const env of Array.isArray(c.env) ? c.env : []) {
    if (isObj(env) && isObj(env.valueFrom) && isObj(env.valueFrom.fieldRef)) {
      setDefault(env.valueFrom.fieldRef, 'apiVersion', 'v1');
    }
  }
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
}

function defaultVolume(v: unknown): void {
  if (!isObj(v)) return;
  for (const source of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    if (isObj(v[source])) setDefault(v[source], 'defaultMode', 420);
  }
  if (isObj(v.hostPath)) setDefault(v.hostPath, 'type', '');
}

/** Fills the defaults of a PodTemplateSpec in place (a missing template is left alone). */
export function defaultPodTemplate(template: unknown): void {
  if (!isObj(template)) return;
  if (!isObj(template.spec)) return;
  defaultPodSpec(template.spec);
}

/** The defaults every PodSpec gets, in a Pod or in a template. */
export function defaultPodSpec(spec: Obj): void {
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'schedulerName', 'default-scheduler');
  for (const c of Array.isArray(spec.containers) ? spec.containers : []) defaultContainer(c);
  for (const c of Array.isArray(spec.initContainers) ? spec.initContainers : []) defaultContainer(c);
  for (const c of Array.isArray(spec.ephemeralContainers) ? spec.ephemeralContainers : [])
    defaultContainer(c);
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) defaultVolume(v);
}

/** The template of a workload object (`spec.template`), if it has one. */
export function templateOf(obj: ApiObject): Obj | undefined {
  const spec = obj.spec;
  return isObj(spec) && isObj(spec.template) ? spec.template : undefined;
}

/** A container's limits copied into its requests where a request is missing (Pods only, not templates). */
function requestsFromLimits(c: unknown): void {
  if (!isObj(c) || !isObj(c.resources) || !isObj(c.resources.limits)) return;
  const requests = isObj(c.resources.requests) ? c.resources.requests : {};
  for (const [name, q] of Object.entries(c.resources.limits)) if (!(name in requests)) requests[name] = q;
  c.resources.requests = requests;
}

/**
 * Fills a Pod's defaults in place: its spec's, plus what upstream fills for Pods alone (requests from
 * limits, service links, host ports on the host network, the deprecated serviceAccount mirror) and
 * what its admission leaves on every Pod (priority 0 without a priority class).
 */
/**
 * The defaults of a Pod. `mirrorAnnotation` marks Pods a node agent mirrors from static manifests:
 * upstream's ServiceAccount admission leaves those without an account, and so do we.
 */
export function defaultPod(obj: ApiObject, mirrorAnnotation?: string): void {
  if (!isObj(obj.spec)) obj.spec = {};
  const spec = obj.spec as Obj;
  defaultPodSpec(spec);
  const all = [
    ...(Array.isArray(spec.containers) ? spec.containers : []),
    ...(Array.isArray(spec.initContainers) ? spec.initContainers : []),
  ];
  for (const c of all) requestsFromLimits(c);
  setDefault(spec, 'enableServiceLinks', true);
  if (spec.hostNetwork === true) {
    for (const c of all) {
      for (const port of isObj(c) && Array.isArray(c.ports) ? c.ports : []) {
        if (isObj(port) && (port.hostPort === undefined || port.hostPort === 0))
          port.hostPort = port.containerPort;
      }
    }
  }
  // The ServiceAccount admission names the namespace's default account when none is given.
  const mirror =
    mirrorAnnotation !== undefined && obj.metadata?.annotations?.[mirrorAnnotation] !== undefined;
  if (!mirror && (spec.serviceAccountName ?? '') === '' && (spec.serviceAccount ?? '') === '')
    spec.serviceAccountName = 'default';
  // The deprecated field mirrors serviceAccountName, which it fills when only it was given.
  if (
    (spec.serviceAccountName ?? '') === '' &&
    typeof spec.serviceAccount === 'string' &&
    spec.serviceAccount !== ''
  )
    spec.serviceAccountName = spec.serviceAccount;
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName !== '')
    spec.serviceAccount = spec.serviceAccountName;
  if ((spec.priorityClassName ?? '') === '') {
    setDefault(spec, 'priority', 0);
    setDefault(spec, 'preemptionPolicy', 'PreemptLowerPriority');
  }
}

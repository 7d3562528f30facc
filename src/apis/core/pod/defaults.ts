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
  const spec = template.spec;
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'schedulerName', 'default-scheduler');
  for (const c of Array.isArray(spec.containers) ? spec.containers : []) defaultContainer(c);
  for (const c of Array.isArray(spec.initContainers) ? spec.initContainers : []) defaultContainer(c);
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) defaultVolume(v);
}

/** The template of a workload object (`spec.template`), if it has one. */
export function templateOf(obj: ApiObject): Obj | undefined {
  const spec = obj.spec;
  return isObj(spec) && isObj(spec.template) ? spec.template : undefined;
}

// Validation of a pod template beyond its schema: the rules upstream's core validation applies to
// the parts of a pod a workload author writes (containers, ports, volumes and their mounts,
// policies), each as a field-path error with upstream's wording.

import {
  duplicate,
  type FieldError,
  type FieldPath,
  forbidden,
  invalid,
  notFound,
  notSupported,
  required,
} from '../../../machinery/field-errors.ts';
import {
  inclusiveRangeError,
  isDNS1123Label,
  isDNS1123Subdomain,
  isValidPortName,
} from '../../../machinery/validation/names.ts';
import { validateResourceRequirements } from './resource-validation.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];

function validatePort(port: unknown, path: FieldPath, errs: FieldError[]): void {
  if (!isObj(port)) return;
  const n = port.containerPort;
  if (typeof n === 'number' && (n < 1 || n > 65535)) {
    errs.push(invalid(path.child('containerPort'), n, inclusiveRangeError(1, 65535)));
  } else if (n === undefined) {
    errs.push(required(path.child('containerPort'), ''));
  }
  const host = port.hostPort;
  if (typeof host === 'number' && host !== 0 && (host < 1 || host > 65535)) {
    errs.push(invalid(path.child('hostPort'), host, inclusiveRangeError(1, 65535)));
  }
  if (port.protocol !== undefined && !PROTOCOLS.includes(String(port.protocol))) {
    errs.push(notSupported(path.child('protocol'), port.protocol, PROTOCOLS));
  }
}

function validateContainer(c: unknown, path: FieldPath, volumes: Set<string>, errs: FieldError[]): void {
  if (!isObj(c)) return;
  const name = c.name;
  if (typeof name !== 'string' || name === '') errs.push(required(path.child('name'), ''));
  else for (const msg of isDNS1123Label(name)) errs.push(invalid(path.child('name'), name, msg));
  if (typeof c.image !== 'string' || c.image.trim() === '') errs.push(required(path.child('image'), ''));
  if (c.imagePullPolicy !== undefined && !PULL_POLICIES.includes(String(c.imagePullPolicy))) {
    errs.push(notSupported(path.child('imagePullPolicy'), c.imagePullPolicy, PULL_POLICIES));
  }
  if (
    c.terminationMessagePolicy !== undefined &&
    !TERMINATION_MESSAGE_POLICIES.includes(String(c.terminationMessagePolicy))
  ) {
    errs.push(
      notSupported(
        path.child('terminationMessagePolicy'),
        c.terminationMessagePolicy,
        TERMINATION_MESSAGE_POLICIES,
      ),
    );
  }
  const portNames = new Set<string>();
  arr(c.ports).forEach((p, i) => {
    const at = path.child('ports').index(i);
    // The name first, as upstream orders the causes: valid and unique within the container.
    const portName = isObj(p) ? p.name : undefined;
    if (typeof portName === 'string' && portName !== '') {
      const msgs = isValidPortName(portName);
      for (const msg of msgs) errs.push(invalid(at.child('name'), portName, msg));
      if (msgs.length === 0 && portNames.has(portName)) errs.push(duplicate(at.child('name'), portName));
      portNames.add(portName);
    }
    validatePort(p, at, errs);
  });
  const envNames = new Set<string>();
  arr(c.env).forEach((e, i) => {
    if (!isObj(e)) return;
    const p = path.child('env').index(i);
    if (typeof e.name !== 'string' || e.name === '') errs.push(required(p.child('name'), ''));
    else if (/[=]|[^\x20-\x7e]/.test(e.name)) {
      errs.push(
        invalid(
          p.child('name'),
          e.name,
          "a valid environment variable name must consist only of printable ASCII characters other than '='",
        ),
      );
    }
    envNames.add(String(e.name));
  });
  errs.push(...validateResourceRequirements(c.resources, path.child('resources')));
  const mountPaths = new Set<string>();
  arr(c.volumeMounts).forEach((m, i) => {
    if (!isObj(m)) return;
    const p = path.child('volumeMounts').index(i);
    if (typeof m.name !== 'string' || m.name === '') errs.push(required(p.child('name'), ''));
    else if (!volumes.has(m.name)) errs.push(notFound(p.child('name'), m.name));
    if (typeof m.mountPath !== 'string' || m.mountPath === '') errs.push(required(p.child('mountPath'), ''));
    else if (mountPaths.has(m.mountPath))
      errs.push(invalid(p.child('mountPath'), m.mountPath, 'must be unique'));
    else mountPaths.add(m.mountPath);
  });
}

function validateContainers(
  list: unknown,
  path: FieldPath,
  volumes: Set<string>,
  names: Set<string>,
  errs: FieldError[],
): void {
  arr(list).forEach((c, i) => {
    const p = path.index(i);
    validateContainer(c, p, volumes, errs);
    if (isObj(c) && typeof c.name === 'string' && c.name !== '') {
      if (names.has(c.name)) errs.push(duplicate(p.child('name'), c.name));
      names.add(c.name);
    }
  });
}

/** Two containers may not claim the same host port (on the same host IP and protocol). */
function hostPortConflicts(containers: unknown, path: FieldPath, errs: FieldError[]): void {
  const taken = new Set<string>();
  arr(containers).forEach((c, ci) => {
    arr(isObj(c) ? c.ports : undefined).forEach((port, pi) => {
      if (!isObj(port) || typeof port.hostPort !== 'number' || port.hostPort === 0) return;
      const key = `${String(port.hostIP ?? '')}/${String(port.protocol ?? '')}/${port.hostPort}`;
      if (taken.has(key))
        errs.push(duplicate(path.index(ci).child('ports').index(pi).child('hostPort'), key));
      taken.add(key);
    });
  });
}

/** Fields an ephemeral container may not set: it must not be relied on for the pod's own service. */
const NOT_FOR_EPHEMERAL = [
  'ports',
  'resources',
  'resizePolicy',
  'lifecycle',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'restartPolicy',
  'restartPolicyRules',
];

const isZero = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (isObj(v) && Object.values(v).every(isZero));

/**
 * Ephemeral containers: valid as containers, named uniquely across every container of the pod,
 * targeting a regular or init container that exists, and without the fields a debugging container
 * has no use for.
 */
function validateEphemeralContainers(
  spec: Obj,
  path: FieldPath,
  volumes: Set<string>,
  names: Set<string>,
  errs: FieldError[],
): void {
  const others = new Set(names);
  arr(spec.ephemeralContainers).forEach((c, i) => {
    if (!isObj(c)) return;
    const p = path.index(i);
    validateContainer(c, p, volumes, errs);
    if (typeof c.name === 'string' && c.name !== '') {
      if (names.has(c.name)) errs.push(duplicate(p.child('name'), c.name));
      names.add(c.name);
    }
    if (
      typeof c.targetContainerName === 'string' &&
      c.targetContainerName !== '' &&
      !others.has(c.targetContainerName)
    ) {
      errs.push(notFound(p.child('targetContainerName'), c.targetContainerName));
    }
    for (const field of NOT_FOR_EPHEMERAL) {
      if (!isZero(c[field])) errs.push(forbidden(p.child(field), 'cannot be set for an Ephemeral Container'));
    }
    arr(c.volumeMounts).forEach((m, j) => {
      if (isObj(m) && typeof m.subPath === 'string' && m.subPath !== '') {
        errs.push(
          forbidden(
            p.child('volumeMounts').index(j).child('subPath'),
            'cannot be set for an Ephemeral Container',
          ),
        );
      }
    });
  });
}

/** Errors of a PodTemplateSpec's spec at `path` (`spec.template.spec`). */
export function validatePodSpec(spec: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!isObj(spec)) return [required(path.child('containers'), '')];
  const volumes = new Set<string>();
  arr(spec.volumes).forEach((v, i) => {
    if (!isObj(v)) return;
    const p = path.child('volumes').index(i);
    const name = v.name;
    if (typeof name !== 'string' || name === '') {
      errs.push(required(p.child('name'), ''));
      return;
    }
    for (const msg of isDNS1123Label(name)) errs.push(invalid(p.child('name'), name, msg));
    if (volumes.has(name)) errs.push(duplicate(p.child('name'), name));
    volumes.add(name);
  });
  if (arr(spec.containers).length === 0) errs.push(required(path.child('containers'), ''));
  const names = new Set<string>();
  validateContainers(spec.containers, path.child('containers'), volumes, names, errs);
  validateContainers(spec.initContainers, path.child('initContainers'), volumes, names, errs);
  validateEphemeralContainers(spec, path.child('ephemeralContainers'), volumes, names, errs);
  hostPortConflicts(spec.containers, path.child('containers'), errs);
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '') {
    for (const msg of isDNS1123Subdomain(spec.nodeName)) {
      errs.push(invalid(path.child('nodeName'), spec.nodeName, msg));
    }
  }
  if (spec.restartPolicy !== undefined && !RESTART_POLICIES.includes(String(spec.restartPolicy))) {
    errs.push(notSupported(path.child('restartPolicy'), spec.restartPolicy, RESTART_POLICIES));
  }
  if (spec.dnsPolicy !== undefined && !DNS_POLICIES.includes(String(spec.dnsPolicy))) {
    errs.push(notSupported(path.child('dnsPolicy'), spec.dnsPolicy, DNS_POLICIES));
  }
  const grace = spec.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0) {
    errs.push(
      invalid(path.child('terminationGracePeriodSeconds'), grace, 'must be greater than or equal to 0'),
    );
  }
  const deadline = spec.activeDeadlineSeconds;
  if (typeof deadline === 'number' && deadline <= 0) {
    errs.push(
      invalid(path.child('activeDeadlineSeconds'), deadline, 'must be between 1 and 2147483647, inclusive'),
    );
  }
  return errs;
}

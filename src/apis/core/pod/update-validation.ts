// What may change in a stored Pod, as upstream's core validation decides: through the resource only
// container images, a shorter activeDeadlineSeconds, added tolerations, removed scheduling gates and
// a negative termination grace period raised to 1; through /status anything but the QoS class, with
// containers that may not restart staying terminated; through /ephemeralcontainers only additions.

import { isIP } from 'node:net';
import {
  duplicate,
  type FieldError,
  forbidden,
  invalid,
  newPath,
  required,
  validateImmutableField,
} from '../../../machinery/field-errors.ts';
import type { ApiObject } from '../../../machinery/object.ts';
import {
  inclusiveRangeError,
  isDNS1123Subdomain,
  isQualifiedName,
} from '../../../machinery/validation/names.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const specOf = (obj: ApiObject): Obj => (isObj(obj.spec) ? obj.spec : {});
const statusOf = (obj: ApiObject): Obj => (isObj(obj.status) ? obj.status : {});

/** The fields a pod update may change, as upstream lists them in its refusal (clients match it). */
export const POD_UPDATE_FORBIDDEN_MESSAGE =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

const MAX_INT32 = 2147483647;

/**
 * A copy without zero values (absent, null, '', false, 0, empty lists and maps): upstream compares
 * Go structs, where an omitted field and its zero value are the same thing.
 */
function pruned(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((x) => pruned(x) ?? null);
  if (isObj(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) {
      const p = pruned(x);
      if (p !== undefined) out[k] = p;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v === null || v === '' || v === false || v === 0 ? undefined : v;
}

/** Equality as upstream's semantic comparison sees it (zero values and omissions alike). */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(pruned(a))) === JSON.stringify(sortKeys(pruned(b)));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isObj(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  return v;
}

/** Containers may not be added or removed; their images must stay set. True: stop checking. */
function containerUpdates(next: unknown, old: unknown, field: string, errs: FieldError[]): boolean {
  const path = newPath('spec', field);
  const n = arr(next);
  if (n.length !== arr(old).length) {
    errs.push(forbidden(path, 'pod updates may not add or remove containers'));
    return true;
  }
  n.forEach((c, i) => {
    const image = isObj(c) ? c.image : undefined;
    if (typeof image !== 'string' || image === '') errs.push(required(path.index(i).child('image'), ''));
    else if (image.trim() !== image) {
      errs.push(invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
    }
  });
  return false;
}

function onlyAddedTolerations(next: unknown, old: unknown, errs: FieldError[]): void {
  const path = newPath('spec', 'tolerations');
  for (const o of arr(old)) {
    const found = arr(next).some(
      (n) => isObj(n) && isObj(o) && semanticEqual({ ...o, tolerationSeconds: n.tolerationSeconds }, n),
    );
    if (!found) {
      errs.push(forbidden(path, 'existing toleration can not be modified except its tolerationSeconds'));
      return;
    }
  }
}

function onlyDeletedSchedulingGates(next: unknown, old: unknown, errs: FieldError[]): void {
  const before = new Set(arr(old).map((g) => (isObj(g) ? g.name : undefined)));
  arr(next).forEach((g, i) => {
    const name = isObj(g) ? g.name : undefined;
    if (!before.has(name)) {
      errs.push(
        forbidden(
          newPath('spec', 'schedulingGates').index(i).child('name'),
          `only deletion is allowed, but found new scheduling gate '${String(name)}'`,
        ),
      );
    }
  });
}

/** An update through the resource itself. */
export function validatePodUpdate(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(obj);
  const oldSpec = specOf(old);
  if (containerUpdates(spec.containers, oldSpec.containers, 'containers', errs)) return errs;
  if (containerUpdates(spec.initContainers, oldSpec.initContainers, 'initContainers', errs)) return errs;
  const deadlinePath = newPath('spec', 'activeDeadlineSeconds');
  const deadline = spec.activeDeadlineSeconds;
  const oldDeadline = oldSpec.activeDeadlineSeconds;
  if (typeof deadline === 'number') {
    if (deadline < 0 || deadline > MAX_INT32) {
      errs.push(invalid(deadlinePath, deadline, inclusiveRangeError(0, MAX_INT32)));
      return errs;
    }
    if (typeof oldDeadline === 'number' && oldDeadline < deadline) {
      errs.push(invalid(deadlinePath, deadline, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (typeof oldDeadline === 'number') {
    errs.push(invalid(deadlinePath, null, 'must not update from a positive integer to nil value'));
  }
  onlyAddedTolerations(spec.tolerations, oldSpec.tolerations, errs);
  onlyDeletedSchedulingGates(spec.schedulingGates, oldSpec.schedulingGates, errs);
  if (semanticEqual(spec, oldSpec)) return errs;
  // The fields allowed to change take their old values; whatever still differs is refused.
  const munged: Obj = structuredClone(spec);
  for (const field of ['containers', 'initContainers']) {
    const olds = arr(oldSpec[field]);
    arr(munged[field]).forEach((c, i) => {
      const o = olds[i];
      if (isObj(c) && isObj(o)) c.image = o.image;
    });
  }
  for (const field of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations'])
    munged[field] = oldSpec[field];
  const oldGrace = oldSpec.terminationGracePeriodSeconds;
  if (typeof oldGrace === 'number' && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = oldGrace;
  }
  if (!semanticEqual(munged, oldSpec)) errs.push(forbidden(newPath('spec'), POD_UPDATE_FORBIDDEN_MESSAGE));
  return errs;
}

const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);

/** Containers that may not restart may not leave the terminated state. */
function stateTransitions(
  next: unknown,
  old: unknown,
  field: string,
  mayRestart: (status: Obj) => boolean,
  errs: FieldError[],
): void {
  arr(old).forEach((o, i) => {
    if (!isObj(o) || !isObj(o.state) || !isObj(o.state.terminated)) return;
    if (mayRestart(o)) return;
    for (const n of arr(next)) {
      if (isObj(n) && n.name === o.name && !(isObj(n.state) && isObj(n.state.terminated))) {
        errs.push(
          forbidden(
            newPath('status', field).index(i).child('state'),
            'may not be transitioned to non-terminated state',
          ),
        );
      }
    }
  });
}

function validateIPs(list: unknown, field: string, errs: FieldError[]): void {
  const seen = new Set<string>();
  arr(list).forEach((entry, i) => {
    const ip = isObj(entry) ? String(entry.ip ?? '') : '';
    const path = newPath('status', field).index(i);
    if (isIP(ip) === 0) {
      errs.push(
        invalid(path.child('ip'), ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'),
      );
    }
    if (seen.has(ip)) errs.push(duplicate(path, ip));
    seen.add(ip);
  });
}

/** An update through /status. */
export function validatePodStatusUpdate(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const status = statusOf(obj);
  const oldStatus = statusOf(old);
  arr(status.conditions).forEach((c, i) => {
    const type = isObj(c) ? String(c.type ?? '') : '';
    if (SYSTEM_CONDITIONS.has(type)) return;
    // Upstream reports these under metadata, with a capital Type: kept, since clients see it.
    const path = newPath('metadata', 'conditions').index(i).child('Type');
    for (const msg of isQualifiedName(type)) errs.push(invalid(path, type, msg));
  });
  const nominated = status.nominatedNodeName;
  if (typeof nominated === 'string' && nominated !== '' && nominated !== oldStatus.nominatedNodeName) {
    for (const msg of isDNS1123Subdomain(nominated)) {
      errs.push(invalid(newPath('status', 'nominatedNodeName'), nominated, msg));
    }
  }
  errs.push(...validateImmutableField(status.qosClass, oldStatus.qosClass, newPath('status', 'qosClass')));
  const oldSpec = specOf(old);
  const policy = oldSpec.restartPolicy;
  const exitedOk = (s: Obj) =>
    isObj(s.state) && isObj(s.state.terminated) && s.state.terminated.exitCode === 0;
  const restartable = (s: Obj) => policy === 'Always' || (policy === 'OnFailure' && !exitedOk(s));
  stateTransitions(
    status.containerStatuses,
    oldStatus.containerStatuses,
    'containerStatuses',
    restartable,
    errs,
  );
  const sidecars = new Set(
    arr(oldSpec.initContainers)
      .filter((c) => isObj(c) && c.restartPolicy === 'Always')
      .map((c) => (c as Obj).name),
  );
  stateTransitions(
    status.initContainerStatuses,
    oldStatus.initContainerStatuses,
    'initContainerStatuses',
    (s) => restartable(s) || sidecars.has(s.name),
    errs,
  );
  stateTransitions(
    status.ephemeralContainerStatuses,
    oldStatus.ephemeralContainerStatuses,
    'ephemeralContainerStatuses',
    () => false,
    errs,
  );
  validateIPs(status.podIPs, 'podIPs', errs);
  validateIPs(status.hostIPs, 'hostIPs', errs);
  return errs;
}

/** An update through /ephemeralcontainers: existing ones may be neither removed nor changed. */
export function validateEphemeralContainersUpdate(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const path = newPath('spec', 'ephemeralContainers');
  const byName = new Map<unknown, unknown>();
  for (const c of arr(specOf(obj).ephemeralContainers)) if (isObj(c)) byName.set(c.name, c);
  for (const o of arr(specOf(old).ephemeralContainers)) {
    if (!isObj(o)) continue;
    const n = byName.get(o.name);
    const quoted = JSON.stringify(String(o.name));
    if (n === undefined)
      errs.push(forbidden(path, `existing ephemeral containers ${quoted} may not be removed\n`));
    else if (!semanticEqual(o, n)) {
      errs.push(forbidden(path, `existing ephemeral containers ${quoted} may not be changed\n`));
    }
  }
  return errs;
}

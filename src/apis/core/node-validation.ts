// Node validation beyond its schema, as upstream's ValidateNode and ValidateNodeUpdate: taints
// (label-name keys, label-value values, a known effect, unique by key and effect), pod CIDRs (valid,
// at most one per IP family, fixed once set), non-negative resource quantities, the providerID
// and externalID rules, and unique status addresses on update.

import { isIPv4, isIPv6 } from 'node:net';
import {
  duplicate,
  type FieldError,
  type FieldPath,
  forbidden,
  invalid,
  newPath,
  notSupported,
  required,
} from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { Quantity } from '../../machinery/quantity.ts';
import { isValidLabelValue, validateLabelName } from '../../machinery/validation/names.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const CIDR_MESSAGE = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
const POD_CIDR_CHANGE = 'node updates may not change podCIDR except from "" to valid';

export function specOf(node: ApiObject): Obj {
  return isObj(node.spec) ? node.spec : {};
}

export function statusOf(node: ApiObject): Obj {
  return isObj(node.status) ? node.status : {};
}

function validateTaints(taints: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((t, i) => {
    const at = path.index(i);
    const taint = isObj(t) ? t : {};
    const key = str(taint.key);
    const value = str(taint.value);
    const effect = str(taint.effect);
    errs.push(...validateLabelName(key, at.child('key')));
    const valueErrs = isValidLabelValue(value);
    if (value !== '' && valueErrs.length > 0)
      errs.push(invalid(at.child('value'), value, valueErrs.join(';')));
    if (effect === '') errs.push(required(at.child('effect'), ''));
    else if (!TAINT_EFFECTS.includes(effect))
      errs.push(notSupported(at.child('effect'), effect, TAINT_EFFECTS));
    const unique = `${effect}\u0000${key}`;
    if (seen.has(unique)) {
      errs.push({ ...duplicate(at, taint), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(unique);
  });
  return errs;
}

/** Parses a CIDR as Go's net.ParseCIDR accepts it; the IP family, or undefined when invalid. */
export function cidrFamily(value: string): 4 | 6 | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const ip = value.slice(0, slash);
  const bits = value.slice(slash + 1);
  if (!/^[0-9]{1,3}$/.test(bits)) return undefined;
  const n = Number(bits);
  if (isIPv4(ip)) return n <= 32 ? 4 : undefined;
  if (isIPv6(ip) && !ip.includes('%')) return n <= 128 ? 6 : undefined;
  return undefined;
}

function validatePodCIDRs(cidrs: string[]): FieldError[] {
  const errs: FieldError[] = [];
  const path = newPath('spec', 'podCIDRs');
  const families: (4 | 6 | undefined)[] = [];
  cidrs.forEach((c, i) => {
    const family = cidrFamily(c);
    families.push(family);
    if (family === undefined) errs.push(invalid(path.index(i), c, CIDR_MESSAGE));
  });
  if (cidrs.length > 1) {
    const dualStack = families.includes(4) && families.includes(6);
    if (!dualStack || cidrs.length > 2)
      errs.push(invalid(path, cidrs, 'may specify no more than one CIDR for each IP family'));
  }
  return errs;
}

function validateResources(status: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['capacity', 'allocatable']) {
    const list = status[field];
    if (!isObj(list)) continue;
    for (const [name, v] of Object.entries(list)) {
      let q: Quantity | undefined;
      try {
        q = Quantity.parse(String(v));
      } catch {
        continue; // the decoder refuses a quantity that does not parse
      }
      if (q.sign() < 0)
        errs.push(invalid(newPath('status', field, name), String(v), 'must be greater than or equal to 0'));
    }
  }
  return errs;
}

const strings = (v: unknown): string[] => arr(v).map(str);

export function validateNode(node: ApiObject): FieldError[] {
  const spec = specOf(node);
  const errs: FieldError[] = [];
  const taints = arr(spec.taints);
  if (taints.length > 0) errs.push(...validateTaints(taints, newPath('spec', 'taints')));
  errs.push(...validateResources(statusOf(node)));
  const cidrs = strings(spec.podCIDRs);
  if (cidrs.length > 0) errs.push(...validatePodCIDRs(cidrs));
  return errs;
}

/** The rules of an update, after validateNode (the status sub-resource runs these alone). */
export function validateNodeUpdate(node: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(node);
  const oldSpec = specOf(old);
  const oldCIDRs = strings(oldSpec.podCIDRs);
  if (oldCIDRs.length > 0) {
    const cidrs = strings(spec.podCIDRs);
    const path = newPath('spec', 'podCIDRs');
    if (oldCIDRs.length !== cidrs.length) errs.push(forbidden(path, POD_CIDR_CHANGE));
    else
      for (const [i, c] of oldCIDRs.entries())
        if (c !== cidrs[i]) errs.push(forbidden(path, POD_CIDR_CHANGE));
  }
  const oldProvider = str(oldSpec.providerID);
  if (oldProvider !== '' && oldProvider !== str(spec.providerID)) {
    errs.push(
      forbidden(
        newPath('spec', 'providerID'),
        'node updates may not change providerID except from "" to valid',
      ),
    );
  }
  if (str(spec.externalID) !== str(oldSpec.externalID)) {
    errs.push(forbidden(newPath('spec', 'externalID'), 'may not be updated'));
  }
  const seen = new Set<string>();
  arr(statusOf(node).addresses).forEach((a, i) => {
    const addr = isObj(a) ? a : {};
    const key = `${str(addr.type)}\u0000${str(addr.address)}`;
    if (seen.has(key)) errs.push(duplicate(newPath('status', 'addresses').index(i), addr));
    seen.add(key);
  });
  return errs;
}

// The patch forms the fake resource client applies: RFC 7386 merge patch (also standing in for
// strategic merge patch and apply) and the add/remove/replace/test operations of RFC 6902. Enough
// for controllers' tests; the server's own patch/ layer is the real thing.

import { badRequest } from '../../machinery/status.ts';

/** RFC 7386: objects merge key by key, null deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

interface Op {
  op?: unknown;
  path?: unknown;
  value?: unknown;
}

function tokens(path: unknown): string[] {
  if (typeof path !== 'string' || (path !== '' && !path.startsWith('/')))
    throw badRequest(`invalid JSON pointer: ${JSON.stringify(path)}`);
  return path
    .split('/')
    .slice(1)
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** RFC 6902 add/remove/replace/test on a copy of `doc`. */
export function jsonPatch(doc: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw badRequest('json patch must be a list of operations');
  const root = { v: structuredClone(doc) as unknown };
  for (const raw of ops as Op[]) {
    const path = tokens(raw.path);
    let parent: object = root;
    let last = 'v';
    for (const t of path) {
      const next: unknown = (parent as Record<string, unknown>)[last];
      if (next === null || typeof next !== 'object')
        throw badRequest(`doc is missing path: ${String(raw.path)}`);
      parent = next;
      last = t;
    }
    const list = Array.isArray(parent) ? (parent as unknown[]) : undefined;
    const map = parent as Record<string, unknown>;
    const index = list === undefined ? -1 : last === '-' ? list.length : Number(last);
    const present = list !== undefined ? index < list.length : Object.hasOwn(map, last);
    switch (raw.op) {
      case 'add':
        if (list !== undefined) list.splice(index, 0, raw.value);
        else map[last] = raw.value;
        break;
      case 'replace':
      case 'remove':
        if (!present) throw badRequest(`doc is missing path: ${String(raw.path)}`);
        if (raw.op === 'replace') map[last] = raw.value;
        else if (list !== undefined) list.splice(index, 1);
        else delete map[last];
        break;
      case 'test':
        if (JSON.stringify(map[last]) !== JSON.stringify(raw.value))
          throw badRequest(`testing value ${String(raw.path)} failed`);
        break;
      default:
        throw badRequest(`Unexpected kind: ${String(raw.op)}`);
    }
  }
  return root.v;
}

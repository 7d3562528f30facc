// JSON Patch (RFC 6902): add, remove, replace, move, copy and test over JSON Pointers (RFC 6901),
// applied to a copy. Failures use the wording of the Go library upstream applies patches with,
// since clients and scripts match on it.

import { depthOf, jsonDepthMessage, MAX_NESTING_DEPTH, valueTooDeep } from '../codec/depth.ts';
import { PatchError, PatchTooDeepError } from './errors.ts';
import { isPlainObject } from './merge-patch.ts';

export interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

/** Upstream's bound on how much `copy` operations may grow a document (its JSONPatchMaxCopyBytes). */
export const MAX_COPY_BYTES = 3 * 1024 * 1024;

/** Upstream refuses patches with more operations than this (413). */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

const OP_FIELDS = new Set(['op', 'path', 'value', 'from']);

/** Strict findings of the operations themselves: unknown and repeated fields, by operation index. */
export function jsonPatchFieldProblems(ops: unknown[], duplicatePaths: string[]): string[] {
  const out: string[] = [];
  ops.forEach((op, i) => {
    if (!isPlainObject(op)) return;
    for (const k of Object.keys(op)) {
      if (!OP_FIELDS.has(k)) out.push(`json patch unknown field ${JSON.stringify(`[${i}].${k}`)}`);
    }
  });
  for (const p of duplicatePaths) out.push(`json patch duplicate field ${JSON.stringify(p)}`);
  return out;
}

/** The patch document's operations; PatchError (malformed) when it is not a list of objects. */
export function decodeJsonPatch(doc: unknown): JsonPatchOperation[] {
  if (!Array.isArray(doc)) {
    const kind =
      doc === null
        ? 'null'
        : typeof doc === 'object'
          ? 'object'
          : typeof doc === 'number'
            ? 'number'
            : typeof doc;
    throw new PatchError(`json: cannot unmarshal ${kind} into Go value of type jsonpatch.Patch`, 'malformed');
  }
  return doc.map((op) => {
    if (!isPlainObject(op))
      throw new PatchError(
        'json: cannot unmarshal non-object into Go value of type jsonpatch.Operation',
        'malformed',
      );
    return op as unknown as JsonPatchOperation;
  });
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError(`Invalid JSON Pointer: ${pointer}`, 'conflict');
  return pointer.slice(1).split('/').map(unescapeToken);
}

type Container = Record<string, unknown> | unknown[];

/** The container holding the pointer's last token, and that token. */
function parentOf(doc: unknown, pointer: string): { parent: Container | undefined; key: string } {
  const parts = tokens(pointer);
  const key = parts.pop() ?? '';
  let node: unknown = doc;
  for (const part of parts) {
    if (Array.isArray(node)) {
      const i = Number(part);
      node = /^\d+$/.test(part) && i < node.length ? node[i] : undefined;
    } else if (isPlainObject(node)) {
      node = node[part];
    } else {
      node = undefined;
    }
    if (node === undefined) return { parent: undefined, key };
  }
  return Array.isArray(node) || isPlainObject(node) ? { parent: node, key } : { parent: undefined, key };
}

function get(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  const { parent, key } = parentOf(doc, pointer);
  if (parent === undefined) return undefined;
  if (Array.isArray(parent)) return /^\d+$/.test(key) ? parent[Number(key)] : undefined;
  return Object.hasOwn(parent, key) ? parent[key] : undefined;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}

function missingPath(op: string, path: string): PatchError {
  return new PatchError(
    `${op} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`,
    'conflict',
  );
}

function add(doc: unknown, path: string, value: unknown, op = 'add'): unknown {
  if (path === '') return value;
  const { parent, key } = parentOf(doc, path);
  if (parent === undefined) throw missingPath(op, path);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : /^\d+$/.test(key) ? Number(key) : Number.NaN;
    if (Number.isNaN(i) || i > parent.length) {
      throw new PatchError(`Unable to access invalid index: ${key}: invalid index referenced`, 'conflict');
    }
    parent.splice(i, 0, value);
  } else {
    parent[key] = value;
  }
  return doc;
}

function remove(doc: unknown, path: string, op = 'remove'): unknown {
  const { parent, key } = parentOf(doc, path);
  if (parent === undefined) throw missingPath(op, path);
  if (Array.isArray(parent)) {
    const i = /^\d+$/.test(key) ? Number(key) : Number.NaN;
    if (Number.isNaN(i) || i >= parent.length) {
      throw new PatchError(`Unable to access invalid index: ${key}: invalid index referenced`, 'conflict');
    }
    parent.splice(i, 1);
  } else {
    if (!Object.hasOwn(parent, key))
      throw new PatchError(`Unable to remove nonexistent key: ${key}: missing value`, 'conflict');
    delete parent[key];
  }
  return doc;
}

/**
 * Refuses a value placed at `path` that would nest the document beyond the decoders' limit, so
 * the document stays walkable (copies could otherwise double its depth with every operation).
 */
function checkDepth(doc: unknown, path: string, value: unknown): void {
  const level = path === '' ? 0 : path.split('/').length - 1;
  if (level + depthOf(value) <= MAX_NESTING_DEPTH) return;
  throw new PatchTooDeepError(jsonDepthMessage(valueTooDeep(doc) ?? '{'), doc);
}

/** Applies the operations in order to a copy of `doc`; the first that fails stops the patch. */
export function applyJsonPatch(doc: unknown, ops: readonly JsonPatchOperation[]): unknown {
  let out: unknown = structuredClone(doc);
  let copied = 0;
  for (const o of ops) {
    const path = typeof o.path === 'string' ? o.path : undefined;
    switch (o.op) {
      case 'add':
        if (path === undefined) throw new PatchError('add operation missing path', 'conflict');
        out = add(out, path, structuredClone(o.value));
        checkDepth(out, path, o.value);
        break;
      case 'remove':
        if (path === undefined) throw new PatchError('remove operation missing path', 'conflict');
        out = remove(out, path);
        break;
      case 'replace': {
        if (path === undefined) throw new PatchError('replace operation missing path', 'conflict');
        if (get(out, path) === undefined) {
          throw new PatchError(
            `replace operation does not apply: doc is missing key: ${path}: missing value`,
            'conflict',
          );
        }
        if (path === '') out = structuredClone(o.value);
        else {
          out = remove(out, path, 'replace');
          out = add(out, path, structuredClone(o.value), 'replace');
        }
        checkDepth(out, path, o.value);
        break;
      }
      case 'move':
      case 'copy': {
        const from = typeof o.from === 'string' ? o.from : undefined;
        if (from === undefined || path === undefined)
          throw new PatchError(`${o.op} operation missing from or path`, 'conflict');
        const value = get(out, from);
        if (value === undefined) {
          throw new PatchError(
            `${o.op} operation does not apply: doc is missing from path: ${from}: missing value`,
            'conflict',
          );
        }
        if (o.op === 'copy') {
          // Copies are bounded in bytes as upstream bounds them: repeated, they grow a document
          // exponentially.
          copied += Buffer.byteLength(JSON.stringify(value));
          if (copied > MAX_COPY_BYTES) {
            throw new PatchError(
              `Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${MAX_COPY_BYTES}`,
              'conflict',
            );
          }
        }
        if (o.op === 'move') out = remove(out, from, 'move');
        out = add(out, path, structuredClone(value), o.op);
        checkDepth(out, path, value);
        break;
      }
      case 'test': {
        if (path === undefined) throw new PatchError('test operation missing path', 'conflict');
        if (!deepEqual(get(out, path) ?? null, o.value ?? null)) {
          throw new PatchError(`testing value ${path} failed: test failed`, 'conflict');
        }
        break;
      }
      default:
        throw new PatchError(`Unexpected kind: ${String(o.op)}`, 'conflict');
    }
  }
  return out;
}

// fieldValidation: what a body held that the kind does not take (unknown fields) or held twice
// (duplicate keys), reported the way upstream's strict decoder reports them. Ignore says nothing,
// Warn (the default) sends one Warning per finding, Strict refuses the request listing them all.

import type { DuplicateKeys } from '../../codec/serializers.ts';
import { badRequest } from '../../machinery/status.ts';
import type { RequestContext } from '../context.ts';

const FIELD_VALIDATION = ['Ignore', 'Warn', 'Strict'] as const;
export type FieldValidation = (typeof FIELD_VALIDATION)[number];

/** Upstream's decoder stops collecting after this many strict findings. */
const MAX_FINDINGS = 100;

export function fieldValidationOf(ctx: RequestContext): FieldValidation {
  const v = ctx.query.get('fieldValidation') ?? '';
  if (v === '') return 'Warn';
  if ((FIELD_VALIDATION as readonly string[]).includes(v)) return v as FieldValidation;
  throw badRequest(`fieldValidation must be one of "Ignore", "Warn", or "Strict", got ${JSON.stringify(v)}`);
}

export interface StrictFindings {
  /** One text per finding, in upstream's order: the Warning headers of Warn. */
  warnings: string[];
  /** The items of Strict's `strict decoding error: …` (YAML repeats fold into one item). */
  errors: string[];
}

/**
 * Orders paths the way a walk over key-sorted maps meets them: upstream turns YAML into JSON
 * through a Go map, so the unknown fields of a YAML body come out in that order.
 */
export function compareSortedWalk(a: string, b: string): number {
  const split = (p: string) => p.split(/\.|(?=\[)/);
  const pa = split(a);
  const pb = split(b);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] === pb[i]) continue;
    const ia = /^\[(\d+)\]$/.exec(pa[i]);
    const ib = /^\[(\d+)\]$/.exec(pb[i]);
    if (ia && ib) return Number(ia[1]) - Number(ib[1]);
    return pa[i] < pb[i] ? -1 : 1;
  }
  return pa.length - pb.length;
}

/** A path cut for compareSortedWalk once, rather than at every comparison of a sort. */
interface WalkKey {
  path: string;
  parts: string[];
  /** The index of each `[n]` part, NaN for a key. */
  indexes: number[];
}

function walkKey(path: string): WalkKey {
  const parts = path.split(/\.|(?=\[)/);
  const indexes = parts.map((p) => {
    const m = /^\[(\d+)\]$/.exec(p);
    return m ? Number(m[1]) : Number.NaN;
  });
  return { path, parts, indexes };
}

function compareWalkKeys(a: WalkKey, b: WalkKey): number {
  const n = Math.min(a.parts.length, b.parts.length);
  for (let i = 0; i < n; i++) {
    const x = a.parts[i];
    const y = b.parts[i];
    if (x === y) continue;
    const ix = a.indexes[i];
    const iy = b.indexes[i];
    if (!Number.isNaN(ix) && !Number.isNaN(iy)) return ix - iy;
    return x < y ? -1 : 1;
  }
  return a.parts.length - b.parts.length;
}

/** `paths` sorted by compareSortedWalk (a new array), each path cut into parts only once. */
export function sortedWalkOrder(paths: readonly string[]): string[] {
  return paths
    .map(walkKey)
    .sort(compareWalkKeys)
    .map((k) => k.path);
}

/**
 * Which of `paths` lie within one of `fields` (the field itself, or below it after a `.` or `[`),
 * by looking up each path's prefixes rather than comparing every path with every field; a prefix
 * shared by many paths (their parent) is looked up once.
 */
function withinAny(fields: readonly string[]): (path: string) => boolean {
  const set = new Set(fields);
  const memo = new Map<string, boolean>();
  const within = (p: string): boolean => {
    if (set.has(p)) return true;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut < 0) return false;
    const parent = p.slice(0, cut);
    let answer = memo.get(parent);
    if (answer === undefined) {
      answer = within(parent);
      memo.set(parent, answer);
    }
    return answer;
  };
  return within;
}

/** Combines a body's repeated keys with the unknown fields its kind's schema found. */
export function strictFindings(duplicates: DuplicateKeys, unknownFields: string[]): StrictFindings {
  const unknown = unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`);
  if (duplicates.format === 'yaml') {
    const sorted = sortedWalkOrder(unknownFields).map((f) => `unknown field ${JSON.stringify(f)}`);
    const lines = duplicates.lines.slice(0, MAX_FINDINGS);
    const folded = lines.length > 0 ? [`yaml: unmarshal errors:\n  ${lines.join('\n  ')}`] : [];
    return { warnings: [...lines, ...sorted], errors: [...folded, ...sorted] };
  }
  // A field both unknown and repeated is only unknown: the typed decoder never reads its value.
  const isUnknown = withinAny(unknownFields);
  const repeated = [...new Set(duplicates.keys.filter((d) => !isUnknown(d.path)).map((d) => d.path))];
  if (repeated.length === 0) return { warnings: unknown, errors: unknown };
  if (unknownFields.length === 0) {
    const texts = repeated.slice(0, MAX_FINDINGS).map((p) => `duplicate field ${JSON.stringify(p)}`);
    return { warnings: texts, errors: texts };
  }
  const firstSeen = new Map<string, number>();
  for (const d of duplicates.keys) if (!firstSeen.has(d.path)) firstSeen.set(d.path, d.ordinal);
  const ordinals = duplicates.ordinalsOf(new Set(unknownFields));
  const entries = [
    ...repeated.map((p) => ({
      at: firstSeen.get(p) ?? Number.MAX_SAFE_INTEGER,
      text: `duplicate field ${JSON.stringify(p)}`,
    })),
    ...unknownFields.map((p) => ({
      at: ordinals.get(p) ?? Number.MAX_SAFE_INTEGER,
      text: `unknown field ${JSON.stringify(p)}`,
    })),
  ];
  const texts = entries
    .map((e, i) => ({ ...e, i }))
    .sort((x, y) => x.at - y.at || x.i - y.i)
    .slice(0, MAX_FINDINGS)
    .map((e) => e.text);
  return { warnings: texts, errors: texts };
}

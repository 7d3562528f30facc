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

const isWithin = (path: string, parent: string) =>
  path === parent || path.startsWith(`${parent}.`) || path.startsWith(`${parent}[`);

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

/** Combines a body's repeated keys with the unknown fields its kind's schema found. */
export function strictFindings(duplicates: DuplicateKeys, unknownFields: string[]): StrictFindings {
  const unknown = unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`);
  if (duplicates.format === 'yaml') {
    const sorted = [...unknownFields]
      .sort(compareSortedWalk)
      .map((f) => `unknown field ${JSON.stringify(f)}`);
    const lines = duplicates.lines.slice(0, MAX_FINDINGS);
    const folded = lines.length > 0 ? [`yaml: unmarshal errors:\n  ${lines.join('\n  ')}`] : [];
    return { warnings: [...lines, ...sorted], errors: [...folded, ...sorted] };
  }
  // A field both unknown and repeated is only unknown: the typed decoder never reads its value.
  const repeated = [
    ...new Set(
      duplicates.keys.filter((d) => !unknownFields.some((u) => isWithin(d.path, u))).map((d) => d.path),
    ),
  ];
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

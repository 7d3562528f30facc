// Host values into CEL values. CEL ints are bigints in the engine; JSON numbers arrive as JS
// numbers. fromJson converts an object decoded from JSON once (integral numbers become int, the
// rest double, as upstream's unstructured conversion does), so callers convert per request, not
// per expression.

export function fromJson(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(fromJson);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fromJson(v);
    return out;
  }
  return value;
}

// IEEE 754 half precision, which CBOR floats may use (RFC 8949 section 3.3). Upstream writes each
// float in the narrowest of half, single and double width that holds its value exactly.

const scratch = new DataView(new ArrayBuffer(8));

/** The value of half-precision bits. */
export function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac === 0 ? sign * Number.POSITIVE_INFINITY : Number.NaN;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/**
 * Half-precision bits for a value that is exactly a half, or undefined. Values outside the half
 * range or with bits a half cannot hold (normal or subnormal) are not exact.
 */
export function exactHalf(x: number): number | undefined {
  if (x === 0) return Object.is(x, -0) ? 0x8000 : 0;
  const sign = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a > 65504 || a < 2 ** -24) return undefined;
  // Scale to an integer count of the smallest step at this magnitude: 2^-24 for subnormals, and
  // 2^(e-10) for a normal half with exponent e.
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a)
    e--; // log2 may round up or down next to a power of two
  else if (2 ** (e + 1) <= a) e++;
  const exp = Math.max(e, -14);
  const steps = a / 2 ** (exp - 10);
  if (!Number.isInteger(steps)) return undefined;
  if (exp === -14 && steps < 1024) return sign | steps; // subnormal
  return sign | ((exp + 15) << 10) | (steps - 1024);
}

/** Whether a double survives conversion to single precision unchanged. */
export const fitsSingle = (x: number): boolean => Math.fround(x) === x;

export function singleBits(x: number): number {
  scratch.setFloat32(0, x);
  return scratch.getUint32(0);
}

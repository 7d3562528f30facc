// Date/time tags 0 (RFC 3339 text) and 1 (epoch seconds). Upstream never writes them, but its
// decoder accepts them and, for unstructured content, turns them into RFC 3339 strings with
// nanoseconds, as Go's time.Time MarshalText writes them.

import { CborDecodeError } from './errors.ts';

/** Seconds since the epoch of 0000-01-01T00:00:00Z and of 9999-12-31T23:59:59Z. */
const MIN_SECONDS = -62167219200;
const MAX_SECONDS = 253402300799;

const tagError = (text: string) => new CborDecodeError(`cbor: ${text}`, 'tag', 'decode');

const outOfRange = () =>
  tagError(
    'decoded time cannot be represented in RFC3339 format with sub-second precision: Time.MarshalText: year outside of range [0,9999]',
  );

/** Go's nanosecond fraction: ".5" for 500000000, nothing for 0. */
function fraction(nanos: number): string {
  if (nanos === 0) return '';
  return `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`;
}

/** Tag 1 content: whole seconds and nanoseconds, already normalized so that 0 <= nanos < 1e9. */
export function epochToRFC3339(seconds: number, nanos: number): string {
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) throw outOfRange();
  const iso = new Date(seconds * 1000).toISOString();
  return `${iso.slice(0, 19)}${fraction(nanos)}Z`;
}

/** Tag 1 with a float: Go splits it with math.Modf and truncates the fraction to nanoseconds. */
export function epochFloatToRFC3339(f: number): string {
  let seconds = Math.trunc(f);
  let nanos = Math.trunc((f - seconds) * 1e9);
  if (nanos < 0) {
    seconds -= 1;
    nanos += 1e9;
  }
  return epochToRFC3339(seconds, nanos);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}:\d{2})$/;

const daysIn = (month: number, year: number) =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/**
 * Tag 0 content, parsed as Go's time.Parse(time.RFC3339, …) and written back as MarshalText does:
 * the same wall clock and offset, the fraction without trailing zeros, a zero offset as "Z".
 * Upstream's message for a bad text quotes Go's parser; ours says the same thing less precisely.
 */
export function rfc3339TagToString(text: string): string {
  const m = RFC3339.exec(text);
  const bad = () =>
    tagError(`cannot set ${text} for time.Time: parsing time ${JSON.stringify(text)}: not RFC 3339`);
  if (m === null) throw bad();
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const month = Number(mo);
  const ok =
    month >= 1 &&
    month <= 12 &&
    Number(d) >= 1 &&
    Number(d) <= daysIn(month, Number(y)) &&
    Number(h) <= 23 &&
    Number(mi) <= 59 &&
    Number(s) <= 59 &&
    (zone === 'Z' || (Number(zone.slice(1, 3)) <= 23 && Number(zone.slice(4, 6)) <= 59));
  if (!ok) throw bad();
  const nanos = frac === undefined ? 0 : Number(frac.slice(0, 9).padEnd(9, '0'));
  const zeroOffset = zone === 'Z' || zone.slice(1) === '00:00';
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction(nanos)}${zeroOffset ? 'Z' : zone}`;
}

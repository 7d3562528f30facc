// Timestamps and durations as CEL has them, over the engine's value classes. A timestamp stays a JS
// Date (the engine's google.protobuf.Timestamp, so every engine function still accepts it), and the
// nanoseconds below its millisecond ride beside it in a WeakMap; a Date without an entry (from a
// caller, or from an engine function) has none. Durations are the engine's Duration, read as a total
// of nanoseconds and always built with seconds and nanos of one sign (protobuf's convention).
// Ranges are cel-go's: timestamps from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z,
// durations within a signed 64-bit count of nanoseconds (about 292 years), past which an
// operation is an error, not a wrapped or clamped value.

import { Duration, EvaluationError } from '../engine.ts';

const NS_PER_S = 1_000_000_000n;
const NS_PER_MS = 1_000_000n;
const MIN_TIMESTAMP_NS = -62_135_596_800n * NS_PER_S;
const MAX_TIMESTAMP_NS = 253_402_300_799n * NS_PER_S + 999_999_999n;
const MAX_DURATION_NS = 2n ** 63n - 1n;
const MIN_DURATION_NS = -(2n ** 63n);

function rangeError(message: string): EvaluationError {
  return new EvaluationError({ code: 'range_error', message });
}

// --- timestamps -------------------------------------------------------------------------------------

const subMillis = new WeakMap<Date, number>();

/** Nanoseconds since the Unix epoch. */
export function timestampNanos(d: Date): bigint {
  return BigInt(d.getTime()) * NS_PER_MS + BigInt(subMillis.get(d) ?? 0);
}

/** A timestamp from nanoseconds since the epoch; out of CEL's range, an error. */
export function timestampFromNanos(ns: bigint): Date {
  if (ns < MIN_TIMESTAMP_NS || ns > MAX_TIMESTAMP_NS) throw rangeError('timestamp out of range');
  let ms = ns / NS_PER_MS;
  let rest = ns % NS_PER_MS;
  if (rest < 0n) {
    ms -= 1n;
    rest += NS_PER_MS;
  }
  const d = new Date(Number(ms));
  if (rest !== 0n) subMillis.set(d, Number(rest));
  return d;
}

/** Seconds since the epoch (rounded down) and the nanoseconds of that second, protobuf's fields. */
export function timestampParts(d: Date): { seconds: bigint; nanos: number } {
  const ns = timestampNanos(d);
  let seconds = ns / NS_PER_S;
  let nanos = ns % NS_PER_S;
  if (nanos < 0n) {
    seconds -= 1n;
    nanos += NS_PER_S;
  }
  return { seconds, nanos: Number(nanos) };
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/;

/** `timestamp(string)`: RFC 3339 with up to nine fractional digits and a Z or ±hh:mm offset. */
export function parseTimestamp(s: string): Date {
  const m = RFC3339.exec(s);
  const bad = () => new EvaluationError({ code: 'invalid_timestamp', message: `invalid timestamp "${s}"` });
  if (m === null) throw bad();
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) throw bad();
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) throw bad();
  d.setUTCHours(hour, minute, second, 0);
  let ns = BigInt(d.getTime()) * NS_PER_MS + BigInt((m[7] ?? '').padEnd(9, '0') || '0');
  if (m[9] !== undefined) {
    const offH = Number(m[10]);
    const offM = Number(m[11]);
    if (offH > 23 || offM > 59) throw bad();
    const offset = BigInt(offH * 3600 + offM * 60) * NS_PER_S;
    ns += m[9] === '-' ? offset : -offset;
  }
  return timestampFromNanos(ns);
}

/** `string(timestamp)`: RFC 3339 in UTC with the fraction's trailing zeros dropped (Go's RFC3339Nano). */
export function formatTimestamp(d: Date): string {
  const { seconds, nanos } = timestampParts(d);
  const whole = new Date(Number(seconds) * 1000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const date = `${p(whole.getUTCFullYear(), 4)}-${p(whole.getUTCMonth() + 1)}-${p(whole.getUTCDate())}`;
  const time = `${p(whole.getUTCHours())}:${p(whole.getUTCMinutes())}:${p(whole.getUTCSeconds())}`;
  const frac = nanos === 0 ? '' : `.${p(nanos, 9).replace(/0+$/, '')}`;
  return `${date}T${time}${frac}Z`;
}

/** Calendar fields of a timestamp in a time zone: an IANA name, or a `[+-]hh:mm` offset. */
interface Fields {
  year: number;
  month: number; // 0-11
  day: number; // 1-31
  hours: number;
  minutes: number;
  seconds: number;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(tz: string): Intl.DateTimeFormat {
  let f = zoneFormats.get(tz);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new EvaluationError({ code: 'invalid_time_zone', message: `unknown time zone ${tz}` });
    }
    if (zoneFormats.size > 256) zoneFormats.clear();
    zoneFormats.set(tz, f);
  }
  return f;
}

function utcFields(ms: number): Fields {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    hours: d.getUTCHours(),
    minutes: d.getUTCMinutes(),
    seconds: d.getUTCSeconds(),
  };
}

function fieldsIn(d: Date, tz: string | undefined): Fields {
  const ms = d.getTime();
  if (tz === undefined) return utcFields(ms);
  const colon = tz.indexOf(':');
  if (colon >= 0) {
    // cel-go reads any zone with a colon as hours:minutes east of UTC, the sign applying to both.
    const m = /^([+-]?)(\d{1,2}):(\d{2})$/.exec(tz);
    if (m === null)
      throw new EvaluationError({ code: 'invalid_time_zone', message: `unknown time zone ${tz}` });
    const minutes = Number(m[2]) * 60 + Number(m[3]);
    return utcFields(ms + (m[1] === '-' ? -minutes : minutes) * 60_000);
  }
  const parts: Record<string, number> = {};
  for (const part of zoneFormat(tz).formatToParts(d)) parts[part.type] = Number(part.value);
  return {
    year: parts.year,
    month: parts.month - 1,
    day: parts.day,
    hours: parts.hour,
    minutes: parts.minute,
    seconds: parts.second,
  };
}

function dayOfYear(f: Fields): number {
  const at = (month: number, day: number) => {
    const d = new Date(0);
    d.setUTCFullYear(f.year, month, day);
    return d.getTime();
  };
  return Math.round((at(f.month, f.day) - at(0, 1)) / 86_400_000);
}

function dayOfWeek(f: Fields): number {
  const d = new Date(0);
  d.setUTCFullYear(f.year, f.month, f.day);
  return d.getUTCDay();
}

/** The timestamp accessors (`getHours()`, `getDayOfYear('Europe/Paris')`...), by name. */
export const TIMESTAMP_GETTERS: Readonly<Record<string, (d: Date, tz?: string) => bigint>> = {
  getFullYear: (d, tz) => BigInt(fieldsIn(d, tz).year),
  getMonth: (d, tz) => BigInt(fieldsIn(d, tz).month),
  getDate: (d, tz) => BigInt(fieldsIn(d, tz).day),
  getDayOfMonth: (d, tz) => BigInt(fieldsIn(d, tz).day - 1),
  getDayOfWeek: (d, tz) => BigInt(dayOfWeek(fieldsIn(d, tz))),
  getDayOfYear: (d, tz) => BigInt(dayOfYear(fieldsIn(d, tz))),
  getHours: (d, tz) => BigInt(fieldsIn(d, tz).hours),
  getMinutes: (d, tz) => BigInt(fieldsIn(d, tz).minutes),
  getSeconds: (d, tz) => BigInt(fieldsIn(d, tz).seconds),
  getMilliseconds: (d, tz) => {
    if (tz !== undefined) fieldsIn(d, tz); // an unknown zone is still an error
    return BigInt((timestampParts(d).nanos / 1_000_000) | 0);
  },
};

// --- durations --------------------------------------------------------------------------------------

/** A duration's total nanoseconds, whichever sign convention its fields follow. */
export function durationNanos(d: Duration): bigint {
  return d.seconds * NS_PER_S + BigInt(d.nanos);
}

/** A duration of `ns` nanoseconds; beyond a signed 64-bit count, an error. */
export function durationFromNanos(ns: bigint): Duration {
  if (ns < MIN_DURATION_NS || ns > MAX_DURATION_NS) throw rangeError('duration out of range');
  return new Duration(ns / NS_PER_S, Number(ns % NS_PER_S));
}

const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: NS_PER_MS,
  s: NS_PER_S,
  m: 60n * NS_PER_S,
  h: 3600n * NS_PER_S,
};

/** `duration(string)`: Go's duration syntax (`1h30m`, `-1.5s`, `300ms`, `0`), exact to the nanosecond. */
export function parseDuration(s: string): Duration {
  const bad = () => new EvaluationError({ code: 'invalid_duration', message: `invalid duration "${s}"` });
  let rest = s;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return new Duration(0n, 0);
  if (rest === '') throw bad();
  let total = 0n;
  const term = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;
  while (rest !== '') {
    const m = term.exec(rest);
    if (m === null || (m[1] === '' && (m[2] ?? '') === '')) throw bad();
    const unit = UNIT_NS[m[3]];
    const frac = m[2] ?? '';
    total += BigInt(m[1] || '0') * unit;
    if (frac !== '') total += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    if (total > MAX_DURATION_NS + 1n) throw rangeError('duration out of range');
    rest = rest.slice(m[0].length);
  }
  return durationFromNanos(negative ? -total : total);
}

/**
 * `string(duration)` as cel-go prints it: the seconds as the shortest decimal that reads back as
 * the same float64, and `s` (`1000000s`, `1.5s`, `0.000000001s`).
 */
export function formatDuration(d: Duration): string {
  const ns = durationNanos(d);
  const seconds = Number(ns / NS_PER_S) + Number(ns % NS_PER_S) / 1e9;
  return `${plainDecimal(seconds)}s`;
}

/** A number's shortest round-trip digits in positional notation (no exponent), as Go's 'f', -1. */
function plainDecimal(x: number): string {
  const s = String(x);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (m === null) return s;
  const digits = m[2] + (m[3] ?? '');
  const exp = Number(m[4]);
  if (exp < 0) return `${m[1]}0.${'0'.repeat(-exp - 1)}${digits}`;
  return `${m[1]}${digits.padEnd(exp + 1, '0')}`;
}

/**
 * The duration accessors: whole hours, minutes or seconds, truncated toward zero; milliseconds
 * are those of the last second (cel-go: `duration('123.321s').getMilliseconds()` is 321).
 */
export const DURATION_GETTERS: Readonly<Record<string, (d: Duration) => bigint>> = {
  getHours: (d) => durationNanos(d) / (3600n * NS_PER_S),
  getMinutes: (d) => durationNanos(d) / (60n * NS_PER_S),
  getSeconds: (d) => durationNanos(d) / NS_PER_S,
  getMilliseconds: (d) => (durationNanos(d) % NS_PER_S) / NS_PER_MS,
};

// --- arithmetic -------------------------------------------------------------------------------------

export function addTimestampDuration(t: Date, d: Duration): Date {
  return timestampFromNanos(timestampNanos(t) + durationNanos(d));
}

export function subtractTimestampDuration(t: Date, d: Duration): Date {
  return timestampFromNanos(timestampNanos(t) - durationNanos(d));
}

export function subtractTimestamps(a: Date, b: Date): Duration {
  return durationFromNanos(timestampNanos(a) - timestampNanos(b));
}

export function addDurations(a: Duration, b: Duration): Duration {
  return durationFromNanos(durationNanos(a) + durationNanos(b));
}

export function subtractDurations(a: Duration, b: Duration): Duration {
  return durationFromNanos(durationNanos(a) - durationNanos(b));
}

// metav1.Time and MicroTime on the wire: a Timestamp {seconds, nanos}. Time keeps whole seconds
// (upstream writes nanos 0 and ignores them on read, as its JSON does); MicroTime keeps microseconds.
// The zero time (0001-01-01T00:00:00Z) is an empty message both ways.

import { parseGoTime } from '../../schema/go-time.ts';
import { ProtobufError } from './errors.ts';

/** Seconds from the Unix epoch to Go's zero time. */
export const ZERO_TIME_SECONDS = -62135596800;

export interface Timestamp {
  seconds: number;
  nanos: number;
}

/** Parses a JSON timestamp into seconds and nanos (microsecond precision at most). */
export function parseTimestamp(value: unknown, micro: boolean): Timestamp {
  if (typeof value !== 'string') throw new ProtobufError(`expected a timestamp string, got ${typeof value}`);
  // Stored objects are canonical already; anything else goes through the same parser as JSON input.
  let text = value;
  if (!CANONICAL.test(text)) {
    const parsed = parseGoTime(value, micro);
    if (!parsed.ok) {
      // A Time written with micro seconds (or a MicroTime without) is still a time.
      const other = parseGoTime(value, !micro);
      if (!other.ok) throw new ProtobufError(parsed.error);
      text = other.canonical;
    } else text = parsed.canonical;
  }
  const m = CANONICAL.exec(text) as RegExpExecArray;
  const at = new Date(0);
  at.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  at.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  const micros = micro && m[7] !== undefined ? Number(m[7].padEnd(6, '0').slice(0, 6)) : 0;
  return { seconds: Math.floor(at.getTime() / 1000), nanos: micros * 1000 };
}

const CANONICAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?Z$/;

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** The JSON form of a decoded timestamp; undefined for the zero time (Go writes null). */
export function formatTimestamp(raw: Timestamp, micro: boolean): string | undefined {
  // Go's time.Unix carries nanos outside [0, 1e9) into the seconds.
  const carry = micro ? Math.floor(raw.nanos / 1e9) : 0;
  const ts = { seconds: raw.seconds + carry, nanos: micro ? raw.nanos - carry * 1e9 : 0 };
  if (ts.seconds === ZERO_TIME_SECONDS && ts.nanos < 1000) return undefined;
  const at = new Date(ts.seconds * 1000);
  const year = at.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) {
    throw new ProtobufError(`timestamp ${ts.seconds}s is outside the years 0 to 9999`);
  }
  const date = `${pad(year, 4)}-${pad(at.getUTCMonth() + 1, 2)}-${pad(at.getUTCDate(), 2)}`;
  const time = `${pad(at.getUTCHours(), 2)}:${pad(at.getUTCMinutes(), 2)}:${pad(at.getUTCSeconds(), 2)}`;
  if (!micro) return `${date}T${time}Z`;
  return `${date}T${time}.${pad(Math.floor(ts.nanos / 1000), 6)}Z`;
}

export function isZeroTimestamp(ts: Timestamp): boolean {
  return ts.seconds === ZERO_TIME_SECONDS && ts.nanos === 0;
}

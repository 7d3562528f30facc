// One log line in each of upstream's formats. Text is klog's: a header (severity, MMDD, time to the
// microsecond, the process id padded to 7, `caller]`), the message Go-quoted, then ` key=value`
// pairs with strings Go-quoted, multi-line strings as klog's `key=<` block, other values as JSON.
// JSON is component-base's zap encoder: ts (milliseconds since the epoch, fractional), logger,
// caller, msg, then "v" for info lines, the pairs, and "err" last on error lines.
//
// A Go program names the source file and line of the call; ours has neither after bundling, so
// the caller slot holds the logging module's name with line 0, which is klog's own "not a real
// line number": the header keeps the `name:line]` shape that log parsers expect.

import { goQuote } from '../field-errors.ts';

export type Severity = 'I' | 'W' | 'E';

/** Key/value pairs in the order written; keys are plain words, as upstream's checker wants. */
export type Pairs = readonly (readonly [string, unknown])[];

/** Everything one line carries. */
export interface LogRecord {
  severity: Severity;
  /** The V level of an info line (0 for plain info); absent on error and warning lines. */
  level?: number;
  /** Milliseconds since the epoch, with a fraction for microseconds. */
  time: number;
  pid: number;
  /** The module that logged: `server/httplog`. */
  caller: string;
  /** WithName's dotted name; '' for none. */
  name: string;
  msg: string;
  /** Unstructured (klog's Infof): the message goes out as it is, not quoted. */
  plain?: boolean;
  /** Present on error lines that carry one; undefined for ErrorS(nil, ...). */
  err?: unknown;
  values: Pairs;
  pairs: Pairs;
}

/** Go's %q of a string, with a fast path for the plain printable ASCII most values are. */
export function quote(s: string): string {
  return /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/.test(s) ? `"${s}"` : goQuote(s);
}

/** What an error prints as: its message (Go's err.Error()). */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : String(err);
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** klog's header: `I1126 17:05:00.123456   12345 httplog:0] ` (local time, as klog uses). */
export function textHeader(severity: Severity, time: number, pid: number, caller: string): string {
  const d = new Date(Math.floor(time));
  const micros = Math.floor((((time % 1000) + 1000) % 1000) * 1000);
  const slash = caller.lastIndexOf('/');
  const file = slash === -1 ? caller : caller.slice(slash + 1);
  return (
    `${severity}${pad2(d.getMonth() + 1)}${pad2(d.getDate())} ` +
    `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${String(micros).padStart(6, '0')} ` +
    `${String(pid).padStart(7, ' ')} ${file}:0] `
  );
}

/** JSON as Go's encoding/json Encoder writes it for klog's fallback: <, > and & escaped. */
function goJson(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
  if (text === undefined) return 'null';
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** klog's `=<` block: each line tab-indented, closed by ` >` on its own line. */
function multiLine(s: string): string {
  const body = s.endsWith('\n') ? s.slice(0, -1) : s;
  return `=<\n${body
    .split('\n')
    .map((l) => `\t${l}`)
    .join('\n')}\n >`;
}

function textValue(v: unknown): string {
  if (typeof v === 'string') return v.includes('\n') ? multiLine(v) : `=${quote(v)}`;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return `=${String(v)}`;
  if (v === undefined || v === null) return '=null';
  // Errors and times are Stringers in Go: their text, quoted.
  if (v instanceof Error) return textValue(v.message);
  if (v instanceof Date) return textValue(v.toISOString());
  if (v instanceof Uint8Array) return `=${goQuote(Buffer.from(v).toString('latin1'))}`;
  return `=${goJson(v)}`;
}

function textPairs(pairs: Pairs): string {
  let out = '';
  for (const [k, v] of pairs) out += ` ${k}${textValue(v)}`;
  return out;
}

export function encodeText(r: LogRecord): string {
  let line = textHeader(r.severity, r.time, r.pid, r.caller);
  if (r.plain) {
    line += r.msg;
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  line += quote(r.msg);
  if (r.err !== undefined) line += ` err${textValue(errorText(r.err))}`;
  if (r.name !== '') line += ` logger${textValue(r.name)}`;
  return `${line}${textPairs(r.values)}${textPairs(r.pairs)}\n`;
}

function jsonValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : JSON.stringify(String(v));
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === undefined || v === null) return 'null';
  if (v instanceof Error) return JSON.stringify(v.message);
  if (v instanceof Date) return JSON.stringify(v.toISOString());
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x)) ?? 'null';
}

function jsonPairs(pairs: Pairs): string {
  let out = '';
  for (const [k, v] of pairs) out += `,${JSON.stringify(k)}:${jsonValue(v)}`;
  return out;
}

export function encodeJson(r: LogRecord): string {
  let line = `{"ts":${String(r.time)}`;
  if (r.name !== '') line += `,"logger":${JSON.stringify(r.name)}`;
  line += `,"caller":${JSON.stringify(`${r.caller}:0`)},"msg":${JSON.stringify(r.msg)}`;
  line += jsonPairs(r.values);
  if (r.level !== undefined) line += `,"v":${r.level}`;
  line += jsonPairs(r.pairs);
  if (r.err !== undefined) line += `,"err":${JSON.stringify(errorText(r.err))}`;
  return `${line}}\n`;
}

/** Go's time.Duration String() of a span in milliseconds (to the nanosecond): `1.234567ms`, `2m3.5s`. */
export function goDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  let ns = Math.round(ms * 1e6);
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  ns = Math.abs(ns);
  const frac = (v: number, scale: number) => {
    const whole = Math.floor(v / scale);
    const rest = v - whole * scale;
    if (rest === 0) return String(whole);
    const digits = String(scale).length - 1;
    return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
  };
  if (ns < 1e3) return `${sign}${ns}ns`;
  if (ns < 1e6) return `${sign}${frac(ns, 1e3)}µs`;
  if (ns < 1e9) return `${sign}${frac(ns, 1e6)}ms`;
  const h = Math.floor(ns / 3.6e12);
  ns -= h * 3.6e12;
  const m = Math.floor(ns / 6e10);
  ns -= m * 6e10;
  const s = `${frac(ns, 1e9)}s`;
  return sign + (h > 0 ? `${h}h${m}m${s}` : m > 0 ? `${m}m${s}` : s);
}

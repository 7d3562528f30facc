// Timestamps as upstream decodes them: metav1.Time parses RFC 3339 (any fraction accepted, dropped
// on output) and metav1.MicroTime requires exactly six fraction digits; both are written back in UTC.
// A value that does not parse is a decode error, and its text follows Go's time.Parse errors
// (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`), so this parser
// walks the layout element by element as Go's does.

export const RFC3339_LAYOUT = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';

export type TimeParse = { ok: true; canonical: string } | { ok: false; error: string };

/** Go's time package quoting: control and non-ASCII bytes as `\xNN`, quote and backslash escaped. */
function quote(s: string): string {
  let out = '"';
  for (const b of Buffer.from(s, 'utf8')) {
    if (b < 0x20 || b >= 0x80) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else out += String.fromCharCode(b);
  }
  return `${out}"`;
}
const isDigit = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Two digits (`fixed`) or one or two; null when the value does not start with a digit. */
function getnum(s: string, fixed: boolean): [number, string] | null {
  if (!isDigit(s, 0)) return null;
  if (!isDigit(s, 1)) return fixed ? null : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** Parses `value` as Go's time.Parse would with the RFC 3339 layout, with or without micro seconds. */
export function parseGoTime(value: string, micro: boolean): TimeParse {
  const layout = micro ? RFC3339_MICRO_LAYOUT : RFC3339_LAYOUT;
  const fail = (layoutElem: string, valueElem: string): TimeParse => ({
    ok: false,
    error: `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`,
  });
  const outOfRange = (what: string): TimeParse => ({
    ok: false,
    error: `parsing time ${quote(value)}: ${what} out of range`,
  });
  let v = value;
  const literal = (lit: string): boolean => {
    if (!v.startsWith(lit)) return false;
    v = v.slice(lit.length);
    return true;
  };

  // 2006
  if (v.length < 4 || !isDigit(v, 0) || !/^\d{4}/.test(v)) return fail('2006', v);
  const year = Number(v.slice(0, 4));
  v = v.slice(4);
  const fields: number[] = [];
  const steps: [string, string, boolean, string, number][] = [
    ['-', '01', true, 'month', 12],
    ['-', '02', true, '', 31],
    ['T', '15', false, 'hour', 23],
    [':', '04', true, 'minute', 59],
    [':', '05', true, 'second', 59],
  ];
  for (const [prefix, elem, fixed, rangeName, max] of steps) {
    if (!literal(prefix)) return fail(prefix, v);
    const hold = v;
    const got = getnum(v, fixed);
    if (got === null) return fail(elem, hold);
    [fields[fields.length], v] = got;
    const n = fields[fields.length - 1];
    if (rangeName === 'month' && (n < 1 || n > max)) return outOfRange('month');
    if (rangeName !== '' && rangeName !== 'month' && n > max) return outOfRange(rangeName);
  }
  const [month, day, hour, minute, second] = fields;

  let fraction = '';
  if (micro) {
    const hold = v;
    if (v.length < 7 || (v[0] !== '.' && v[0] !== ',') || !/^\d{6}$/.test(v.slice(1, 7))) {
      return fail('.000000', hold);
    }
    fraction = v.slice(1, 7);
    v = v.slice(7);
  } else if (v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigit(v, 1)) {
    let n = 2;
    while (isDigit(v, n)) n++;
    v = v.slice(n);
  }

  // Z07:00
  let offsetSeconds = 0;
  if (v.startsWith('Z')) {
    v = v.slice(1);
  } else {
    const hold = v;
    if (v.length < 6 || v[3] !== ':') return fail('Z07:00', hold);
    const sign = v[0];
    const hh = getnum(v.slice(1, 3), true);
    const mm = getnum(v.slice(4, 6), true);
    if (hh === null || mm === null) return fail('Z07:00', hold);
    if (hh[0] > 24) return outOfRange('time zone offset hour');
    if (mm[0] > 60) return outOfRange('time zone offset minute');
    if (sign !== '+' && sign !== '-') return fail('Z07:00', hold);
    offsetSeconds = (hh[0] * 60 + mm[0]) * 60 * (sign === '-' ? -1 : 1);
    v = v.slice(6);
  }
  if (v.length > 0) return { ok: false, error: `parsing time ${quote(value)}: extra text: ${quote(v)}` };
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');

  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, 0);
  at.setTime(at.getTime() - offsetSeconds * 1000);
  const date = `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1, 2)}-${pad(at.getUTCDate(), 2)}`;
  const time = `${pad(at.getUTCHours(), 2)}:${pad(at.getUTCMinutes(), 2)}:${pad(at.getUTCSeconds(), 2)}`;
  return { ok: true, canonical: `${date}T${time}${micro ? `.${fraction}` : ''}Z` };
}

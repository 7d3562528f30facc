// Audit timestamps as upstream's MicroTime writes them: RFC 3339 in UTC with exactly six
// fractional digits (`2026-11-26T17:20:01.123456Z`). The clock is the high-resolution one, so the
// microseconds are real rather than padded milliseconds.

/** Now, in milliseconds since the epoch with a fractional part (microseconds and below). */
export function nowMicros(): number {
  return performance.timeOrigin + performance.now();
}

/** `ms` (epoch milliseconds, fractional) as `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
export function formatMicroTime(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.min(999, Math.floor((ms - whole) * 1000));
  // toISOString ends `.sssZ`: the milliseconds are kept and three more digits follow them.
  const iso = new Date(whole).toISOString();
  return `${iso.slice(0, -1)}${String(micros).padStart(3, '0')}Z`;
}

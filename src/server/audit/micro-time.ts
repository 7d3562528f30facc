// Audit timestamps as upstream's MicroTime writes them: RFC 3339 in UTC with exactly six
// fractional digits (`2026-11-26T17:20:01.123456Z`). The clock is the high-resolution one, so the
// microseconds are real rather than padded milliseconds.

/** Now, in milliseconds since the epoch with a fractional part (microseconds and below). */
export function nowMicros(): number {
  return performance.timeOrigin + performance.now();
}

// Every event formats one or two timestamps: the text up to the seconds is kept for the current
// second, so most calls only print the fraction.
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/** `ms` (epoch milliseconds, fractional) as `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
export function formatMicroTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    // toISOString gives `YYYY-MM-DDTHH:MM:SS.sssZ`; the seconds' part and its dot are kept.
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  // Rounded, not cut: a double near 1.7e12 ms holds only about a quarter of a microsecond, so a
  // whole microsecond may arrive as 0.9999...
  const micros = Math.min(999_999, Math.round((ms - second * 1000) * 1000));
  return `${cachedPrefix}${String(micros).padStart(6, '0')}Z`;
}

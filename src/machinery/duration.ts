// Durations as flags spell them (Go's time.ParseDuration: `90s`, `1m30s`, `1.5h`, `300ms`, `0`).

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Milliseconds of a duration; throws an Error naming the bad input. */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (s === '0' || s === '+0' || s === '-0') return 0;
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(s);
  if (m === null) throw new Error(`time: invalid duration ${JSON.stringify(text)}`);
  let total = 0;
  for (const part of s.replace(/^[+-]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(part[1]) * UNIT_MS[part[2]];
  }
  return m[1] === '-' ? -total : total;
}

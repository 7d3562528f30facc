// Number formatting for the Markdown tables. Fixed to en-US so result tables diff cleanly between
// machines whatever their locale.

import type { Summary } from './stats.ts';

const formatters = new Map<number, Intl.NumberFormat>();

export function formatNumber(value: number, fractionDigits = 0): string {
  let f = formatters.get(fractionDigits);
  if (f === undefined) {
    f = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    formatters.set(fractionDigits, f);
  }
  return f.format(value);
}

/** Picks enough decimals that small values (a 0.4 s list, 3.2 MB/s) keep two significant digits. */
export function autoDigits(value: number): number {
  const abs = Math.abs(value);
  if (abs >= 100 || abs === 0) return 0;
  if (abs >= 10) return 1;
  if (abs >= 1) return 2;
  return 3;
}

/** `median (min–max)` with one shared precision, chosen from the median. */
export function formatSummary(s: Summary, unit = '', fractionDigits = autoDigits(s.median)): string {
  const fmt = (v: number) => formatNumber(v, fractionDigits);
  return `${fmt(s.median)}${unit} (${fmt(s.min)}–${fmt(s.max)})`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${formatNumber(v, i === 0 ? 0 : 1)} ${units[i]}`;
}

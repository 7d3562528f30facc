// A grouped horizontal bar chart as a standalone SVG document, with no dependency: the bench report
// draws each latency table (p50/p90/p99 per server and case) beside it. Horizontal, so that long
// row labels ("plat-apiserver (etcd3) · merge patch, 64 clients") read in full on the left.
// Each bar carries its exact value in a <title> (a tooltip in browsers) and as text at its end.

import { autoDigits, formatNumber } from './format.ts';

export interface BarGroup {
  label: string;
  /** One value per series, in the series' order; undefined or NaN draws no bar. */
  values: (number | undefined)[];
}

export interface BarChartSpec {
  title: string;
  /** The bars of each group, in order (p50, p90, p99). */
  series: string[];
  groups: BarGroup[];
  /** The values' unit, after each value and in the axis title (ms). */
  unit: string;
  /** The axis title; `latency (<unit>)` by default. */
  axisLabel?: string;
}

const WIDTH = 860;
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"';
const BAR = 9;
const BAR_GAP = 2;
const GROUP_GAP = 10;
const TOP = 56;
const LABEL_FONT = 11;
/** A rough width of one character of the label font, for the label column. */
const CHAR = 6.2;
const MAX_LABEL_CHARS = 60;
/** Colour-blind-safe and distinct in greyscale by lightness. */
const COLOURS = ['#4e79a7', '#f28e2b', '#b8323e', '#59a14f', '#76b7b2', '#edc948'];
/** The percentiles keep one colour from chart to chart, whichever of them a table has. */
const SERIES_COLOURS: Record<string, string> = { p50: COLOURS[0], p90: COLOURS[1], p99: COLOURS[2] };
const colourOf = (series: string, i: number) => SERIES_COLOURS[series] ?? COLOURS[i % COLOURS.length];

/** Escapes text and attribute values for XML. */
export function xmlEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Axis ticks from 0 to at least `max`: steps of 1, 2 or 5 times a power of ten, about `count` of them. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let i = 0; ; i++) {
    // Rounded so that 0.1 * 3 prints as 0.3.
    const v = Number((i * step).toPrecision(12));
    ticks.push(v);
    if (v >= max) break;
  }
  return ticks;
}

const shown = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);

function formatValue(v: number): string {
  return formatNumber(v, autoDigits(v));
}

function truncate(label: string): string {
  return label.length <= MAX_LABEL_CHARS ? label : `${label.slice(0, MAX_LABEL_CHARS - 1)}…`;
}

export function renderBarChart(spec: BarChartSpec): string {
  const { series, groups, unit } = spec;
  for (const [i, g] of groups.entries()) {
    if (g.values.length > series.length)
      throw new RangeError(`group ${i} has ${g.values.length} values for ${series.length} series`);
  }
  const values = groups.flatMap((g) => g.values.filter(shown));
  if (values.some((v) => v < 0)) throw new RangeError('bars start at zero: negative values cannot be drawn');
  const ticks = niceTicks(Math.max(0, ...values));
  const top = ticks[ticks.length - 1];
  // Tick labels with the step's decimals: 0, 50, 100 rather than 0, 50.0, 100.
  const tickDigits = Math.max(0, -Math.floor(Math.log10(ticks[1] - ticks[0]) + 1e-9));
  const labelWidth =
    Math.ceil(Math.min(MAX_LABEL_CHARS, Math.max(8, ...groups.map((g) => g.label.length))) * CHAR) + 12;
  const plotLeft = labelWidth + 8;
  // Room at the right for the longest bar's value text.
  const plotWidth = WIDTH - plotLeft - 70;
  const groupHeight = series.length * (BAR + BAR_GAP) - BAR_GAP + GROUP_GAP;
  const plotHeight = Math.max(1, groups.length) * groupHeight;
  const axisY = TOP + plotHeight;
  const height = axisY + 46;
  const x = (v: number) => plotLeft + (v / top) * plotWidth;
  const round = (v: number) => Math.round(v * 10) / 10;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${xmlEscape(spec.title)}">`,
    `<title>${xmlEscape(spec.title)}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text class="title" x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="14" font-weight="600" ${FONT}>${xmlEscape(spec.title)}</text>`,
  );
  // Legend, centred under the title.
  const legendWidth = series.reduce((a, s) => a + 22 + s.length * CHAR + 14, 0);
  let lx = Math.max(4, (WIDTH - legendWidth) / 2);
  out.push('<g class="legend">');
  for (const [i, s] of series.entries()) {
    out.push(
      `<rect x="${round(lx)}" y="32" width="14" height="10" fill="${colourOf(s, i)}"/>`,
      `<text x="${round(lx + 18)}" y="41" font-size="11" ${FONT}>${xmlEscape(s)}</text>`,
    );
    lx += 22 + s.length * CHAR + 14;
  }
  out.push('</g>');
  // Grid lines and tick labels.
  out.push('<g class="x-axis">');
  for (const t of ticks) {
    const tx = round(x(t));
    out.push(
      `<line x1="${tx}" y1="${TOP - 4}" x2="${tx}" y2="${axisY}" stroke="#e3e3e3"/>`,
      `<text class="tick" x="${tx}" y="${axisY + 14}" text-anchor="middle" font-size="10" ${FONT}>${xmlEscape(formatNumber(t, tickDigits))}</text>`,
    );
  }
  out.push(
    `<line x1="${plotLeft}" y1="${axisY}" x2="${round(x(top))}" y2="${axisY}" stroke="#555555"/>`,
    `<text class="axis-label" x="${round(plotLeft + plotWidth / 2)}" y="${axisY + 34}" text-anchor="middle" font-size="11" ${FONT}>${xmlEscape(spec.axisLabel ?? `latency (${unit})`)}</text>`,
    '</g>',
  );
  out.push(
    `<line class="y-axis" x1="${plotLeft}" y1="${TOP - 4}" x2="${plotLeft}" y2="${axisY}" stroke="#555555"/>`,
  );
  // The groups: a label, then one bar per value shown.
  for (const [gi, g] of groups.entries()) {
    const gy = TOP + gi * groupHeight;
    const mid = gy + (groupHeight - GROUP_GAP) / 2;
    out.push(
      `<g class="group">`,
      `<text class="group-label" x="${plotLeft - 8}" y="${round(mid + LABEL_FONT / 3)}" text-anchor="end" font-size="${LABEL_FONT}" ${FONT}><title>${xmlEscape(g.label)}</title>${xmlEscape(truncate(g.label))}</text>`,
    );
    for (const [si, v] of g.values.entries()) {
      if (!shown(v)) continue;
      const by = gy + si * (BAR + BAR_GAP);
      const w = Math.max(0.5, x(v) - plotLeft);
      const text = `${formatValue(v)} ${unit}`;
      out.push(
        `<rect class="bar" data-series="${xmlEscape(series[si])}" x="${plotLeft}" y="${by}" width="${round(w)}" height="${BAR}" fill="${colourOf(series[si], si)}"><title>${xmlEscape(`${g.label}, ${series[si]}: ${text}`)}</title></rect>`,
        `<text class="value" x="${round(plotLeft + w + 4)}" y="${by + BAR - 1}" font-size="9" fill="#333333" ${FONT}>${xmlEscape(text)}</text>`,
      );
    }
    out.push('</g>');
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

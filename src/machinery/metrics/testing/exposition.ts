// A small reader of Prometheus' text exposition format, for tests that assert metrics by name,
// labels and value: samples, HELP and TYPE lines, as prom-client writes them. Tests of every layer
// use it; nothing outside tests imports it.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  help: Map<string, string>;
  type: Map<string, string>;
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const help = new Map<string, string>();
  const type = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      (meta[1] === 'HELP' ? help : type).set(meta[2], meta[3]);
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null) throw new Error(`unparsable exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1]] = l[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { samples, help, type };
}

/** The samples of a metric whose labels are exactly `labels`. */
export function exactly(e: Exposition, name: string, labels: Record<string, string>): Sample[] {
  const want = Object.entries(labels);
  return e.samples.filter(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).length === want.length &&
      want.every(([k, v]) => s.labels[k] === v),
  );
}

/** The value of the one sample of a metric with exactly `labels`; undefined when there is none. */
export function sampleValue(e: Exposition, name: string, labels: Record<string, string>): number | undefined {
  const found = exactly(e, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** Every sample of a metric, as `{labels} value` lines sorted, for whole-metric comparisons. */
export function seriesOf(e: Exposition, name: string): string[] {
  return e.samples
    .filter((s) => s.name === name)
    .map((s) => {
      const labels = Object.entries(s.labels)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => `${k}=${v}`)
        .join(',');
      return `{${labels}} ${s.value}`;
    })
    .sort();
}

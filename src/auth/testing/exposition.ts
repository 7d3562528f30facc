// Reading a registry's exposition text in tests: samples by name and labels, help texts and types,
// so tests assert exact metric names, labels and values. Imported by tests only.

import assert from 'node:assert/strict';

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
    assert.ok(m, `unparsable exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1]] = l[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { samples, help, type };
}

/** The samples of `name` whose labels are exactly `labels`. */
export function exactly(e: Exposition, name: string, labels: Record<string, string>): Sample[] {
  const keys = Object.keys(labels);
  return e.samples.filter(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).length === keys.length &&
      keys.every((k) => s.labels[k] === labels[k]),
  );
}

/** The value of the one sample of `name` with exactly `labels`; 0 when there is none. */
export function value(e: Exposition, name: string, labels: Record<string, string>): number {
  const found = exactly(e, name, labels);
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0]?.value ?? 0;
}

/** Every sample of `name`, as `{labels} value` lines sorted, for whole-metric comparisons. */
export function series(e: Exposition, name: string): string[] {
  return e.samples
    .filter((s) => s.name === name)
    .map((s) => {
      const labels = Object.keys(s.labels)
        .sort()
        .map((k) => `${k}=${JSON.stringify(s.labels[k])}`)
        .join(',');
      return `{${labels}} ${s.value}`;
    })
    .sort();
}

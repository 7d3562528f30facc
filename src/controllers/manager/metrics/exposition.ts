// A small reader of the Prometheus text format for the manager's metrics tests: samples by name
// and labels, and each family's HELP and TYPE.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  help: Map<string, string>;
  type: Map<string, string>;
  /** The value of the one sample with exactly these labels; undefined when there is none. */
  value(name: string, labels: Record<string, string>): number | undefined;
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const help = new Map<string, string>();
  const type = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta !== null) {
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
  const same = (a: Record<string, string>, b: Record<string, string>) =>
    Object.keys(a).length === Object.keys(b).length && Object.entries(b).every(([k, v]) => a[k] === v);
  return {
    samples,
    help,
    type,
    value(name, labels) {
      const found = samples.filter((s) => s.name === name && same(s.labels, labels));
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}

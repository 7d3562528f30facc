// Profiling helper: sums a .cpuprofile's self time by function and by file and prints the top
// entries of each (what the rollout's profiles were read with).
// Usage: npx tsx bench/workloads/profile-summary.ts file.cpuprofile [top]

import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const profile = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as Profile;
const top = Number(process.argv[3] ?? 30);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(id, (self.get(id) ?? 0) + dt);
  total += dt;
});
const short = (url: string) => url.replace(/^.*\/work\/main\//, '').replace(/^file:\/\//, '') || '(native)';
const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of self) {
  const f = byId.get(id)?.callFrame;
  if (!f) continue;
  const fn = `${f.functionName || '(anon)'} ${short(f.url)}:${f.lineNumber + 1}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + us);
  const file = short(f.url).replace(/node_modules\/([^/]+).*/, 'node_modules/$1');
  byFile.set(file, (byFile.get(file) ?? 0) + us);
}
const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (total ${(total / 1000).toFixed(0)} ms)`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(
      `${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`,
    );
};
print('self time by file', byFile);
print('self time by function', byFn);

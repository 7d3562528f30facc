// Splits a server's CPU profile by where the time went, for the etcd client path's share: reads
// `perf script -F comm,pid,tid,ip,sym` of a `perf record -g` taken with node --perf-prof (after
// `perf inject --jit`), and charges each sample to the innermost frame that names a package or one
// of our source files (mapped through esbuild's `// src/…` module comments in the bundle), so that
// garbage collection and builtins count for the code that caused them. Native samples off the main
// thread (V8's collector and compiler helpers) stay apart, and a split by thread shows what runs
// beside the main thread (worker threads run JavaScript; helpers do not).
//
//   npx tsx bench/kube/perf-split.ts perf.txt [top]

import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: perf-split.ts PERF_SCRIPT_OUTPUT [top]');
  process.exit(2);
}
const top = Number(topArg ?? 40);

/** Per bundle file: line -> source module, from esbuild's `// src/…` comments. */
const maps = new Map<string, { line: number; path: string }[]>();

function modulesOf(path: string): { line: number; path: string }[] {
  let modules = maps.get(path);
  if (modules !== undefined) return modules;
  modules = [];
  try {
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const m = /^\/\/ (src\/\S+\.ts|node_modules\/\S+)$/.exec(text);
        if (m) modules?.push({ line: i + 1, path: m[1] });
      });
  } catch {
    // not readable: every line is the bundle's
  }
  maps.set(path, modules);
  return modules;
}

function moduleAt(path: string, line: number): string {
  const modules = modulesOf(path);
  let lo = 0;
  let hi = modules.length - 1;
  let found = 'bundle';
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (modules[mid].line <= line) {
      found = modules[mid].path;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The owner of a frame: a package, one of our modules, a node internal, or undefined (native). */
function owner(sym: string): { who: string; fn: string } | undefined {
  if (!sym.startsWith('JS:')) return undefined;
  const fn = sym.replace(/^JS:[*~^+-]?/, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(fn);
  if (pkg) return { who: pkg[1], fn };
  const ours = /file:\/\/(\S+\.js):(\d+):/.exec(fn);
  if (ours) return { who: moduleAt(ours[1], Number(ours[2])), fn };
  // protobufjs's generated codecs are compiled from strings: no file, a `Type$method` name.
  if (/^\S+\$(?:decode|encode|toObject|fromObject|verify)\b/.test(fn)) return { who: 'protobufjs', fn };
  const internal = /(node:[\w/]+)/.exec(fn);
  if (internal) return { who: internal[1], fn };
  return { who: 'js (other)', fn };
}

const byOwner = new Map<string, number>();
const byFn = new Map<string, number>();
let total = 0;
let stack: string[] = [];
let tid = '';
let isMain = false;
/** Per thread: samples, whether it is the main thread, and whether it ran JavaScript. */
const threads = new Map<string, { samples: number; main: boolean; js: boolean }>();

function flush(): void {
  if (stack.length === 0) return;
  total++;
  const thread = threads.get(tid) ?? { samples: 0, main: isMain, js: false };
  thread.samples++;
  if (stack.some((f) => f.startsWith('JS:'))) thread.js = true;
  threads.set(tid, thread);
  let who = isMain ? 'main thread, no JS frame' : 'other threads, no JS frame';
  let fn = stack[0];
  for (const sym of stack) {
    const o = owner(sym);
    if (o !== undefined) {
      who = o.who;
      fn = o.fn;
      break;
    }
  }
  byOwner.set(who, (byOwner.get(who) ?? 0) + 1);
  byFn.set(`${who}  ${fn}`, (byFn.get(`${who}  ${fn}`) ?? 0) + 1);
  stack = [];
}

for (const line of readFileSync(file, 'utf8').split('\n')) {
  const head = /^(\S+)\s+(\d+)\/(\d+)\s*$/.exec(line);
  if (head) {
    flush();
    tid = head[3];
    // The main thread's id is the process id.
    isMain = head[2] === head[3];
    continue;
  }
  const frame = /^\s+[0-9a-f]+\s+(.*)$/.exec(line);
  if (frame) stack.push(frame[1]);
}
flush();

const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`.padStart(6);
console.log(`${total} samples\n\nby thread:`);
const byKind = new Map<string, number>();
for (const t of threads.values()) {
  const kind = t.main ? 'main thread' : t.js ? 'worker threads (JavaScript)' : 'helper threads (native only)';
  byKind.set(kind, (byKind.get(kind) ?? 0) + t.samples);
}
for (const [k, v] of [...byKind].sort((a, b) => b[1] - a[1])) console.log(`${pct(v)}  ${k}`);
console.log('\nby owner:');
for (const [k, v] of [...byOwner].sort((a, b) => b[1] - a[1])) console.log(`${pct(v)}  ${k}`);
console.log(`\ntop ${top} functions (self, with the native code they called):`);
for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);

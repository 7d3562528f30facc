#!/usr/bin/env node
// Runs every test: `*.test.ts` beside the code in src/ and bench/, and the end-to-end tests in
// test/e2e/, with node's built-in runner through tsx. Arguments narrow the run to paths containing
// any of them (`npm test -- storage/sqlite`); `--exclude=PART` leaves out paths containing PART.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const roots = ['src', 'bench', 'test'];
const args = process.argv.slice(2);
const excludes = args.filter((a) => a.startsWith('--exclude=')).map((a) => a.slice('--exclude='.length));
const filters = args.filter((a) => !a.startsWith('--exclude='));

function collect(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'results') collect(path, out);
    } else if (e.name.endsWith('.test.ts')) {
      out.push(relative('.', path));
    }
  }
  return out;
}

const files = roots
  .flatMap((r) => collect(r, []))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .filter((f) => !excludes.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}

const runnerArgs = ['--import', 'tsx', '--test', '--test-concurrency=2', ...files];
const result = spawnSync(process.execPath, runnerArgs, { stdio: 'inherit' });
process.exit(result.status ?? 1);

#!/usr/bin/env node
// Writes dist/build-info.json at `npm run build`: the commit, tree state (clean/dirty) and date of
// the build, which the built server reports in /version (src/server/version.ts reads it). Outside
// a git work tree the fields stay upstream's empty defaults. SOURCE_DATE_EPOCH, when set, fixes the
// date for reproducible builds.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = new URL('../dist/', import.meta.url);

function git(args) {
  try {
    return execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

const commit = git(['rev-parse', 'HEAD']);
const status = commit === undefined ? undefined : git(['status', '--porcelain']);
const epoch = Number(process.env.SOURCE_DATE_EPOCH);
const date = Number.isFinite(epoch) && process.env.SOURCE_DATE_EPOCH ? new Date(epoch * 1000) : new Date();
const info = {
  gitCommit: commit !== undefined && /^[0-9a-f]{40}$/.test(commit) ? commit : '',
  gitTreeState: status === undefined ? '' : status === '' ? 'clean' : 'dirty',
  buildDate: `${date.toISOString().slice(0, 19)}Z`,
};
mkdirSync(outdir, { recursive: true });
writeFileSync(new URL('build-info.json', outdir), `${JSON.stringify(info, null, 2)}\n`);

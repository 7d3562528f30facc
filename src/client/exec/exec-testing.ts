// Test support for the exec plugin tests: one small plugin script, written into a temporary
// directory, whose behaviour each test steers through files (what to print, how to exit) and which
// records what it was given (arguments, environment, whether it had a terminal) for the test to read.

import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execInfoEnvName, namingProfile, UPSTREAM_EXEC_INFO_ENV } from '../../naming/index.ts';

export interface PluginCall {
  args: string[];
  /** The profile's exec-info variable, parsed; undefined when unset. */
  info: unknown;
  /** Upstream's exec-info variable, raw; undefined when unset. */
  upstreamInfo: string | undefined;
  /** The variables the test asked the plugin to report (names in PLUGIN_REPORT). */
  reported: Record<string, string | undefined>;
}

// CommonJS, so it runs without a package.json beside it. PLUGIN_DIR holds out (what to print),
// exit (exit code), hang (present: never finish), stderr (what to write there) and calls.jsonl.
const SCRIPT = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const dir = process.env.PLUGIN_DIR;
const read = (f) => { try { return fs.readFileSync(path.join(dir, f), 'utf8'); } catch { return undefined; } };
const infoRaw = process.env[${JSON.stringify(execInfoEnvName(namingProfile('spec')))}];
const reported = {};
for (const n of (process.env.PLUGIN_REPORT || '').split(',').filter(Boolean)) reported[n] = process.env[n];
fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify({
  args: process.argv.slice(2),
  info: infoRaw === undefined ? undefined : JSON.parse(infoRaw),
  upstreamInfo: process.env[${JSON.stringify(UPSTREAM_EXEC_INFO_ENV)}],
  reported,
}) + '\\n');
const err = read('stderr');
if (err !== undefined) process.stderr.write(err);
if (read('hang') !== undefined) { setInterval(() => {}, 1000); return; }
process.stdout.write(read('out') || '');
process.exitCode = Number(read('exit') || '0');
`;

export class TestPlugin {
  readonly dir: string;
  /** The plugin's path (executable, with a shebang). */
  readonly command: string;

  constructor(name = 'plugin') {
    this.dir = mkdtempSync(path.join(tmpdir(), 'exec-plugin-'));
    mkdirSync(path.join(this.dir, 'bin'));
    this.command = path.join(this.dir, 'bin', name);
    writeFileSync(this.command, SCRIPT);
    chmodSync(this.command, 0o755);
  }

  /** The variables that point the plugin at its steering files; add to the config's env. */
  env(report: string[] = []): { name: string; value: string }[] {
    return [
      { name: 'PLUGIN_DIR', value: this.dir },
      { name: 'PLUGIN_REPORT', value: report.join(',') },
    ];
  }

  /** What the next runs print: an object is written as JSON, a string as is. */
  prints(out: unknown): this {
    writeFileSync(path.join(this.dir, 'out'), typeof out === 'string' ? out : JSON.stringify(out));
    return this;
  }

  exits(code: number): this {
    writeFileSync(path.join(this.dir, 'exit'), String(code));
    return this;
  }

  hangs(): this {
    writeFileSync(path.join(this.dir, 'hang'), '');
    return this;
  }

  writesStderr(text: string): this {
    writeFileSync(path.join(this.dir, 'stderr'), text);
    return this;
  }

  calls(): PluginCall[] {
    let text = '';
    try {
      text = readFileSync(path.join(this.dir, 'calls.jsonl'), 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as PluginCall);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

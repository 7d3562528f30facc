// The logging flags on the command line: -v in every pflag spelling, --logging-format and its
// validation message, --vmodule, --help showing defaults, the FLAG lines at V(1), and a program
// printing them when started with -v=1.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { captureLogs, Logger, LogSink } from '../machinery/logging/index.ts';
import { namingProfile } from '../naming/profile.ts';
import { apiserverFlagSpecs, apiserverUsage } from './apiserver-flags.ts';
import { controlPlaneUsage } from './control-plane-flags.ts';
import { controllerManagerUsage } from './controller-manager-flags.ts';
import { FlagError, flag, parseFlags, usage } from './flag-parser.ts';
import { LOGGING_FLAGS, loggingConfigFrom, printFlags, withLoggingFlags } from './logging-flags.ts';

function flagError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof FlagError) return err.message;
    throw err;
  }
  assert.fail('expected a FlagError');
}

const config = (argv: string[]) => loggingConfigFrom(parseFlags(argv, 'cmd', LOGGING_FLAGS));

describe('logging flags', () => {
  it('take -v in every pflag spelling; 0 and text by default', () => {
    assert.deepEqual(config([]), { format: 'text', verbosity: 0, vmodule: [] });
    for (const argv of [['-v=3'], ['-v', '3'], ['-v3'], ['--v=3'], ['--v', '3']]) {
      assert.equal(config(argv).verbosity, 3, argv.join(' '));
    }
    assert.equal(config(['--logging-format=json']).format, 'json');
    assert.deepEqual(config(['--vmodule=httplog=4,gc*=2,', '--vmodule', 'x=1']).vmodule, [
      { pattern: 'httplog', verbosity: 4 },
      { pattern: 'gc*', verbosity: 2 },
      { pattern: 'x', verbosity: 1 },
    ]);
  });

  it("refuse bad values with upstream's messages", () => {
    assert.equal(
      flagError(() => config(['--logging-format=xml'])),
      'format: Invalid value: "xml": Unsupported log format',
    );
    assert.equal(
      flagError(() => config(['-v=x'])),
      'invalid argument "x" for "-v, --v" flag: strconv.ParseUint: parsing "x": invalid syntax',
    );
    assert.equal(
      flagError(() => config(['--v=2147483648'])),
      'invalid argument "2147483648" for "-v, --v" flag: strconv.ParseUint: parsing "2147483648": value out of range',
    );
    assert.equal(
      flagError(() => config(['-v'])),
      "flag needs an argument: 'v' in -v",
    );
    assert.equal(
      flagError(() => config(['-x'])),
      "unknown shorthand flag: 'x' in -x",
    );
    assert.equal(
      flagError(() => config(['--vmodule=a'])),
      'invalid argument "a" for "--vmodule" flag: "a" does not have the pattern=N format',
    );
    assert.equal(
      flagError(() => config(['--logging-format=json', '--vmodule=a=1'])),
      'vmodule: Forbidden: Only supported for text log format',
    );
    assert.equal(
      flagError(() => config(['--logging-format=xml', '--log-flush-frequency=0'])),
      '[flushFrequency: Invalid value: "0s": Must be greater than zero, format: Invalid value: "xml": Unsupported log format]',
    );
  });

  it('are added once to a table', () => {
    const once = withLoggingFlags(withLoggingFlags(apiserverFlagSpecs()));
    assert.equal(once.filter((f) => f.name === 'v').length, 1);
  });
});

describe('--help', () => {
  it("shows defaults as pflag does: '(default X)', text quoted, zero values left out", () => {
    const text = usage('cmd', 'Does things.', [
      ...LOGGING_FLAGS,
      flag({ name: 'port', arg: '<n>', description: 'a port', parse: Number, default: 6443 }),
      flag({
        name: 'off',
        boolean: true,
        description: 'a switch',
        parse: (v) => v === 'true',
        default: false,
      }),
      flag({ name: 'said', arg: '<n>', description: 'a count (default 5)', parse: Number, default: 5 }),
    ]);
    assert.match(
      text,
      /--logging-format <format> +how log lines are written, one of "json", "text" \(default "text"\)\n/,
    );
    assert.match(text, /--log-flush-frequency <duration> .*\(default 5s\)\n/);
    assert.match(text, /-v, --v <level> +verbosity of the logs: the higher, the more detail\n/);
    assert.match(text, /--port <n> +a port \(default 6443\)\n/);
    assert.match(text, /--off +a switch\n/);
    assert.match(text, /--said <n> +a count \(default 5\)\n/);
  });

  it('on every program', () => {
    const apiserver = apiserverUsage('apiserver');
    assert.match(apiserver, /--secure-port <port> .*\(default 6443\)/);
    assert.match(apiserver, /--etcd-compaction-interval <duration> .*\(default 5m0s\)/);
    for (const text of [
      controllerManagerUsage('cm', namingProfile('spec')),
      controlPlaneUsage('cp', namingProfile('spec')),
    ]) {
      assert.match(text, /-v, --v <level>/);
      assert.match(text, /--logging-format <format> .*\(default "text"\)/);
    }
  });
});

describe('FLAG lines', () => {
  it('list every flag, sorted, with its value Go-quoted, at V(1) only', () => {
    const flags = [
      ...LOGGING_FLAGS,
      flag({ name: 'names', arg: '<l>', description: '', parse: (v) => v.split(','), default: ['a', 'b'] }),
      flag({ name: 'gates', arg: '<g>', description: '', parse: () => ({}), default: { B: false, A: true } }),
    ];
    const values = parseFlags(['-v=1', '--vmodule=x=2'], 'cmd', flags);
    const lines: string[] = [];
    const at = (verbosity: number) =>
      new Logger('cmd', new LogSink({ verbosity, write: (l) => lines.push(l.replace(/^.*\] /, '')) }));
    printFlags(at(0), flags, values);
    assert.deepEqual(lines, []);
    printFlags(at(1), flags, values);
    assert.deepEqual(lines, [
      'FLAG: --gates="A=true,B=false"\n',
      'FLAG: --help="false"\n',
      'FLAG: --log-flush-frequency="5s"\n',
      'FLAG: --logging-format="text"\n',
      'FLAG: --names="[a,b]"\n',
      'FLAG: --v="1"\n',
      'FLAG: --version="false"\n',
      'FLAG: --vmodule="x=2"\n',
    ]);
  });

  it('a program started with -v=1 prints them before it starts anything', () => {
    const program = fileURLToPath(new URL('./plat-controller-manager.ts', import.meta.url));
    // No client configuration: the manager stops at its configuration, after the flags.
    const out = spawnSync(process.execPath, ['--import', 'tsx', program, '-v=1', '--secure-port=0'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, KUBECONFIG: '' },
    });
    assert.equal(out.status, 1, out.stderr);
    assert.match(out.stderr, /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [^ ]+:0\] FLAG: --v="1"$/m);
    assert.match(out.stderr, /\] FLAG: --logging-format="text"$/m);
    assert.match(out.stderr, /\] FLAG: --secure-port="0"$/m);
    assert.match(out.stderr, /\] FLAG: --concurrent-deployment-syncs="5"$/m);
    assert.match(out.stderr, /\] FLAG: --controllers="\[\*\]"$/m);
    assert.match(out.stderr, /^E.*\] "invalid configuration" err="no client configuration/m);
    const bad = spawnSync(process.execPath, ['--import', 'tsx', program, '--logging-format=xml'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /^Error: format: Invalid value: "xml": Unsupported log format$/m);
    assert.doesNotMatch(bad.stderr, /FLAG:/);
  });
});

describe('capture', () => {
  it('sees the lines a program logs through the process-wide configuration', () => {
    const c = captureLogs({ verbosity: 1 });
    try {
      printFlags(new Logger('cmd'), LOGGING_FLAGS, parseFlags([], 'cmd', LOGGING_FLAGS));
    } finally {
      c.restore();
    }
    assert.equal(c.lines.length, 6);
  });
});

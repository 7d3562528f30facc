import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlagError, flag, HelpRequested, parseFlags, usage } from './flag-parser.ts';

const FLAGS = [
  flag({
    name: 'port',
    arg: '<n>',
    description: 'a number',
    parse: (v) => {
      if (!/^\d+$/.test(v)) throw new Error('not a number');
      return Number(v);
    },
    default: 1,
  }),
  flag({ name: 'verbose', boolean: true, description: 'talk', parse: (v) => v === 'true', default: false }),
  flag<string | undefined>({
    name: 'name',
    arg: '<s>',
    description: 'a name',
    parse: (v) => v,
    default: undefined,
  }),
];

describe('parseFlags', () => {
  it('takes --flag=value and --flag value, booleans alone or with =, defaults for the rest', () => {
    assert.deepEqual(parseFlags(['--port', '8', '--verbose'], 'cmd', FLAGS), {
      port: 8,
      verbose: true,
      name: undefined,
    });
    assert.deepEqual(parseFlags(['--port=9', '--verbose=false', '--name=x'], 'cmd', FLAGS), {
      port: 9,
      verbose: false,
      name: 'x',
    });
  });

  it('names what is wrong', () => {
    const cases: [string[], string][] = [
      [['--nope'], 'unknown flag: --nope'],
      [['--port'], 'flag needs an argument: --port'],
      [['--port=x'], 'invalid argument "x" for "--port" flag: not a number'],
      [['extra'], '"cmd" does not take any arguments, got ["extra"]'],
    ];
    for (const [argv, message] of cases) {
      assert.throws(
        () => parseFlags(argv, 'cmd', FLAGS),
        (err: unknown) => err instanceof FlagError && err.message === message,
      );
    }
  });

  it('--help asks for usage, which lists every flag', () => {
    assert.throws(() => parseFlags(['--port=1', '--help'], 'cmd', FLAGS), HelpRequested);
    const text = usage('cmd', 'Does things.', FLAGS);
    for (const line of ['Does things.', '--port <n>', '--verbose', '--name <s>', '--help'])
      assert.ok(text.includes(line), line);
  });
});

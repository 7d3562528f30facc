// The line formats exactly (fixed clock and pid), levels, errors, names and values, vmodule, and
// the process-wide configuration's capture and restore.

process.env.TZ = 'UTC';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goDuration } from './encode.ts';
import {
  captureLogs,
  currentSink,
  Logger,
  LogSink,
  loggerFor,
  resetLogging,
  vmoduleMatches,
} from './index.ts';

const NOW = Date.UTC(2026, 10, 26, 17, 5, 0) + 123.456;

function fixed(options: ConstructorParameters<typeof LogSink>[0] = {}) {
  const lines: string[] = [];
  const sink = new LogSink({ now: () => NOW, pid: 12345, write: (l) => lines.push(l), ...options });
  return { lines, log: new Logger('server/httplog', sink) };
}

describe('text format (klog)', () => {
  it('writes the header, the quoted message and Go-quoted pairs', () => {
    const { lines, log } = fixed();
    log.info('message', { key: 'value', n: 3, ok: true, nothing: undefined, obj: { a: [1, '<'] } });
    assert.deepEqual(lines, [
      'I1126 17:05:00.123456   12345 httplog:0] "message" key="value" n=3 ok=true nothing=null obj={"a":[1,"\\u003c"]}\n',
    ]);
  });

  it('quotes as Go does and writes multi-line values as a block', () => {
    const { lines, log } = fixed();
    log.info('say "hi"\there', { text: 'tab\tquote" é \x01', lines: 'one\ntwo' });
    assert.equal(
      lines[0],
      'I1126 17:05:00.123456   12345 httplog:0] "say \\"hi\\"\\there" text="tab\\tquote\\" é \\x01" lines=<\n\tone\n\ttwo\n >\n',
    );
  });

  it('error lines carry err first, then the logger name and values', () => {
    const { lines, log } = fixed();
    log.withName('UnhandledError').withValues({ a: 1 }).error(new Error('boom'), 'failed', { b: 'x' });
    log.error(undefined, 'no error', { b: 2 });
    assert.deepEqual(lines, [
      'E1126 17:05:00.123456   12345 httplog:0] "failed" err="boom" logger="UnhandledError" a=1 b="x"\n',
      'E1126 17:05:00.123456   12345 httplog:0] "no error" b=2\n',
    ]);
  });

  it("unstructured text (klog's Infof) goes out unquoted", () => {
    const { lines, log } = fixed({ verbosity: 1 });
    log.v(1).infoText('FLAG: --v="1"');
    log.warning('careful');
    assert.deepEqual(lines, [
      'I1126 17:05:00.123456   12345 httplog:0] FLAG: --v="1"\n',
      'W1126 17:05:00.123456   12345 httplog:0] "careful"\n',
    ]);
  });
});

describe('JSON format (component-base)', () => {
  it('writes ts, caller, msg, v, then the pairs; errors put err last and carry no v', () => {
    const { lines, log } = fixed({ format: 'json' });
    log.info('test', { ns: 'default', podnum: 2 });
    log.withName('hello').withName('world').error(new Error('some error'), 'failed', { count: 1 });
    log.error(null, 'no error');
    assert.deepEqual(lines, [
      '{"ts":1795712700123.456,"caller":"server/httplog:0","msg":"test","v":0,"ns":"default","podnum":2}\n',
      '{"ts":1795712700123.456,"logger":"hello.world","caller":"server/httplog:0","msg":"failed","count":1,"err":"some error"}\n',
      '{"ts":1795712700123.456,"caller":"server/httplog:0","msg":"no error"}\n',
    ]);
  });

  it('records the V level of info lines', () => {
    const { lines, log } = fixed({ format: 'json', verbosity: 2 });
    log.v(2).info('deep', { a: 'b' });
    assert.deepEqual(lines, [
      '{"ts":1795712700123.456,"caller":"server/httplog:0","msg":"deep","v":2,"a":"b"}\n',
    ]);
  });
});

describe('levels', () => {
  it('a v(2) line appears at -v=2, not at -v=1; errors and v(0) always', () => {
    for (const [verbosity, expected] of [
      [1, ['zero', 'one', 'bad']],
      [2, ['zero', 'one', 'two', 'bad']],
    ] as const) {
      const { lines, log } = fixed({ verbosity });
      log.info('zero');
      log.v(1).info('one');
      log.v(2).info('two');
      log.error(new Error('e'), 'bad');
      assert.deepEqual(
        lines.map((l) => /\] "([^"]+)"/.exec(l)?.[1]),
        expected,
      );
      assert.equal(log.enabled(2), verbosity >= 2);
      assert.equal(log.v(2).enabled, verbosity >= 2);
    }
  });

  it('--vmodule sets the level of the modules it matches', () => {
    const { lines } = fixed();
    const sink = new LogSink({
      now: () => NOW,
      pid: 1,
      write: (l) => lines.push(l),
      vmodule: [
        { pattern: 'http*', verbosity: 4 },
        { pattern: 'controllers/*', verbosity: 2 },
      ],
    });
    new Logger('server/httplog', sink).v(4).info('http');
    new Logger('controllers/gc', sink).v(2).info('gc');
    new Logger('controllers/gc', sink).v(3).info('too deep');
    new Logger('cmd', sink).v(1).info('default level');
    assert.deepEqual(
      lines.map((l) => /\] "([^"]+)"/.exec(l)?.[1]),
      ['http', 'gc'],
    );
    assert.ok(vmoduleMatches('gc', 'controllers/gc'));
    assert.ok(!vmoduleMatches('gc', 'controllers/gcx'));
  });
});

describe('the process-wide configuration', () => {
  it('module loggers follow it; capture collects lines and restore puts the previous one back', () => {
    const log = loggerFor('cmd');
    const before = currentSink();
    const outer = captureLogs({ verbosity: 1 });
    const inner = captureLogs({ now: () => NOW, pid: 7 });
    log.info('inner');
    log.v(1).info('dropped at -v=0');
    inner.restore();
    log.v(1).info('outer');
    outer.restore();
    assert.equal(currentSink(), before);
    assert.deepEqual(inner.lines, ['I1126 17:05:00.123456       7 cmd:0] "inner"\n']);
    assert.equal(outer.lines.length, 1);
    assert.match(outer.lines[0], /\] "outer"\n$/);
    resetLogging();
    assert.equal(currentSink().config.verbosity, 0);
    assert.equal(currentSink().config.format, 'text');
  });
});

describe('goDuration', () => {
  it("prints time.Duration's String()", () => {
    assert.equal(goDuration(0), '0s');
    assert.equal(goDuration(0.0005), '500ns');
    assert.equal(goDuration(0.0123), '12.3µs');
    assert.equal(goDuration(1.234567), '1.234567ms');
    assert.equal(goDuration(1500), '1.5s');
    assert.equal(goDuration(60_000), '1m0s');
    assert.equal(goDuration(3_723_500), '1h2m3.5s');
  });
});

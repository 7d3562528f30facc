// The strings extension: cel-go's documented examples (ext/strings.go) and results recorded from
// cel-go v0.26.0 (what kube-apiserver 1.35 links) with ext.StringsVersion(2).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from '../compile.ts';
import { createEnvironment } from '../environment.ts';
import { evaluate } from '../evaluate.ts';
import { evaluator, specCost } from '../testing/index.ts';
import { T } from '../types.ts';
import { KUBE_STRINGS_VERSION, stringsLibrary } from './strings.ts';

const kube = createEnvironment({
  variables: { s: T.string },
  libraries: [stringsLibrary(KUBE_STRINGS_VERSION)],
});
const latest = createEnvironment({ variables: {}, libraries: [stringsLibrary()] });

const { run, value, failure } = evaluator(kube, { s: 'dyn str' });
const latestValue = evaluator(latest, { s: 'dyn str' }).value;

describe('strings extension', () => {
  it('charAt counts code points', () => {
    assert.equal(value("'hello'.charAt(4)"), 'o');
    assert.equal(value("'hello'.charAt(5)"), '');
    assert.equal(failure("'hello'.charAt(-1)"), 'index out of range: -1');
    assert.equal(value("'©αT😀x'.charAt(3)"), '😀');
    assert.equal(value("'©αT😀x'.charAt(4)"), 'x');
  });

  it('indexOf', () => {
    assert.equal(value("'hello mellow'.indexOf('')"), 0n);
    assert.equal(value("'hello mellow'.indexOf('ello')"), 1n);
    assert.equal(value("'hello mellow'.indexOf('jello')"), -1n);
    assert.equal(value("'hello mellow'.indexOf('', 2)"), 2n);
    assert.equal(value("'hello mellow'.indexOf('ello', 2)"), 7n);
    assert.equal(value("'hello mellow'.indexOf('ello', 20)"), -1n);
    assert.equal(failure("'hello mellow'.indexOf('ello', -1)"), 'index out of range: -1');
    assert.equal(value("'😀a😀b'.indexOf('b')"), 3n);
    assert.equal(value("'😀a😀b'.indexOf('😀', 1)"), 2n);
  });

  it('lastIndexOf', () => {
    assert.equal(value("'hello mellow'.lastIndexOf('')"), 12n);
    assert.equal(value("'hello mellow'.lastIndexOf('ello')"), 7n);
    assert.equal(value("'hello mellow'.lastIndexOf('jello')"), -1n);
    assert.equal(value("'hello mellow'.lastIndexOf('ello', 6)"), 1n);
    assert.equal(value("'hello mellow'.lastIndexOf('ello', 20)"), -1n);
    assert.equal(failure("'hello mellow'.lastIndexOf('ello', -1)"), 'index out of range: -1');
    assert.equal(value("'😀a😀b'.lastIndexOf('😀')"), 2n);
    assert.equal(value("'bananananana'.lastIndexOf('nana', 7)"), 6n);
  });

  it('lowerAscii and upperAscii leave non-ASCII letters alone', () => {
    assert.equal(value("'TacoCat'.lowerAscii()"), 'tacocat');
    assert.equal(value("'TacoCÆt Xii'.lowerAscii()"), 'tacocÆt xii');
    assert.equal(value("'TacoCat'.upperAscii()"), 'TACOCAT');
    assert.equal(value("'TacoCÆt Xii'.upperAscii()"), 'TACOCÆT XII');
  });

  it('replace', () => {
    assert.equal(value("'hello hello'.replace('he', 'we')"), 'wello wello');
    assert.equal(value("'hello hello'.replace('he', 'we', -1)"), 'wello wello');
    assert.equal(value("'hello hello'.replace('he', 'we', 1)"), 'wello hello');
    assert.equal(value("'hello hello'.replace('he', 'we', 0)"), 'hello hello');
    assert.equal(value("'hello hello'.replace('', '_')"), '_h_e_l_l_o_ _h_e_l_l_o_');
    assert.equal(value("'hello hello'.replace('h', '')"), 'ello ello');
    assert.equal(value("'h😀'.replace('', '_', 2)"), '_h_😀');
    assert.equal(value("''.replace('', '_')"), '_');
  });

  it('split', () => {
    assert.deepEqual(value("'hello hello hello'.split(' ')"), ['hello', 'hello', 'hello']);
    assert.deepEqual(value("'hello hello hello'.split(' ', 0)"), []);
    assert.deepEqual(value("'hello hello hello'.split(' ', 1)"), ['hello hello hello']);
    assert.deepEqual(value("'hello hello hello'.split(' ', 2)"), ['hello', 'hello hello']);
    assert.deepEqual(value("'hello hello hello'.split(' ', -1)"), ['hello', 'hello', 'hello']);
    assert.deepEqual(value("'a😀b'.split('')"), ['a', '😀', 'b']);
    assert.deepEqual(value("'a😀b'.split('', 2)"), ['a', '😀b']);
    assert.deepEqual(value("''.split(',')"), ['']);
    assert.deepEqual(value("''.split('')"), []);
  });

  it('substring', () => {
    assert.equal(value("'tacocat'.substring(4)"), 'cat');
    assert.equal(value("'tacocat'.substring(0, 4)"), 'taco');
    assert.equal(failure("'tacocat'.substring(-1)"), 'index out of range: -1');
    assert.equal(failure("'tacocat'.substring(2, 1)"), 'invalid substring range. start: 2, end: 1');
    assert.equal(failure("'tacocat'.substring(49, 50)"), 'index out of range: 49');
    assert.equal(failure("'tacocat'.substring(1, 50)"), 'index out of range: 50');
    assert.equal(value("'ta©o©αT'.substring(2, 6)"), '©o©α');
  });

  it('trim uses Go’s Unicode white space', () => {
    assert.equal(value("'  \\ttrim\\n    '.trim()"), 'trim');
    assert.equal(value("'\\u0085\\u00a0\\u1680text\\u180e\\ufeff'.trim()"), 'text\u180e\ufeff');
  });

  it('join', () => {
    assert.equal(value("['hello', 'mellow'].join()"), 'hellomellow');
    assert.equal(value("['hello', 'mellow'].join(' ')"), 'hello mellow');
    assert.equal(value('[].join()'), '');
    assert.equal(value("[].join('/')"), '');
  });

  it('strings.quote', () => {
    assert.equal(
      value(`strings.quote('single-quote with "double quote"')`),
      '"single-quote with \\"double quote\\""',
    );
    assert.equal(value('strings.quote("two escape sequences \\a\\n")'), '"two escape sequences \\a\\n"');
    assert.equal(value("strings.quote('\\x01\\x7f\\u00a0')"), '"\x01\x7f\u00a0"');
  });

  it('reverse only from version 3', () => {
    const c = compile(kube, "'gums'.reverse()");
    assert.ok(!c.ok);
    assert.equal(latestValue("'gums'.reverse()"), 'smug');
    assert.equal(latestValue("'John Smith'.reverse()"), 'htimS nhoJ');
  });

  it('replaces the engine’s own UTF-16 overloads only where the library is enabled', () => {
    const plain = createEnvironment({ variables: {} });
    const c = compile(plain, "'😀a'.indexOf('a')");
    assert.ok(c.ok);
    assert.equal((evaluate(c.program, {}) as { value: unknown }).value, 2n);
    assert.equal(value("'😀a'.indexOf('a')"), 1n);
  });

  it('costs what kube-apiserver 1.35 charges (recorded), through cost-table.ts', () => {
    const cost = (expr: string) => {
      const r = run(expr);
      assert.ok(r.ok, expr);
      return r.cost;
    };
    const long = 'x'.repeat(1000);
    assert.equal(cost(`'${long}'.lowerAscii()`), 100);
    assert.equal(cost(`'${long}'.split('y')`), 200);
    assert.equal(cost(`'${long}'.replace('y', 'z')`), 200);
    assert.equal(cost(`'${long}'.indexOf('y')`), 100);
    assert.equal(cost(`'${long}'.format([])`), 100);
    // s is 'dyn str': 1 to read it, then the call.
    assert.equal(cost('s.lowerAscii()'), 2);
    assert.equal(cost('s.substring(1)'), 2);
    assert.equal(cost('s.charAt(1)'), 2);
    assert.equal(cost("s.split(' ', 1)"), 3);
    assert.equal(cost('strings.quote(s)'), 2);
    // A list literal of a variable is built at run time: 30 above upstream's 12 and 15 (specCost).
    assert.equal(cost("'%s'.format([s])"), specCost(12, 1));
    assert.equal(cost("['hello', 'mellow'].join(' ')"), 3);
    assert.equal(cost('[s, s].join()'), specCost(15, 1));
  });
});

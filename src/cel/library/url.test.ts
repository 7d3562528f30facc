// Upstream's documented examples for the URL library (k8s.io/apiserver/pkg/cel/library urls.go,
// v0.35.0), messages as kube-apiserver 1.35 answers them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEnvironment } from '../environment.ts';
import { evaluator } from '../testing/index.ts';
import { T } from '../types.ts';
import { urlLibrary } from './url.ts';

const env = createEnvironment({ variables: { s: T.string }, libraries: [urlLibrary] });

const { failure, assertCosts, ...urls } = evaluator(env, { s: '' });
const value = (expr: string, s = ''): unknown => urls.value(expr, { s });

describe('url library', () => {
  it('url() accepts absolute URIs and absolute paths', () => {
    assert.equal(
      String(value("url('https://user:pass@example.com:80/path?query=val#fragment')")),
      'https://user:pass@example.com:80/path?query=val#fragment',
    );
    assert.equal(String(value("url('/absolute-path')")), '/absolute-path');
    assert.equal(
      failure("url('https://a:b:c/')"),
      'URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host',
    );
    assert.equal(
      failure("url('../relative-path')"),
      'URL parse error during conversion from string: parse "../relative-path": invalid URI for request',
    );
  });

  it('isURL', () => {
    assert.equal(value("isURL('https://user:pass@example.com:80/path?query=val#fragment')"), true);
    assert.equal(value("isURL('/absolute-path')"), true);
    assert.equal(value("isURL('https://a:b:c/')"), false);
    assert.equal(value("isURL('../relative-path')"), false);
  });

  it('the getters', () => {
    const facts: [string, string][] = [
      ["url('/path').getScheme()", ''],
      ["url('https://example.com/').getScheme()", 'https'],
      ["url('https://example.com:80/').getHost()", 'example.com:80'],
      ["url('https://example.com/').getHost()", 'example.com'],
      ["url('https://[::1]:80/').getHost()", '[::1]:80'],
      ["url('https://[::1]/').getHost()", '[::1]'],
      ["url('/path').getHost()", ''],
      ["url('https://example.com:80/').getHostname()", 'example.com'],
      ["url('https://127.0.0.1:80/').getHostname()", '127.0.0.1'],
      ["url('https://[::1]:80/').getHostname()", '::1'],
      ["url('/path').getHostname()", ''],
      ["url('https://example.com:80/').getPort()", '80'],
      ["url('https://example.com/').getPort()", ''],
      ["url('/path').getPort()", ''],
      ["url('https://example.com/path').getEscapedPath()", '/path'],
      ["url('https://example.com/path with spaces/').getEscapedPath()", '/path%20with%20spaces/'],
      ["url('https://example.com').getEscapedPath()", ''],
    ];
    for (const [expr, want] of facts) assert.equal(value(expr), want, expr);
  });

  it('getQuery gives every value of each key, unescaped', () => {
    assert.equal(
      value("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}"),
      true,
    );
    assert.equal(value("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()['k2'][1]"), 'c');
    assert.equal(
      value(
        "url('https://example.com/path?key with spaces=value with spaces').getQuery() == {'key with spaces': ['value with spaces']}",
      ),
      true,
    );
    assert.equal(value("url('https://example.com/path?').getQuery() == {}"), true);
    assert.equal(value("url('https://example.com/path').getQuery().size()"), 0n);
    assert.equal(value("'k1' in url('/p?k1=x').getQuery()"), true);
  });

  it('costs what kube-apiserver 1.35 charges (its figures for these calls)', () => {
    const facts: [string, number][] = [
      ["url('https://example.com/path with spaces/').getEscapedPath()", 5],
      ["url('https://example.com/a b') == url('https://example.com/a%20b')", 7],
      ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", 5],
      ["isURL('https://user:pass@example.com:80/path?query=val#fragment')", 1],
    ];
    assertCosts(facts);
  });

  it('equality compares the URLs as Go prints them', () => {
    assert.equal(value("url('https://example.com/a b') == url('https://example.com/a%20b')"), true);
    assert.equal(value("url('https://example.com/') == url('https://example.com')"), false);
    assert.equal(value("url(s).getHost() == 'example.com'", 'https://example.com/x'), true);
  });
});

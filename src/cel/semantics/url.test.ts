// Expected values are upstream's: the examples documented in apiserver's CEL URL library (1.35),
// and messages recorded from k8s.io/apiserver v0.35.0 built with Go 1.25 (net/url).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isURL,
  parseURLValue,
  URLError,
  urlEquals,
  urlGetEscapedPath,
  urlGetHost,
  urlGetHostname,
  urlGetPort,
  urlGetQuery,
  urlGetScheme,
} from './url.ts';

const url = parseURLValue;

describe('url()', () => {
  it('accepts absolute URIs and absolute paths only', () => {
    assert.equal(isURL('https://user:pass@example.com:80/path?query=val#fragment'), true);
    assert.equal(isURL('/absolute-path'), true);
    assert.equal(isURL('https://a:b:c/'), false);
    assert.equal(isURL('../relative-path'), false);
    assert.equal(isURL('mailto:a@b.c'), true);
    assert.throws(
      () => url('../relative-path'),
      new URLError(
        'URL parse error during conversion from string: parse "../relative-path": invalid URI for request',
      ),
    );
    assert.throws(
      () => url('https://a:b:c/'),
      new URLError(
        'URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host',
      ),
    );
    assert.throws(
      () => url(''),
      new URLError('URL parse error during conversion from string: parse "": empty url'),
    );
    assert.throws(() => url('https://[1.2.3.4]/'), /invalid IP-literal/);
    assert.throws(() => url('https://example.com/%zz'), /invalid URL escape "%zz"/);
  });

  it('getters follow the documented examples', () => {
    assert.equal(urlGetScheme(url('/path')), '');
    assert.equal(urlGetScheme(url('https://example.com/')), 'https');
    assert.equal(urlGetScheme(url('HTTP://EXAMPLE.com/A')), 'http');
    assert.equal(urlGetHost(url('https://example.com:80/')), 'example.com:80');
    assert.equal(urlGetHost(url('https://example.com/')), 'example.com');
    assert.equal(urlGetHost(url('https://[::1]:80/')), '[::1]:80');
    assert.equal(urlGetHost(url('https://[::1]/')), '[::1]');
    assert.equal(urlGetHost(url('/path')), '');
    assert.equal(urlGetHostname(url('https://example.com:80/')), 'example.com');
    assert.equal(urlGetHostname(url('https://127.0.0.1:80/')), '127.0.0.1');
    assert.equal(urlGetHostname(url('https://[::1]:80/')), '::1');
    assert.equal(urlGetHostname(url('/path')), '');
    assert.equal(urlGetPort(url('https://example.com:80/')), '80');
    assert.equal(urlGetPort(url('https://example.com/')), '');
    assert.equal(urlGetPort(url('/path')), '');
    assert.equal(urlGetEscapedPath(url('https://example.com/path')), '/path');
    assert.equal(urlGetEscapedPath(url('https://example.com/path with spaces/')), '/path%20with%20spaces/');
    assert.equal(urlGetEscapedPath(url('https://example.com')), '');
    assert.equal(urlGetEscapedPath(url('https://example.com/a%2Fb')), '/a%2Fb');
  });

  it('getQuery gives every value of a key, unescaped', () => {
    const q = (s: string) => Object.fromEntries(urlGetQuery(url(s)));
    assert.deepEqual(q('https://example.com/path?k1=a&k2=b&k2=c'), { k1: ['a'], k2: ['b', 'c'] });
    assert.deepEqual(q('https://example.com/path?key with spaces=value with spaces'), {
      'key with spaces': ['value with spaces'],
    });
    assert.deepEqual(q('https://example.com/path?'), {});
    assert.deepEqual(q('https://example.com/path'), {});
    assert.deepEqual(q('http://h/?a+b=c+d;x&y=%41&z=%zz'), { y: ['A'] });
  });

  it('equality compares the re-encoded URLs', () => {
    assert.equal(urlEquals(url('/a b'), url('/a%20b')), true);
    assert.equal(urlEquals(url('/a%2Fb'), url('/a/b')), false);
    assert.equal(urlEquals(url('http://h/p#a b'), url('http://h/p#a%20b')), true);
  });
});

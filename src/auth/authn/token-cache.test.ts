import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CachedTokenAuthenticator } from './token-cache.ts';
import { TokenUnion } from './token-union.ts';
import type { TokenAuthenticator, TokenResult } from './types.ts';

/** Answers from a table and counts the questions. */
function counting(answers: Record<string, TokenResult>): TokenAuthenticator & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    authenticateToken(token, audiences) {
      asked.push(`${token}@${audiences.join(',')}`);
      return answers[token] ?? null;
    },
  };
}

const alice: TokenResult = { user: { username: 'alice', groups: [] } };

describe('token cache', () => {
  it('remembers a success until its TTL, and asks again after', async () => {
    let now = 1000;
    const inner = counting({ good: alice });
    const cache = new CachedTokenAuthenticator(inner, {
      successTtlMs: 10_000,
      failureTtlMs: 0,
      now: () => now,
    });
    assert.deepEqual(await cache.authenticateToken('good', ['api']), alice);
    assert.deepEqual(await cache.authenticateToken('good', ['api']), alice);
    assert.equal(inner.asked.length, 1);
    now += 10_001;
    await cache.authenticateToken('good', ['api']);
    assert.equal(inner.asked.length, 2);
  });

  it('does not remember failures when their TTL is 0, and keys by audiences too', async () => {
    const inner = counting({ bad: { error: 'expired' } });
    const cache = new CachedTokenAuthenticator(inner, { successTtlMs: 10_000, failureTtlMs: 0 });
    assert.deepEqual(await cache.authenticateToken('bad', []), { error: 'expired' });
    assert.deepEqual(await cache.authenticateToken('bad', []), { error: 'expired' });
    assert.deepEqual(await cache.authenticateToken('unknown', []), null);
    assert.equal(inner.asked.length, 3);
    const good = counting({ good: alice });
    const byAudience = new CachedTokenAuthenticator(good, { successTtlMs: 10_000, failureTtlMs: 0 });
    await byAudience.authenticateToken('good', ['a']);
    await byAudience.authenticateToken('good', ['b']);
    assert.deepEqual(good.asked, ['good@a', 'good@b']);
  });

  it('concurrent lookups of one token share one verification', async () => {
    let release: (r: TokenResult) => void = () => {};
    let calls = 0;
    const slow: TokenAuthenticator = {
      authenticateToken: () => {
        calls++;
        return new Promise<TokenResult>((resolve) => {
          release = resolve;
        });
      },
    };
    const cache = new CachedTokenAuthenticator(slow, { successTtlMs: 10_000, failureTtlMs: 0 });
    const both = Promise.all([cache.authenticateToken('t', []), cache.authenticateToken('t', [])]);
    await new Promise((r) => setImmediate(r));
    release(alice);
    assert.deepEqual(await both, [alice, alice]);
    assert.equal(calls, 1);
  });

  it('holds at most maxEntries tokens, dropping the oldest', async () => {
    const inner = counting({ a: alice, b: alice, c: alice });
    const cache = new CachedTokenAuthenticator(inner, {
      successTtlMs: 10_000,
      failureTtlMs: 0,
      maxEntries: 2,
    });
    for (const t of ['a', 'b', 'c', 'a']) await cache.authenticateToken(t, []);
    assert.deepEqual(inner.asked, ['a@', 'b@', 'c@', 'a@']);
  });
});

describe('token union', () => {
  it('the first authenticator that accepts decides; a refusal counts only when nobody accepts', async () => {
    const union = new TokenUnion([counting({ t: { error: 'not mine' } }), counting({ t: alice })]);
    assert.deepEqual(await union.authenticateToken('t', []), alice);
    const refused = new TokenUnion([counting({ t: { error: 'expired' } }), counting({})]);
    assert.deepEqual(await refused.authenticateToken('t', []), { error: 'expired' });
    assert.equal(await new TokenUnion([counting({})]).authenticateToken('t', []), null);
  });

  it('an authenticator that throws refuses the token instead of failing the request', async () => {
    const broken: TokenAuthenticator = {
      authenticateToken() {
        throw new Error('peer down');
      },
    };
    assert.deepEqual(await new TokenUnion([broken]).authenticateToken('t', []), { error: 'peer down' });
  });
});

// The token cache's metrics after a known sequence: hits only for finished, fresh verifications;
// a lookup joining a running verification is a miss that waits; verifications by outcome; the
// running and waiting gauges while one is held open.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { parseExposition, series } from '../testing/exposition.ts';
import { CachedTokenAuthenticator } from './token-cache.ts';
import { TokenCacheMetrics } from './token-cache-metrics.ts';
import type { TokenResult } from './types.ts';

describe('token cache metrics', () => {
  it('counts hits, misses, verifications and waits as upstream', async () => {
    const registry = new MetricsRegistry();
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const cache = new CachedTokenAuthenticator(
      {
        async authenticateToken(token: string): Promise<TokenResult> {
          if (token === 'slow') await held;
          if (token === 'bad') return { error: 'revoked' };
          if (token === 'unknown') return null;
          return { user: { username: token, groups: [] } };
        },
      },
      { successTtlMs: 60_000, failureTtlMs: 0, metrics: new TokenCacheMetrics(registry) },
    );
    const scrape = async () => parseExposition(await registry.metrics());

    await cache.authenticateToken('good', []);
    await cache.authenticateToken('good', []);
    const first = cache.authenticateToken('slow', []);
    const second = cache.authenticateToken('slow', []);
    // Wait until the held verification has started.
    await new Promise((resolve) => setImmediate(resolve));
    let e = await scrape();
    assert.deepEqual(series(e, 'authentication_token_cache_active_fetch_count'), [
      '{status="blocked"} 2',
      '{status="in_flight"} 1',
    ]);
    release?.();
    await Promise.all([first, second]);
    // Failures are not kept (TTL 0): each lookup verifies again. Unknown tokens are no error.
    await cache.authenticateToken('bad', []);
    await cache.authenticateToken('bad', []);
    await cache.authenticateToken('unknown', []);

    e = await scrape();
    assert.deepEqual(series(e, 'authentication_token_cache_request_total'), [
      '{status="hit"} 1',
      '{status="miss"} 6',
    ]);
    assert.deepEqual(
      series(e, 'authentication_token_cache_request_duration_seconds_count'),
      series(e, 'authentication_token_cache_request_total'),
    );
    assert.deepEqual(series(e, 'authentication_token_cache_fetch_total'), [
      '{status="error"} 2',
      '{status="ok"} 3',
    ]);
    assert.deepEqual(series(e, 'authentication_token_cache_active_fetch_count'), [
      '{status="blocked"} 0',
      '{status="in_flight"} 0',
    ]);
    assert.equal(e.help.get('authentication_token_cache_request_total'), '[ALPHA] ');
    assert.equal(e.type.get('authentication_token_cache_active_fetch_count'), 'gauge');
  });
});

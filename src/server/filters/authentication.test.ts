// The authentication filter's metrics, driven directly: results as upstream counts them (an
// authenticator's error, nobody applying, success), users folded, and two filters over one chain
// recording into one set of series.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { usernameFolder } from '../../auth/authn/metrics.ts';
import type { Authenticator } from '../../auth/authn/types.ts';
import { AuthnChain } from '../../auth/authn/union.ts';
import { parseExposition, series } from '../../auth/testing/exposition.ts';
import { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { ApiError } from '../../machinery/status.ts';
import type { RequestContext } from '../context.ts';
import { authentication } from './authentication.ts';

/** Knows `Bearer good-<user>`; any other bearer token is its error. */
const tokens: Authenticator = {
  authenticate(req) {
    const h = req.headers.authorization;
    if (typeof h !== 'string') return null;
    const m = /^Bearer good-(.+)$/.exec(h);
    return m ? { user: { username: m[1], groups: [] } } : { error: 'invalid bearer token' };
  },
};

function ctxWith(authorization?: string): RequestContext {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  // Only what the filter reads: headers, raw headers, the URL (no socket: no client certificate).
  return { req: { headers, rawHeaders: [] }, url: '/version' } as unknown as RequestContext;
}

describe('authentication filter metrics', () => {
  it('counts by result and folded user, once per chain however many filters use it', async () => {
    const registry = new MetricsRegistry();
    const chain = new AuthnChain({
      authenticators: [tokens],
      anonymous: false,
      metrics: registry,
      foldUsername: usernameFolder(),
    });
    const first = authentication(chain);
    const second = authentication(chain);
    const run = async (f: typeof first, authorization?: string) => {
      let reached = false;
      try {
        await f(ctxWith(authorization), async () => {
          reached = true;
        });
      } catch (err) {
        assert.ok(err instanceof ApiError);
        assert.equal(err.code, 401);
      }
      return reached;
    };
    assert.equal(await run(first, 'Bearer good-admin'), true);
    assert.equal(await run(second, 'Bearer good-jane@example.com'), true);
    assert.equal(await run(first, 'Bearer good-someone'), true);
    assert.equal(await run(second, 'Bearer bad'), false);
    assert.equal(await run(first), false);

    const e = parseExposition(await registry.metrics());
    assert.deepEqual(series(e, 'authentication_attempts'), [
      '{result="error"} 1',
      '{result="failure"} 1',
      '{result="success"} 3',
    ]);
    assert.deepEqual(
      series(e, 'authentication_duration_seconds_count'),
      series(e, 'authentication_attempts'),
    );
    assert.deepEqual(series(e, 'authenticated_user_requests'), [
      '{username="admin"} 1',
      '{username="email_id"} 1',
      '{username="other"} 1',
    ]);
  });

  it('records nothing when the chain has no registry', async () => {
    const chain = new AuthnChain({ authenticators: [tokens], anonymous: false });
    let reached = false;
    await authentication(chain)(ctxWith('Bearer good-admin'), async () => {
      reached = true;
    });
    assert.equal(reached, true);
  });
});

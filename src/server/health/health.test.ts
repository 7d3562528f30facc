import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompletionCheck, evaluateAll, evaluateOne, type HealthCheck, withGracePeriod } from './health.ts';

const ok = (name: string): HealthCheck => ({ name, check: () => undefined });
const bad = (name: string): HealthCheck => ({
  name,
  check: () => {
    throw new Error(`${name} is down`);
  },
});
const q = (s: string) => new URLSearchParams(s);

describe('health endpoints', () => {
  it('healthy and quiet: 200 "ok"', async () => {
    assert.deepEqual(await evaluateAll('livez', [ok('ping'), ok('log')], q('')), { status: 200, body: 'ok' });
  });

  it('verbose lists each check, then the passed line', async () => {
    assert.deepEqual(await evaluateAll('readyz', [ok('ping'), ok('storage')], q('verbose')), {
      status: 200,
      body: '[+]ping ok\n[+]storage ok\nreadyz check passed\n',
    });
  });

  it('a failing check makes 500 and always lists the checks, reason withheld', async () => {
    assert.deepEqual(await evaluateAll('livez', [ok('ping'), bad('storage')], q('')), {
      status: 500,
      body: '[+]ping ok\n[-]storage failed: reason withheld\nlivez check failed\n',
    });
  });

  it('exclude skips a check and says so; unknown exclusions are warned about', async () => {
    assert.deepEqual(
      await evaluateAll('readyz', [ok('ping'), bad('storage')], q('verbose&exclude=storage')),
      {
        status: 200,
        body: '[+]ping ok\n[+]storage excluded: ok\nreadyz check passed\n',
      },
    );
    const r = await evaluateAll('readyz', [ok('ping')], q('verbose&exclude=nope'));
    assert.equal(r.status, 200);
    assert.match(r.body, /warn: some health checks cannot be excluded: no matches for "nope"\n/);
  });

  it('a single check answers ok, its error, or 404 for an unknown name', async () => {
    assert.deepEqual(await evaluateOne([ok('ping')], 'ping'), { status: 200, body: 'ok' });
    assert.deepEqual(await evaluateOne([bad('storage')], 'storage'), {
      status: 500,
      body: 'internal server error: storage is down\n',
    });
    assert.equal((await evaluateOne([ok('ping')], 'other')).status, 404);
  });

  it('post-start hooks fail until done; the grace period hides failures only while it lasts', async () => {
    const hook = new CompletionCheck('poststarthook/bootstrap');
    assert.equal((await evaluateOne([hook], hook.name)).status, 500);
    const graced = withGracePeriod(hook, Date.now(), 60_000);
    assert.equal((await evaluateAll('livez', [graced], q(''))).status, 200);
    const expired = withGracePeriod(hook, Date.now() - 120_000, 60_000);
    assert.equal((await evaluateAll('livez', [expired], q(''))).status, 500);
    hook.done();
    assert.equal((await evaluateOne([hook], hook.name)).status, 200);
  });
});

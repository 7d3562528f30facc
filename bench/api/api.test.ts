// Smoke runs of every API scenario with tiny sizes: the numbers mean nothing, the paths must work —
// on our server started by the harness, over both protocols, and on a server named by a kubeconfig.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { startTestApiServer } from '../../src/server/testing/index.ts';
import type { ScenarioContext } from '../lib/scenario.ts';
import { apiScenarios } from './scenarios.ts';
import { endpointFromKubeconfig } from './target.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ctx = (over: Partial<ScenarioContext> = {}): ScenarioContext => ({
  backends: ['sqlite'],
  quick: true,
  protocol: 'http1',
  encoding: 'json',
  log: () => {},
  ...over,
});
const byName = Object.fromEntries(apiScenarios.map((s) => [s.name, s]));

// A guard against a hang, not a measure: on a busy machine the quick runs take several times longer.
describe('API bench scenarios (quick)', { timeout: 900_000 }, () => {
  before(() => {
    // The harness starts the built program; bundling it takes a fraction of a second.
    execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs')], { cwd: ROOT });
  });

  for (const name of ['create', 'get', 'update', 'patch', 'apply', 'list', 'watch', 'memory']) {
    it(`${name} runs and reports`, async () => {
      const out = await byName[name].run(ctx());
      assert.match(out.markdown, /^\| server/);
      assert.match(out.markdown, /\(sqlite\)/);
      const text = JSON.stringify(out.results);
      assert.doesNotMatch(text, /"failed":[1-9]/, text);
      if (name === 'watch') assert.match(out.markdown, /\| +0 \|$/m, 'no event dropped');
    });
  }

  it('watches in protobuf too, reading every event from length-prefixed frames', async () => {
    const out = await byName.watch.run(ctx({ encoding: 'protobuf' }));
    assert.match(out.markdown, /updates\/s, protobuf/);
    assert.match(out.markdown, /\| +0 \|$/m, 'no event dropped');
    const delivered = (out.results as { value: Record<string, { delivered: number }> }[])[0].value;
    assert.ok(
      Object.values(delivered).every((x) => x.delivered > 0),
      JSON.stringify(delivered),
    );
  });

  it('hostile runs and reports every phase, counting what the server did rather than failing', async () => {
    const out = await byName.hostile.run(ctx());
    assert.match(out.markdown, /^\| server/);
    for (const phase of ['quiet', 'slow watchers', 'rapid reset', 'idle connections'])
      assert.match(out.markdown, new RegExp(`\\| ${phase} +\\|`), phase);
    assert.match(out.markdown, /RSS after settle/);
    assert.match(out.markdown, /slow watchers the server closed +\| \d+ of \d+/);
    assert.match(
      out.markdown,
      /LIST streams sent and reset +\| \d+ answered \(\+\d+ unanswered\) over \d+ sessions/,
    );
    const [{ value }] = out.results as {
      value: { rssSamples: unknown[]; slow: { slow: { opened: number } } };
    }[];
    assert.ok(value.rssSamples.length > 0, 'RSS sampled');
    assert.ok(value.slow.slow.opened > 0, 'slow watchers opened');
  });

  it('get --auth runs as each kind of user, checked by SelfSubjectReview, and compares them to the certificate', async () => {
    const kinds = ['cert', 'static-token', 'sa-token', 'oidc-token'] as const;
    const out = await byName.get.run(ctx({ auth: [...kinds] }));
    assert.match(
      out.markdown,
      /^\| server +\| user +\| +gets\/s \| of certificate’s \| +server CPU a get \|/,
    );
    assert.match(out.markdown, /\| client certificate \(bench-cert\) +\|.*\| +100% \(100–100\) \|/);
    assert.match(out.markdown, /\| static token \(bench-static\) +\|/);
    assert.match(out.markdown, /\| service account token \(system:serviceaccount:…:bench-sa\) +\|/);
    assert.match(out.markdown, /\| OpenID token \(oidc:bench-oidc\) +\|/);
    const [{ value }] = out.results as { value: { kind: string; username: string; failed: number }[] }[];
    assert.deepEqual(
      value.map((x) => x.kind),
      kinds,
    );
    assert.equal(value[0].username, 'bench-cert');
    assert.equal(value[1].username, 'bench-static');
    assert.match(value[2].username, /^system:serviceaccount:bench-get-auth-[^:]+:bench-sa$/);
    assert.equal(value[3].username, 'oidc:bench-oidc');
    assert.deepEqual(
      value.map((x) => x.failed),
      [0, 0, 0, 0],
    );
  });

  it('authz-load runs get and create as an RBAC-bound user and as system:masters, and compares them', async () => {
    const out = await byName['authz-load'].run(ctx());
    assert.match(out.markdown, /^\| server +\| load +\| user +\| +requests\/s \| +of system:masters’ \|/);
    assert.match(out.markdown, /\| get +\| RBAC RoleBinding \(bench-rbac\) +\|/);
    assert.match(
      out.markdown,
      /\| create +\| system:masters \([^)]+\) +\|.*\| +100\.0% \(100\.0–100\.0\) \|/,
    );
    const [{ value }] = out.results as {
      value: { load: string; who: string; username: string; failed: number }[];
    }[];
    assert.deepEqual(
      value.map((x) => `${x.load} ${x.who}`),
      ['get rbac', 'get masters', 'create rbac', 'create masters'],
    );
    assert.equal(value[0].username, 'bench-rbac');
    assert.deepEqual(
      value.map((x) => x.failed),
      [0, 0, 0, 0],
    );
  });

  it('authz-load refuses a server named by a kubeconfig', async () => {
    await assert.rejects(
      byName['authz-load'].run(ctx({ kubeconfig: '/nonexistent' })),
      /needs the server the bench starts/,
    );
  });

  it('get --auth refuses the kinds that set server flags on a server named by a kubeconfig', async () => {
    await assert.rejects(
      byName.get.run(ctx({ kubeconfig: '/nonexistent', auth: ['cert', 'static-token'] })),
      /--auth static-token sets flags of the server/,
    );
  });

  it('runs over HTTP/2 too', async () => {
    const out = await byName.get.run(ctx({ protocol: 'http2' }));
    assert.match(out.markdown, /over HTTP\/2/);
    assert.doesNotMatch(JSON.stringify(out.results), /"failed":[1-9]/);
  });

  it('drives any server a kubeconfig names', async () => {
    const t = await startTestApiServer();
    try {
      const endpoint = endpointFromKubeconfig(t.server.adminConfigPath);
      assert.equal(endpoint.url, t.server.url);
      assert.ok(endpoint.cert && endpoint.key && endpoint.ca);
      const out = await byName.patch.run(ctx({ kubeconfig: t.server.adminConfigPath }));
      assert.match(out.markdown, /server of /);
      const memory = await byName.memory.run(ctx({ kubeconfig: t.server.adminConfigPath }));
      assert.match(memory.markdown, /--server-pid/);
    } finally {
      await t.stop();
    }
  });
});

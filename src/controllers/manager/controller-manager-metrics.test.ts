// The controller manager's /metrics against an in-process API server: a probe controller does
// known work on a named queue and the exposition shows exactly that work under upstream's names;
// the system controllers' queues appear under upstream's queue names; the leader shows
// leader_election_master_status 1 and a follower in the same process 0, each from its own
// registry; a manager without leader election shows no election at all, as upstream's; and
// --show-hidden-metrics-for-version is checked with upstream's message.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GENERATED_SIGNING_KEY_FILE } from '../../auth/authn/service-account-setup.ts';
import { RateLimitingQueue } from '../../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../../client/work-queue/run-workers.ts';
import { componentName, namingProfile } from '../../naming/index.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/http-client.ts';
import { waitUntil } from '../../server/testing/wait-for.ts';
import type { ControllerDescriptor } from '../controller.ts';
import { serviceAccountControllerDescriptor } from '../serviceaccount/index.ts';
import { defaultPlatControllerManagerConfiguration } from './config/defaults.ts';
import { ConfigurationError } from './config/index.ts';
import { type ControllerManagerHandle, startControllerManager } from './controller-manager.ts';
import { parseExposition } from './metrics/exposition.ts';

const profile = namingProfile('spec');
const quiet = { info: () => undefined, error: () => undefined };
const TOKEN = 'metrics-reader-token';

function config(leaderElect: boolean) {
  return defaultPlatControllerManagerConfiguration(
    {
      Generic: {
        LeaderElection: { leaderElect, leaseDuration: '3s', renewDeadline: '2s', retryPeriod: '500ms' },
      },
    },
    profile,
  );
}

function scrape(m: ControllerManagerHandle): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${m.url}/metrics`,
      { ca: m.caPem, headers: { authorization: `Bearer ${TOKEN}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () =>
          res.statusCode === 200 ? resolve(body) : reject(new Error(`/metrics: ${res.statusCode} ${body}`)),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * A controller whose one worker takes `a` and `b` (added as a, b, a) from the queue `probe`,
 * failing `b` once: 3 adds (b comes back once), 1 retry, 3 items handled, 2 of them successfully.
 */
function probeController(): { descriptor: ControllerDescriptor; worked: string[] } {
  const worked: string[] = [];
  const descriptor: ControllerDescriptor = {
    name: 'probe-controller',
    enabledByDefault: true,
    serviceAccountName: 'probe-controller',
    async start(ctx) {
      const queue = new RateLimitingQueue<string>({ name: 'probe' });
      queue.add('a');
      queue.add('b');
      queue.add('a');
      let failed = false;
      const done = runWorkers(
        queue,
        1,
        async (item) => {
          if (item === 'b' && !failed) {
            failed = true;
            throw new Error('first try');
          }
          worked.push(item);
        },
        ctx.signal,
      );
      return { stop: () => done };
    },
  };
  return { descriptor, worked };
}

describe('controller manager metrics', () => {
  let api: TestApiServer;
  let tokens: string;

  before(async () => {
    tokens = mkdtempSync(join(tmpdir(), 'cm-metrics-'));
    const file = join(tokens, 'tokens.csv');
    writeFileSync(file, `${TOKEN},metrics-reader,1,"system:masters"\n`);
    api = await startTestApiServer({ tokenAuthFile: file });
  });
  after(async () => {
    await api.stop();
    rmSync(tokens, { recursive: true, force: true });
  });

  it("shows a queue's known work, the system queues by upstream name, and each manager's own election", async () => {
    const probe = probeController();
    const leader = await startControllerManager({
      platconfig: api.server.adminConfigPath,
      config: config(true),
      descriptors: [serviceAccountControllerDescriptor, probe.descriptor],
      securePort: 0,
      log: quiet,
    });
    let follower: ControllerManagerHandle | undefined;
    try {
      await leader.leading;
      await waitUntil(() => probe.worked.length === 2, 'the probe to work a, and b on its second try');
      const lease = componentName(profile, 'controller-manager');
      const e = parseExposition(await scrape(leader));
      const probeQueue = { name: 'probe' };
      assert.equal(e.value('workqueue_adds_total', probeQueue), 3);
      assert.equal(e.value('workqueue_retries_total', probeQueue), 1);
      assert.equal(e.value('workqueue_depth', probeQueue), 0);
      assert.equal(e.value('workqueue_queue_duration_seconds_count', probeQueue), 3);
      assert.equal(e.value('workqueue_work_duration_seconds_count', probeQueue), 3);
      assert.equal(e.value('workqueue_work_duration_seconds_bucket', { name: 'probe', le: '+Inf' }), 3);
      assert.equal(e.value('workqueue_unfinished_work_seconds', probeQueue), 0);
      assert.equal(e.value('workqueue_longest_running_processor_seconds', probeQueue), 0);
      // The service account controller's queue, under upstream's name, has seen the namespaces.
      assert.ok((e.value('workqueue_adds_total', { name: 'serviceaccount' }) ?? 0) >= 1);
      assert.equal(e.value('leader_election_master_status', { name: lease }), 1);
      assert.equal(
        e.help.get('leader_election_master_status'),
        "[ALPHA] Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      );
      assert.equal(e.type.get('leader_election_slowpath_total'), 'counter');

      // A second manager of this process waits for the lease: its registry is its own.
      follower = await startControllerManager({
        platconfig: api.server.adminConfigPath,
        config: config(true),
        descriptors: [probeController().descriptor],
        securePort: 0,
        log: quiet,
      });
      const f = parseExposition(await scrape(follower));
      assert.equal(f.value('leader_election_master_status', { name: lease }), 0);
      assert.equal(f.value('workqueue_adds_total', probeQueue), undefined);
      assert.equal(parseExposition(await scrape(leader)).value('workqueue_adds_total', probeQueue), 3);
    } finally {
      await follower?.stop();
      await leader.stop();
    }
  });

  it("meters every system controller's queue under upstream's name", async () => {
    const cfg = config(false);
    cfg.Generic.Controllers = ['*', 'bootstrap-signer-controller', 'token-cleaner-controller'];
    // The token controller runs only with a signing key (upstream skips it without one).
    cfg.SAController.ServiceAccountKeyFile = join(api.dir, GENERATED_SIGNING_KEY_FILE);
    const m = await startControllerManager({
      platconfig: api.server.adminConfigPath,
      config: cfg,
      securePort: 0,
      log: quiet,
    });
    try {
      await m.leading;
      const e = parseExposition(await scrape(m));
      // A queue's series exist from the moment it is made, as upstream's.
      const named = new Set(
        e.samples.filter((s) => s.name === 'workqueue_adds_total').map((s) => s.labels.name),
      );
      assert.deepEqual([...named].sort(), [
        'ClusterRoleAggregator',
        'bootstrap_signer_queue',
        'deployment',
        'garbage_collector_attempt_to_delete',
        'garbage_collector_attempt_to_orphan',
        'namespace',
        'replicaset',
        'root_ca_cert_publisher',
        'serviceaccount',
        'serviceaccount_tokens_service',
        'token_cleaner',
      ]);
    } finally {
      await m.stop();
    }
  });

  it('shows no election without leader election, as upstream', async () => {
    const m = await startControllerManager({
      platconfig: api.server.adminConfigPath,
      config: config(false),
      descriptors: [],
      securePort: 0,
      log: quiet,
    });
    try {
      await m.leading;
      const e = parseExposition(await scrape(m));
      assert.deepEqual(
        e.samples.filter((s) => s.name.startsWith('leader_election_')),
        [],
        'no elector, no series',
      );
    } finally {
      await m.stop();
    }
  });

  it('takes the previous minor release for --show-hidden-metrics-for-version and refuses others', async () => {
    await assert.rejects(
      startControllerManager({
        platconfig: api.server.adminConfigPath,
        config: config(false),
        descriptors: [],
        securePort: 'none',
        log: quiet,
        showHiddenMetricsForVersion: '1.33',
      }),
      (err: Error) =>
        err instanceof ConfigurationError &&
        err.message ===
          "--show-hidden-metrics-for-version must be omitted or have the value '1.34'. Only the previous minor version is allowed",
    );
    const m = await startControllerManager({
      platconfig: api.server.adminConfigPath,
      config: config(false),
      descriptors: [],
      securePort: 'none',
      log: quiet,
      showHiddenMetricsForVersion: '1.34',
    });
    await m.stop();
  });
});

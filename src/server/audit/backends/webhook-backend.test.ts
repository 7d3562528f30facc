import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { MetricsRegistry } from '../../../machinery/metrics/index.ts';
import { groupName, namingProfile } from '../../../naming/profile.ts';
import { createCa, createLeaf, type KeyAndCert } from '../../pki/generate.ts';
import { startTestApiServer } from '../../testing/index.ts';
import { waitUntil } from '../../testing/wait-for.ts';
import type { AuditWebhookOptions } from '../options.ts';
import { policyRule } from '../policy-types.ts';
import { createAuditBackend } from './index.ts';
import { makeEvent, metricValue, SPEC } from './test-support.ts';

const UPSTREAM_AUDIT_VERSION = `${groupName(namingProfile('upstream'), 'audit')}/v1`;

interface Received {
  body: { kind: string; apiVersion: string; items: Record<string, unknown>[] };
  clientCn: string;
  authorization?: string;
}

type Behaviour = (req: IncomingMessage, res: ServerResponse, n: number) => void;

/** An audit receiver on loopback with its own CA, asking for a client certificate. */
class Receiver {
  readonly received: Received[] = [];
  requests = 0;
  behaviour: Behaviour = (_req, res) => res.writeHead(200).end();
  private readonly held = new Set<ServerResponse>();
  server!: Server;

  async start(serving: KeyAndCert, clientCa: KeyAndCert): Promise<void> {
    this.server = createServer(
      { key: serving.keyPem, cert: serving.certPem, ca: clientCa.certPem, requestCert: true },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (d: Buffer) => chunks.push(d));
        req.on('end', () => {
          const n = ++this.requests;
          const peer = (req.socket as TLSSocket).getPeerCertificate();
          const before = this.received.length;
          this.behaviour(req, res, n);
          // Only answered-with-success requests count as received.
          if (res.statusCode === 200 && this.received.length === before && res.writableEnded)
            this.received.push({
              body: JSON.parse(Buffer.concat(chunks).toString()),
              clientCn: String(peer?.subject?.CN ?? ''),
              authorization: req.headers.authorization,
            });
          if (!res.writableEnded) this.held.add(res);
        });
      },
    );
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
  }

  get url(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/audit`;
  }

  get sizes(): number[] {
    return this.received.map((r) => r.body.items.length);
  }

  reset(): void {
    this.received.length = 0;
    this.requests = 0;
    this.behaviour = (_req, res) => res.writeHead(200).end();
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

let dir: string;
let serverCa: KeyAndCert;
let client: KeyAndCert;
const receiver = new Receiver();

function writeConfig(name: string, server: string): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const file = join(dir, name);
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: audit',
      '  cluster:',
      `    server: ${server}`,
      `    certificate-authority-data: ${b64(serverCa.certPem)}`,
      'users:',
      '- name: apiserver',
      '  user:',
      `    client-certificate-data: ${b64(client.certPem)}`,
      `    client-key-data: ${b64(client.keyPem)}`,
      '    token: audit-token',
      'contexts:',
      '- name: default',
      '  context: {cluster: audit, user: apiserver}',
      'current-context: default',
      '',
    ].join('\n'),
  );
  return file;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'audit-webhook-'));
  serverCa = await createCa('audit-receiver-ca', 1);
  const clientCa = await createCa('audit-client-ca', 1);
  client = await createLeaf(clientCa, { commonName: 'apiserver-audit', usage: 'client', validDays: 1 });
  const serving = await createLeaf(serverCa, {
    commonName: 'receiver',
    hosts: ['127.0.0.1'],
    usage: 'server',
    validDays: 1,
  });
  await receiver.start(serving, clientCa);
});

after(async () => {
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function webhookBackend(webhook: Partial<AuditWebhookOptions>, metrics = new MetricsRegistry()) {
  receiver.reset();
  const b = await createAuditBackend(
    { webhook: { configFile: writeConfig('ok.yaml', receiver.url), ...webhook } },
    { metrics, profile: SPEC, shutdownTimeoutMs: 200 },
  );
  assert.ok(b !== undefined);
  return b;
}

describe('audit webhook backend', () => {
  it('sends batches of maxSize as EventLists in the upstream audit group, with the configured credentials', async () => {
    const b = await webhookBackend({ batch: { maxSize: 3, maxWaitMs: 60_000, throttleEnable: false } });
    assert.equal(b.name, 'buffered<webhook>');
    for (let i = 0; i < 7; i++) assert.equal(b.processEvents(makeEvent(i)), true);
    await waitUntil(() => receiver.received.length === 2, 'two full batches');
    assert.deepEqual(receiver.sizes, [3, 3]);
    const first = receiver.received[0];
    assert.equal(first.body.kind, 'EventList');
    assert.equal(first.body.apiVersion, UPSTREAM_AUDIT_VERSION);
    assert.equal(first.clientCn, 'apiserver-audit');
    assert.equal(first.authorization, 'Bearer audit-token');
    const { kind: _k, apiVersion: _v, ...item } = makeEvent(0);
    assert.deepEqual(first.body.items[0], item);
    // The last event waits for its batch to fill or its time to pass; shutdown sends it.
    await b.shutdown();
    assert.deepEqual(receiver.sizes, [3, 3, 1]);
    const ids = receiver.received.flatMap((r) => r.body.items.map((e) => e.auditID));
    assert.deepEqual(
      ids,
      [0, 1, 2, 3, 4, 5, 6].map((i) => makeEvent(i).auditID),
    );
  });

  it('sends a partial batch once its oldest event has waited maxWait', async () => {
    const b = await webhookBackend({ batch: { maxSize: 100, maxWaitMs: 20 } });
    b.processEvents(makeEvent(1));
    b.processEvents(makeEvent(2));
    await waitUntil(() => receiver.received.length === 1, 'the batch after maxWait');
    assert.deepEqual(receiver.sizes, [2]);
    b.processEvents(makeEvent(3));
    await waitUntil(() => receiver.received.length === 2, 'the next batch after maxWait');
    assert.deepEqual(receiver.sizes, [2, 1]);
    await b.shutdown();
  });

  it('retries a failing receiver with backoff until it accepts', async () => {
    const metrics = new MetricsRegistry();
    const b = await webhookBackend(
      { initialBackoffMs: 5, batch: { maxSize: 2, throttleEnable: false } },
      metrics,
    );
    receiver.behaviour = (_req, res, n) => {
      if (n === 1) res.writeHead(503).end('down');
      else if (n === 2) res.destroy();
      else res.writeHead(200).end();
    };
    b.processEvents(makeEvent(1), makeEvent(2));
    await waitUntil(() => receiver.received.length === 1, 'the batch after two failures');
    assert.equal(receiver.requests, 3);
    assert.deepEqual(receiver.sizes, [2]);
    await b.shutdown();
    assert.equal(await metricValue(metrics, 'apiserver_audit_error_total{plugin="webhook"}'), 0);
  });

  it('gives up after five attempts and counts the events', async () => {
    const metrics = new MetricsRegistry();
    const b = await webhookBackend(
      { initialBackoffMs: 1, batch: { maxSize: 3, throttleEnable: false } },
      metrics,
    );
    receiver.behaviour = (_req, res) => res.writeHead(500).end();
    b.processEvents(makeEvent(1), makeEvent(2), makeEvent(3));
    await waitUntil(
      async () => (await metricValue(metrics, 'apiserver_audit_error_total{plugin="webhook"}')) === 3,
      'the batch counted as lost',
    );
    assert.equal(receiver.requests, 5);
    await b.shutdown();
  });

  it('never blocks requests when the receiver is down: past the buffer events are dropped and counted', async () => {
    const metrics = new MetricsRegistry();
    const logged: string[] = [];
    // A port nobody listens on.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const b = await createAuditBackend(
      {
        webhook: {
          configFile: writeConfig('down.yaml', `https://127.0.0.1:${port}/audit`),
          initialBackoffMs: 60_000,
          batch: { bufferSize: 5, maxSize: 1, throttleQps: 0.001, throttleBurst: 1 },
        },
      },
      { metrics, profile: SPEC, shutdownTimeoutMs: 50, log: (m) => logged.push(m) },
    );
    assert.ok(b !== undefined);
    // Each call only queues: every one is accepted and returns at once, whatever the receiver does.
    for (let i = 0; i < 20; i++) assert.equal(b.processEvents(makeEvent(i)), true);
    assert.equal(await metricValue(metrics, 'apiserver_audit_error_total{plugin="buffered"}'), 15);
    assert.match(
      logged[0],
      /Error in audit plugin 'buffered' affecting 1 audit events: audit buffer queue blocked/,
    );
    // One batch left (the burst); the throttle holds the rest. Shutdown gives up on both within its
    // bound and counts them: the batch retrying as the webhook's, the queued ones as the buffer's.
    await b.shutdown();
    assert.equal(await metricValue(metrics, 'apiserver_audit_error_total{plugin="webhook"}'), 1);
    assert.equal(await metricValue(metrics, 'apiserver_audit_error_total{plugin="buffered"}'), 19);
    assert.equal(b.processEvents(makeEvent(99)), false);
    assert.equal(await metricValue(metrics, 'apiserver_audit_error_total{plugin="buffered"}'), 20);
  });

  it('abandons sends to a receiver that never answers at shutdown, within its bound', async () => {
    const metrics = new MetricsRegistry();
    const b = await webhookBackend({ batch: { maxSize: 2, throttleEnable: false } }, metrics);
    receiver.behaviour = () => {};
    b.processEvents(makeEvent(1), makeEvent(2));
    await waitUntil(() => receiver.requests === 1, 'the request to hang');
    await b.shutdown();
    assert.equal(await metricValue(metrics, 'apiserver_audit_error_total{plugin="webhook"}'), 2);
  });

  it('blocking mode sends each call at once', async () => {
    const b = await webhookBackend({ mode: 'blocking' });
    assert.equal(b.name, 'ignoreErrors<webhook>');
    b.processEvents(makeEvent(1));
    b.processEvents(makeEvent(2), makeEvent(3));
    await waitUntil(() => receiver.received.length === 2, 'two requests');
    assert.deepEqual(receiver.sizes.sort(), [1, 2]);
    await b.shutdown();
  });

  it('blocking modes answer once the receiver has: blocking ignores a failure, blocking-strict reports it', async () => {
    const blocking = await webhookBackend({ mode: 'blocking', initialBackoffMs: 1 });
    const answer = blocking.processEvents(makeEvent(1));
    assert.ok(answer instanceof Promise);
    assert.equal(await answer, true);
    assert.equal(receiver.received.length, 1, 'delivered before the answer settled');
    receiver.behaviour = (_req, res) => res.writeHead(503).end('down');
    assert.equal(await blocking.processEvents(makeEvent(2)), true);
    await blocking.shutdown();

    const strict = await webhookBackend({ mode: 'blocking-strict', initialBackoffMs: 1 });
    assert.equal(strict.name, 'webhook');
    assert.equal(await strict.processEvents(makeEvent(3)), true);
    receiver.behaviour = (_req, res) => res.writeHead(503).end('down');
    assert.equal(await strict.processEvents(makeEvent(4)), false);
    assert.equal(receiver.requests, 1 + 5, 'five attempts before giving up');
    await strict.shutdown();
  });

  it('a server whose blocking-strict webhook cannot store RequestReceived refuses the request', async () => {
    receiver.reset();
    const api = await startTestApiServer({
      audit: {
        policy: { rules: [policyRule('Metadata')], omitStages: [], omitManagedFields: false },
        webhook: {
          configFile: writeConfig('strict.yaml', receiver.url),
          mode: 'blocking-strict',
          initialBackoffMs: 1,
        },
      },
    });
    try {
      const ok = await api.call({ path: '/api/v1/namespaces/default' });
      assert.equal(ok.status, 200);
      // RequestReceived was delivered before the request went on.
      const stages = receiver.received.flatMap((r) => r.body.items.map((e) => `${e.stage} ${e.auditID}`));
      assert.ok(stages.includes(`RequestReceived ${ok.headers['audit-id']}`), stages.join('\n'));

      receiver.behaviour = (_req, res) => res.writeHead(503).end('down');
      const refused = await api.call({ path: '/api/v1/namespaces/default' });
      assert.equal(refused.status, 500);
      assert.equal(refused.json().message, 'Internal error occurred: failed to store audit event');
    } finally {
      await api.stop();
    }
  });

  it('truncates large events before batching when asked', async () => {
    const b = await webhookBackend({
      mode: 'blocking-strict',
      truncate: { enabled: true, maxEventSize: 1000, maxBatchSize: 1000 },
    });
    assert.equal(b.name, 'truncate<webhook>');
    const big = makeEvent(1, { level: 'Request', requestObject: { data: 'x'.repeat(3000) } });
    b.processEvents(big, makeEvent(2));
    await waitUntil(() => receiver.received.length === 2, 'two batches, split by size');
    const items = receiver.received.flatMap((r) => r.body.items);
    const first = items.find((e) => e.auditID === big.auditID) as Record<string, unknown>;
    assert.equal(first.requestObject, undefined);
    assert.deepEqual(first.annotations, { [`${groupName(SPEC, 'audit')}/truncated`]: 'true' });
    await b.shutdown();
  });

  it('with the log as well, is a union of both', async () => {
    const logFile = join(dir, 'union.log');
    receiver.reset();
    const b = await createAuditBackend(
      {
        log: { path: logFile },
        webhook: { configFile: writeConfig('ok.yaml', receiver.url), batch: { maxWaitMs: 10 } },
      },
      { metrics: new MetricsRegistry(), profile: SPEC },
    );
    assert.ok(b !== undefined);
    assert.equal(b.name, 'union[ignoreErrors<log>,buffered<webhook>]');
    b.processEvents(makeEvent(1));
    await waitUntil(() => receiver.received.length === 1, 'the webhook batch');
    await b.shutdown();
    assert.equal(JSON.parse(readFileSync(logFile, 'utf8')).auditID, makeEvent(1).auditID);
  });

  it('refuses an invalid configuration file, naming the problem', async () => {
    const metrics = new MetricsRegistry();
    const create = (configFile: string) =>
      createAuditBackend({ webhook: { configFile } }, { metrics, profile: SPEC });
    await assert.rejects(
      create(join(dir, 'missing.yaml')),
      /^Error: initializing audit webhook: unable to read .*missing\.yaml/,
    );
    const noServer = join(dir, 'no-server.yaml');
    writeFileSync(
      noServer,
      'clusters: [{name: a, cluster: {}}]\ncontexts: [{name: c, context: {cluster: a}}]\ncurrent-context: c\n',
    );
    await assert.rejects(
      create(noServer),
      /initializing audit webhook: .*no-server\.yaml: cluster "a": no server found/,
    );
    const noContext = join(dir, 'no-context.yaml');
    writeFileSync(noContext, 'clusters: []\n');
    await assert.rejects(create(noContext), /no-context\.yaml: current-context is not set/);
    await assert.rejects(
      createAuditBackend(
        { webhook: { configFile: writeConfig('ok.yaml', receiver.url), batch: { maxSize: 0 } } },
        { metrics, profile: SPEC },
      ),
      /invalid audit batch webhook max batch size 0, must be a positive number/,
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { componentName, groupName, namingProfile } from '../naming/profile.ts';
import { FlagError, parseApiserverFlags } from './apiserver-flags.ts';

const parse = (...argv: string[]) =>
  parseApiserverFlags(argv, componentName(namingProfile('spec'), 'apiserver'));

const UPSTREAM_V1 = `${groupName(namingProfile('upstream'), 'audit')}/v1`;
const OWN_V1 = `${groupName(namingProfile('spec'), 'audit')}/v1`;

describe('audit flags', () => {
  it('no policy, log path or webhook configuration: audit off', () => {
    assert.equal(parse().audit, undefined);
    // A backend's other flags alone turn nothing on (upstream checks them only for a backend in use).
    assert.equal(parse('--audit-log-mode=nonsense', '--audit-log-maxage=-1').audit, undefined);
  });

  it("a log path: the log section with kube-apiserver's defaults", () => {
    assert.deepEqual(parse('--audit-policy-file=p.yaml', '--audit-log-path=/var/log/audit.log').audit, {
      policyFile: 'p.yaml',
      log: {
        path: '/var/log/audit.log',
        format: 'json',
        maxAgeDays: 366,
        maxBackups: 100,
        maxSizeMB: 100,
        compress: false,
        mode: 'blocking',
        batch: {
          bufferSize: 10000,
          maxSize: 1,
          maxWaitMs: 0,
          throttleEnable: false,
          throttleQps: 0,
          throttleBurst: 0,
        },
        truncate: { enabled: false, maxBatchSize: 10485760, maxEventSize: 102400 },
        version: undefined,
      },
    });
  });

  it("a webhook configuration: the webhook section with kube-apiserver's defaults", () => {
    assert.deepEqual(parse('--audit-webhook-config-file=w.yaml').audit, {
      webhook: {
        configFile: 'w.yaml',
        initialBackoffMs: 10_000,
        mode: 'batch',
        batch: {
          bufferSize: 10000,
          maxSize: 400,
          maxWaitMs: 30_000,
          throttleEnable: true,
          throttleQps: 10,
          throttleBurst: 15,
        },
        truncate: { enabled: false, maxBatchSize: 10485760, maxEventSize: 102400 },
        version: undefined,
      },
    });
  });

  it('every flag maps onto its option', () => {
    const a = parse(
      '--audit-policy-file=p.yaml',
      '--audit-log-path=-',
      '--audit-log-maxage=3',
      '--audit-log-maxbackup=4',
      '--audit-log-maxsize=5',
      '--audit-log-format=legacy',
      '--audit-log-compress',
      '--audit-log-mode=batch',
      '--audit-log-batch-buffer-size=6',
      '--audit-log-batch-max-size=7',
      '--audit-log-batch-max-wait=8s',
      '--audit-log-batch-throttle-enable',
      '--audit-log-batch-throttle-qps=1.5',
      '--audit-log-batch-throttle-burst=9',
      '--audit-log-truncate-enabled',
      '--audit-log-truncate-max-batch-size=2000',
      '--audit-log-truncate-max-event-size=1000',
      `--audit-log-version=${UPSTREAM_V1}`,
      '--audit-webhook-config-file=w.yaml',
      '--audit-webhook-initial-backoff=2s',
      '--audit-webhook-mode=blocking-strict',
      '--audit-webhook-batch-max-size=10',
      '--audit-webhook-batch-throttle-enable=false',
      '--audit-webhook-truncate-enabled=true',
      `--audit-webhook-version=${OWN_V1}`,
    ).audit;
    assert.equal(a?.policyFile, 'p.yaml');
    assert.deepEqual(a?.log, {
      path: '-',
      format: 'legacy',
      maxAgeDays: 3,
      maxBackups: 4,
      maxSizeMB: 5,
      compress: true,
      mode: 'batch',
      batch: {
        bufferSize: 6,
        maxSize: 7,
        maxWaitMs: 8000,
        throttleEnable: true,
        throttleQps: 1.5,
        throttleBurst: 9,
      },
      truncate: { enabled: true, maxBatchSize: 2000, maxEventSize: 1000 },
      version: UPSTREAM_V1,
    });
    assert.equal(a?.webhook?.initialBackoffMs, 2000);
    assert.equal(a?.webhook?.mode, 'blocking-strict');
    assert.equal(a?.webhook?.batch?.maxSize, 10);
    assert.equal(a?.webhook?.batch?.throttleEnable, false);
    assert.equal(a?.webhook?.truncate?.enabled, true);
    assert.equal(a?.webhook?.version, OWN_V1);
  });

  it("a value that is not a number: pflag's message", () => {
    assert.throws(
      () => parse('--audit-log-maxage=many'),
      (err: Error) =>
        err instanceof FlagError &&
        err.message ===
          'invalid argument "many" for "--audit-log-maxage" flag: strconv.ParseInt: parsing "many": invalid syntax',
    );
    assert.throws(
      () => parse('--audit-webhook-batch-throttle-qps=fast'),
      /strconv\.ParseFloat: parsing "fast"/,
    );
    // Negative numbers parse: refusing them is validation's job, with upstream's message.
    assert.equal(parse('--audit-log-path=x', '--audit-log-maxage=-1').audit?.log?.maxAgeDays, -1);
  });
});

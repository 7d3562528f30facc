import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namingProfile } from '../../naming/profile.ts';
import type { AuditOptions } from './options.ts';
import { aggregateErrors, validateAuditOptions } from './options-validation.ts';
import { auditGroup } from './policy-types.ts';

const SPEC = namingProfile('spec');
const check = (o: AuditOptions) => validateAuditOptions(o, SPEC);
const OWN = `${auditGroup(SPEC)}/v1`;
const UPSTREAM = `${auditGroup(namingProfile('upstream'))}/v1`;

describe('audit options validation', () => {
  it('defaults and upstream spellings pass', () => {
    assert.deepEqual(check({ log: { path: 'a.log' }, webhook: { configFile: 'w.yaml' } }), []);
    assert.deepEqual(check({ log: { path: 'a.log', version: UPSTREAM } }), []);
    assert.deepEqual(check({ log: { path: 'a.log', version: OWN } }), []);
  });

  it('a backend that is off is not checked', () => {
    assert.deepEqual(check({ log: { path: '', mode: 'x' as never, maxAgeDays: -1 } }), []);
    assert.deepEqual(check({ webhook: { configFile: '', mode: 'x' as never } }), []);
  });

  it("the log's checks, in upstream's order and words", () => {
    assert.deepEqual(
      check({
        log: {
          path: 'a.log',
          mode: 'sometimes' as never,
          truncate: { maxEventSize: 0 },
          version: `${auditGroup(SPEC)}/v2`,
          format: 'xml' as never,
          maxAgeDays: -1,
          maxBackups: -2,
          maxSizeMB: -3,
        },
      }),
      [
        'invalid audit log mode sometimes, allowed modes are "batch,blocking,blocking-strict"',
        'invalid audit truncate log max event size 0, must be a positive number',
        `invalid group version, allowed versions are ["${OWN}"]`,
        'invalid audit log format xml, allowed formats are "legacy,json"',
        "--audit-log-maxage -1 can't be a negative number",
        "--audit-log-maxbackup -2 can't be a negative number",
        "--audit-log-maxsize -3 can't be a negative number",
      ],
    );
  });

  it('batch mode checks its sizes and, when throttled, the throttle', () => {
    const log = (batch: object) => check({ log: { path: 'a', mode: 'batch', batch } });
    assert.deepEqual(log({ bufferSize: 0 }), [
      'invalid audit batch log buffer size 0, must be a positive number',
    ]);
    assert.deepEqual(log({ maxSize: -1 }), [
      'invalid audit batch log max batch size -1, must be a positive number',
    ]);
    // The log's throttle is off by default: its zero QPS is not looked at.
    assert.deepEqual(log({}), []);
    assert.deepEqual(log({ throttleEnable: true }), [
      'invalid audit batch log throttle QPS 0, must be a positive number',
    ]);
    assert.deepEqual(check({ webhook: { configFile: 'w', batch: { throttleBurst: 0 } } }), [
      'invalid audit batch webhook throttle burst 0, must be a positive number',
    ]);
    // Not in batch mode, the batch is not looked at.
    assert.deepEqual(check({ webhook: { configFile: 'w', mode: 'blocking', batch: { bufferSize: 0 } } }), []);
  });

  it('truncation limits and versions of the webhook', () => {
    assert.deepEqual(
      check({
        webhook: { configFile: 'w', truncate: { maxBatchSize: 10, maxEventSize: 20 }, version: 'a/b/c' },
      }),
      [
        'invalid audit truncate webhook max batch size 10, must be greater than max event size (20)',
        'unexpected GroupVersion string: a/b/c',
      ],
    );
    assert.deepEqual(check({ webhook: { configFile: 'w', version: 'v1' } }), [
      `invalid group version, allowed versions are ["${OWN}"]`,
    ]);
  });

  it("several errors read as Go's aggregate", () => {
    assert.equal(aggregateErrors(['a']), 'a');
    assert.equal(aggregateErrors(['a', 'b']), '[a, b]');
  });
});

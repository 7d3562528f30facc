// Lease rules as upstream words them, and its MicroTime fields.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorString } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { namingProfile } from '../../naming/profile.ts';
import { leaseKind } from './lease.ts';

const kind = leaseKind(namingProfile('spec'));
const validate = (spec: Record<string, unknown>) => kind.strategy.validate({ spec }).map(errorString);

describe('Lease rules', () => {
  it('strategy: a known bare name or a qualified name; preferredHolder needs a strategy', () => {
    assert.deepEqual(validate({ strategy: 'OldestEmulationVersion', preferredHolder: 'a' }), []);
    assert.deepEqual(validate({ strategy: 'example.com/mine' }), []);
    assert.deepEqual(validate({ strategy: 'Newest' }), [
      'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
    ]);
    assert.deepEqual(validate({ preferredHolder: 'node-1' }), [
      'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
    ]);
  });

  it('acquire and renew times are MicroTimes: six fraction digits, written back in UTC', () => {
    const ok = { spec: { renewTime: '2024-05-01T12:00:00.000001+02:00' } } as ApiObject;
    assert.deepEqual(kind.schema.normalize(ok).typeErrors, []);
    assert.equal((ok.spec as Record<string, unknown>).renewTime, '2024-05-01T10:00:00.000001Z');
    const bad = kind.schema.normalize({ spec: { acquireTime: '2024-05-01T12:00:00Z' } } as ApiObject);
    assert.deepEqual(bad.typeErrors, [
      'parsing time "2024-05-01T12:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    ]);
  });

  it('a duration that is not an int32 is a decode error naming LeaseSpec', () => {
    const r = kind.schema.normalize({ spec: { leaseDurationSeconds: '15' } } as unknown as ApiObject);
    assert.deepEqual(r.typeErrors, [
      'json: cannot unmarshal string into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32',
    ]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupName, namingProfile } from '../../naming/profile.ts';
import { leaseKind } from './lease.ts';

describe('Lease', () => {
  const kind = leaseKind(namingProfile('spec'));
  it('lives in the profile coordination group', () => {
    assert.equal(kind.resource.group, groupName(namingProfile('spec'), 'coordination'));
    assert.equal(
      leaseKind(namingProfile('upstream')).resource.group,
      groupName(namingProfile('upstream'), 'coordination'),
    );
  });

  it('duration must be positive and transitions not negative', () => {
    const errs = kind.strategy.validate({
      metadata: { name: 'l' },
      spec: { leaseDurationSeconds: 0, leaseTransitions: -1 },
    });
    assert.deepEqual(
      errs.map((e) => `${e.field}: ${e.detail}`),
      [
        'spec.leaseDurationSeconds: must be greater than 0',
        'spec.leaseTransitions: must be greater than or equal to 0',
      ],
    );
  });

  it('table shows the holder', () => {
    const cells = kind.table?.map((c) =>
      c.cell({ metadata: { name: 'l' }, spec: { holderIdentity: 'node-1' } }),
    );
    assert.deepEqual(cells?.slice(0, 2), ['l', 'node-1']);
  });
});

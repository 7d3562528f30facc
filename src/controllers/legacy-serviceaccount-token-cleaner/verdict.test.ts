// The legacy token cleaner's decisions as upstream takes them: only old, unused, auto-generated,
// unmounted tokens are touched; first labelled invalid since today, then deleted once that label
// is older than the period; malformed days; and the Secrets a Pod refers to.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { namingProfile } from '../../naming/profile.ts';
import { serviceAccountNames } from '../../naming/service-accounts.ts';
import { podSecretNames } from './pod-secrets.ts';
import { legacyTokenVerdict, parseDay, utcDay, type VerdictInputs } from './verdict.ts';

const names = serviceAccountNames(namingProfile('spec'));
const NOW = Date.parse('2030-06-15T12:00:00Z');
const PERIOD = 30 * 24 * 3600_000;
// The period began on 2030-05-16.
const account: ApiObject = {
  metadata: { name: 'builder', namespace: 'ns1', uid: 'u1' },
  secrets: [{ name: 'tok' }],
};

function secret(labels: Record<string, string> = {}, extra: Partial<ApiObject['metadata']> = {}): ApiObject {
  return {
    type: names.tokenSecretType,
    metadata: {
      name: 'tok',
      namespace: 'ns1',
      creationTimestamp: '2029-01-01T00:00:00Z',
      annotations: { [names.nameAnnotation]: 'builder', [names.uidAnnotation]: 'u1' },
      labels,
      ...extra,
    },
  };
}

function inputs(over: Partial<VerdictInputs> = {}): VerdictInputs {
  return { now: NOW, cleanUpPeriodMs: PERIOD, account, mounted: () => new Set(), names, ...over };
}

describe('legacy token verdicts', () => {
  it('labels an old, unused, auto-generated token invalid since today', () => {
    assert.deepEqual(legacyTokenVerdict(secret(), inputs()), { action: 'label', invalidSince: '2030-06-15' });
    assert.deepEqual(legacyTokenVerdict(secret({ [names.legacyLastUsedLabel]: '2030-05-15' }), inputs()), {
      action: 'label',
      invalidSince: '2030-06-15',
    });
    assert.equal(
      legacyTokenVerdict(secret({ [names.legacyInvalidSinceLabel]: 'yesterday' }), inputs()).action,
      'label',
    );
  });

  it('deletes it once invalid for longer than the period', () => {
    assert.deepEqual(
      legacyTokenVerdict(
        secret({ [names.legacyInvalidSinceLabel]: '2030-05-15', [names.legacyLastUsedLabel]: '2029-02-01' }),
        inputs(),
      ),
      { action: 'delete', lastUsed: '2029-02-01', invalidSince: '2030-05-15' },
    );
    assert.equal(
      legacyTokenVerdict(secret({ [names.legacyInvalidSinceLabel]: '2030-05-16' }), inputs()).action,
      'keep',
    );
  });

  it('keeps everything else', () => {
    const keep = (s: ApiObject, i = inputs()) => assert.equal(legacyTokenVerdict(s, i).action, 'keep');
    keep({ ...secret(), type: 'Opaque' });
    keep(secret({}, { creationTimestamp: '2030-06-01T00:00:00Z' }));
    keep(secret({}, { deletionTimestamp: '2030-06-15T00:00:00Z' }));
    keep(secret({ [names.legacyLastUsedLabel]: '2030-05-16' }));
    keep(secret({ [names.legacyLastUsedLabel]: '2030-02-30' }));
    keep(secret(), inputs({ account: undefined }));
    keep(secret({}, { annotations: { [names.uidAnnotation]: 'u1' } }));
    keep(secret({}, { annotations: { [names.nameAnnotation]: 'builder', [names.uidAnnotation]: 'u2' } }));
    keep(secret(), inputs({ account: { ...account, secrets: [] } }));
    keep(secret(), inputs({ mounted: () => new Set(['tok']) }));
  });

  it('takes a token without a creation time as old and without a uid annotation as the account', () => {
    assert.equal(legacyTokenVerdict(secret({}, { creationTimestamp: undefined }), inputs()).action, 'label');
    const noUid = secret({}, { annotations: { [names.nameAnnotation]: 'builder' } });
    assert.equal(legacyTokenVerdict(noUid, inputs()).action, 'label');
  });

  it('reads days strictly', () => {
    assert.equal(utcDay(Date.parse('2030-01-02T23:59:59Z')), '2030-01-02');
    assert.equal(parseDay('2030-01-02'), Date.parse('2030-01-02T00:00:00Z'));
    for (const bad of ['2030-1-02', '2030-13-01', '2030-02-29', '20300102', '', '2030-01-02T00:00:00Z'])
      assert.equal(parseDay(bad), undefined, bad);
    assert.equal(parseDay('2028-02-29'), Date.parse('2028-02-29T00:00:00Z'));
  });
});

describe('podSecretNames', () => {
  it('finds every reference upstream visits', () => {
    const pod: ApiObject = {
      spec: {
        imagePullSecrets: [{ name: 'pull' }, {}],
        initContainers: [{ env: [{ valueFrom: { secretKeyRef: { name: 'init-env' } } }] }],
        containers: [
          { envFrom: [{ secretRef: { name: 'from' } }, { configMapRef: { name: 'cm' } }] },
          { env: [{ name: 'X', value: 'y' }] },
        ],
        ephemeralContainers: [{ env: [{ valueFrom: { secretKeyRef: { name: 'eph' } } }] }],
        volumes: [
          { secret: { secretName: 'vol' } },
          { azureFile: { secretName: 'azure' } },
          { cephfs: { secretRef: { name: 'ceph' } } },
          { cinder: { secretRef: { name: 'cinder' } } },
          { flexVolume: { secretRef: { name: 'flex' } } },
          { iscsi: { secretRef: { name: 'iscsi' } } },
          { rbd: { secretRef: { name: 'rbd' } } },
          { scaleIO: { secretRef: { name: 'scaleio' } } },
          { storageos: { secretRef: { name: 'storageos' } } },
          { csi: { nodePublishSecretRef: { name: 'csi' } } },
          { projected: { sources: [{ secret: { name: 'proj' } }, { configMap: { name: 'cm' } }] } },
          { configMap: { name: 'cm' } },
        ],
      },
    };
    assert.deepEqual(
      [...podSecretNames(pod)].sort(),
      [
        'azure',
        'ceph',
        'cinder',
        'csi',
        'eph',
        'flex',
        'from',
        'init-env',
        'iscsi',
        'proj',
        'pull',
        'rbd',
        'scaleio',
        'storageos',
        'vol',
      ].sort(),
    );
  });

  it('skips odd shapes', () => {
    assert.deepEqual([...podSecretNames({})], []);
    assert.deepEqual(
      [...podSecretNames({ spec: { containers: 'x', volumes: [null, 5, { secret: [] }] } })],
      [],
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { componentName, groupName, labelKey, namingProfile, UPSTREAM_ALIASES } from './index.ts';

describe('naming profiles', () => {
  it('the spec profile uses the spec names', () => {
    const p = namingProfile('spec');
    assert.equal(groupName(p, 'certificates'), 'certificates.svc.io');
    assert.equal(labelKey(p, 'deprecated'), 'platform.io/deprecated');
    assert.equal(componentName(p, 'system'), 'plat-system');
    assert.equal(p.clientConfig, 'platconfig');
  });

  it('the upstream profile uses the upstream names', () => {
    const p = namingProfile('upstream');
    assert.equal(groupName(p, 'coordination'), 'coordination.k8s.io');
    assert.equal(componentName(p, 'public'), 'kube-public');
    assert.equal(p.protobufMediaType, UPSTREAM_ALIASES.protobufMediaType);
  });
});

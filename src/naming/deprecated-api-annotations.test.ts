import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deprecatedApiAnnotationKey, removedReleaseAnnotationKey } from './deprecated-api-annotations.ts';
import { namingProfile } from './profile.ts';

describe('deprecated API annotation keys', () => {
  it("are the spec's domain under the spec profile and upstream's under upstream's", () => {
    assert.equal(deprecatedApiAnnotationKey(namingProfile('spec')), 'platform.io/deprecated');
    assert.equal(removedReleaseAnnotationKey(namingProfile('spec')), 'platform.io/removed-release');
    assert.equal(deprecatedApiAnnotationKey(namingProfile('upstream')), 'k8s.io/deprecated');
    assert.equal(removedReleaseAnnotationKey(namingProfile('upstream')), 'k8s.io/removed-release');
  });
});

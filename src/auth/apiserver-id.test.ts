// The server identity as upstream derives it (checked against an independent computation) and the
// hash metrics label with (upstream's own test constant).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namingProfile } from '../naming/profile.ts';
import { apiServerId, metricHash } from './apiserver-id.ts';

describe('apiserver identity', () => {
  it('is apiserver- and the base32 of sha256 over the length-prefixed host and component names', () => {
    // Python: base32(sha256(b"\x00\x0enode-a.example\x00\x0ekube-apiserver")[:16]), lower case, unpadded.
    assert.equal(
      apiServerId(namingProfile('upstream'), 'node-a.example'),
      'apiserver-7sr7focdb7iv2sarq37fk6e3fm',
    );
    // The profile's component name takes part: the spec profile's id differs, and is stable.
    const spec = apiServerId(namingProfile('spec'), 'node-a.example');
    assert.match(spec, /^apiserver-[a-z2-7]{26}$/);
    assert.notEqual(spec, apiServerId(namingProfile('upstream'), 'node-a.example'));
    assert.equal(spec, apiServerId(namingProfile('spec'), 'node-a.example'));
    assert.notEqual(spec, apiServerId(namingProfile('spec'), 'node-b.example'));
  });

  it('hashes as upstream labels: sha256 in hex behind a prefix, empty for empty', () => {
    assert.equal(
      metricHash('testAPIServerID'),
      'sha256:14f9d63e669337ac6bfda2e2162915ee6a6067743eddd4e5c374b572f951ff37',
    );
    assert.equal(metricHash(''), '');
  });
});

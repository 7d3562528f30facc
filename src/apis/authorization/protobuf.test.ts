// The bytes stock kubectl (client-go 1.32) sends for `kubectl auth can-i get pods` and
// `kubectl auth can-i --list -n x`, captured with -v=8: our decoder reads them as upstream's JSON
// would be, and our encoder writes the same bytes back (Go value fields written even when empty).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtobuf, encodeProtobuf } from '../../codec/protobuf/index.ts';
import { namingProfile } from '../../naming/profile.ts';
import { authorizationKinds } from './index.ts';

const kinds = authorizationKinds(namingProfile('upstream'));
const lookup = (_apiVersion: string, kind: string) => kinds.find((k) => k.resource.kind === kind)?.schema;

const SSAR = Buffer.from(
  '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f763112' +
    '1753656c665375626a6563744163636573735265766965771' +
    '23c0a100a0012001a0022002a00320038004200121e0a1c' +
    '0a0764656661756c741203676574' +
    '1a0022002a04706f64733200' +
    '3a001a0808001200' +
    '1a00200' +
    '01a002200',
  'hex',
);

const SSRR = Buffer.from(
  '6b3873000a310a17617574686f72697a6174696f6e2e6b38732e696f2f763112' +
    '1653656c665375626a65637452756c657352657669657712' +
    '1d0a100a0012001a0022002a00320038004200120' +
    '30a0178' +
    '1a04180022001a002200',
  'hex',
);

describe('authorization protobuf', () => {
  it('SelfSubjectAccessReview from kubectl', () => {
    const obj = decodeProtobuf(lookup, SSAR);
    assert.deepEqual(obj, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } },
      status: { allowed: false },
    });
    const schema = lookup('', 'SelfSubjectAccessReview');
    assert.ok(schema);
    assert.equal(encodeProtobuf(schema, obj).toString('hex'), SSAR.toString('hex'));
  });

  it('SelfSubjectRulesReview from kubectl', () => {
    const obj = decodeProtobuf(lookup, SSRR);
    assert.deepEqual(obj, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: {},
      spec: { namespace: 'x' },
      // Go's nil lists: absent after decoding (upstream's JSON would say null).
      status: { incomplete: false },
    });
    const schema = lookup('', 'SelfSubjectRulesReview');
    assert.ok(schema);
    assert.equal(encodeProtobuf(schema, obj).toString('hex'), SSRR.toString('hex'));
  });
});

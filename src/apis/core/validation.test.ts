// The core kinds' rules checked against upstream's texts, paths and order.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorString } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { bootstrapTokenSecretType } from '../../naming/bootstrap-tokens.ts';
import { labelKey, namingProfile } from '../../naming/profile.ts';
import { configMapKind } from './configmap.ts';
import { coreKinds } from './index.ts';
import { namespaceKind } from './namespace.ts';
import { secretKind } from './secret.ts';
import { serviceAccountKind } from './serviceaccount.ts';

const profile = namingProfile('spec');
const texts = (errs: ReturnType<typeof configMapKind.strategy.validate>) => errs.map(errorString);
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('ConfigMap rules', () => {
  const s = configMapKind.strategy;

  it('sizes count text bytes and decoded binary bytes; too much is reported on the empty path', () => {
    const half = 512 * 1024;
    assert.deepEqual(
      texts(s.validate({ data: { a: 'x'.repeat(half) }, binaryData: { b: b64('y'.repeat(half)) } })),
      [],
    );
    assert.deepEqual(
      texts(s.validate({ data: { a: 'x'.repeat(half + 1) }, binaryData: { b: b64('y'.repeat(half)) } })),
      ['[]: Too long: may not be more than 1048576 bytes'],
    );
  });

  it('key rules: length, characters, dot names', () => {
    const long = 'k'.repeat(254);
    assert.deepEqual(texts(s.validate({ data: { [long]: '', '.': '', '..x': '', 'a b': '' } })), [
      `data[${long}]: Invalid value: "${long}": must be no more than 253 characters`,
      `data[.]: Invalid value: ".": must not be '.'`,
      `data[..x]: Invalid value: "..x": must not start with '..'`,
      `data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ]);
  });

  it('immutable: binaryData is frozen too; an empty map is the same as none', () => {
    const old: ApiObject = { data: {}, binaryData: { b: 'AA==' }, immutable: true };
    assert.deepEqual(texts(s.validateUpdate({ binaryData: { b: 'AA==' }, immutable: true }, old)), []);
    assert.deepEqual(texts(s.validateUpdate({ data: {}, binaryData: { b: 'AQ==' }, immutable: true }, old)), [
      'binaryData: Forbidden: field is immutable when `immutable` is set',
    ]);
    assert.deepEqual(
      texts(s.validateUpdate({ data: { a: '1' } }, { data: { a: '0' }, immutable: false })),
      [],
    );
  });

  it('decode errors name the map field, not the key', () => {
    const r = configMapKind.schema.normalize({ binaryData: { k: 1 } } as unknown as ApiObject);
    assert.deepEqual(r.typeErrors, [
      'json: cannot unmarshal number into Go struct field ConfigMap.binaryData of type []uint8',
    ]);
  });

  it('validation never throws, even on values the decoder would have refused', () => {
    for (const v of [{ data: { a: 5 } }, { data: 'x' }, { binaryData: [1] }, { data: null }]) {
      assert.doesNotThrow(() => s.validate(v as unknown as ApiObject));
    }
  });
});

describe('Secret rules', () => {
  const kind = secretKind(profile);
  const s = kind.strategy;
  const t = (name: string) => labelKey(profile, name);

  it('too much data is reported on data', () => {
    assert.deepEqual(texts(s.validate({ data: { a: b64('x'.repeat(1024 * 1024 + 1)) } })), [
      'data: Too long: may not be more than 1048576 bytes',
    ]);
  });

  it('bootstrap token Secrets: id, secret, name, expiration and extra groups in their formats', () => {
    const type = bootstrapTokenSecretType(profile);
    const secret = (name: string, data: Record<string, string>): ApiObject => ({
      metadata: { name },
      type,
      data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
    });
    const good = {
      'token-id': 'abcdef',
      'token-secret': '0123456789abcdef',
      expiration: '2030-01-02T15:04:05Z',
      'usage-bootstrap-authentication': 'true',
      'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:ingress',
    };
    assert.deepEqual(texts(s.validate(secret('bootstrap-token-abcdef', good))), []);
    assert.deepEqual(
      texts(
        s.validate(
          secret('bootstrap-token-abcdef', {
            'token-id': 'ABCDEF',
            'token-secret': 'short',
            expiration: 'tomorrow',
            'auth-extra-groups': 'system:bootstrappers:ok,admins',
          }),
        ),
      ),
      [
        'data[token-id]: Invalid value: "ABCDEF": must match ^[a-z0-9]{6}$',
        'data[token-secret]: Invalid value: "<secret contents redacted>": must match ^[a-z0-9]{16}$',
        'data[expiration]: Invalid value: "tomorrow": must be an RFC 3339 time (for example 2030-01-02T15:04:05Z)',
        'data[auth-extra-groups]: Invalid value: "system:bootstrappers:ok,admins": bootstrap group "admins" is invalid (must match ^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$)',
      ],
    );
    assert.deepEqual(texts(s.validate(secret('bootstrap-token-zzzzzz', good))), [
      'metadata.name: Invalid value: "bootstrap-token-zzzzzz": must be bootstrap-token-abcdef for token-id abcdef',
    ]);
    assert.deepEqual(texts(s.validate(secret('bootstrap-token-abcdef', {}))), [
      'data[token-id]: Required value',
      'data[token-secret]: Required value',
    ]);
    // Other Secret types are not held to these rules.
    assert.deepEqual(texts(s.validate({ ...secret('x', { 'token-id': 'BAD' }), type: 'Opaque' })), []);
  });

  it('basic-auth needs a username or a password; ssh-auth its private key', () => {
    assert.deepEqual(texts(s.validate({ type: t('basic-auth'), data: {} })), [
      'data[username]: Required value',
      'data[password]: Required value',
    ]);
    assert.deepEqual(texts(s.validate({ type: t('basic-auth'), data: { password: 'cA==' } })), []);
    assert.deepEqual(texts(s.validate({ type: t('ssh-auth') })), ['data[ssh-privatekey]: Required value']);
  });

  it('docker configurations must be present and hold a JSON object', () => {
    assert.deepEqual(texts(s.validate({ type: t('dockerconfigjson') })), [
      'data[.dockerconfigjson]: Required value',
    ]);
    assert.deepEqual(
      texts(s.validate({ type: t('dockercfg'), data: { '.dockercfg': b64('{"auths":{}}') } })),
      [],
    );
    assert.deepEqual(
      texts(s.validate({ type: t('dockerconfigjson'), data: { '.dockerconfigjson': b64('nope') } })),
      [
        `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'n' looking for beginning of value`,
      ],
    );
  });

  it('stringData also merges on update, and a wrongly typed type is a decode error naming SecretType', () => {
    const next: ApiObject = { data: { a: 'YQ==' }, stringData: { a: 'new' } };
    s.prepareForUpdate?.(next, { data: { a: 'YQ==' } });
    assert.deepEqual(next, { data: { a: b64('new') } });
    assert.deepEqual(kind.schema.normalize({ type: 5 } as unknown as ApiObject).typeErrors, [
      'json: cannot unmarshal number into Go struct field Secret.type of type v1.SecretType',
    ]);
  });

  it('immutable secrets keep their data', () => {
    assert.deepEqual(
      texts(
        s.validateUpdate(
          { type: 'Opaque', data: { a: 'Yg==' }, immutable: true },
          { type: 'Opaque', data: { a: 'YQ==' }, immutable: true },
        ),
      ),
      ['data: Forbidden: field is immutable when `immutable` is set'],
    );
  });
});

describe('Namespace rules', () => {
  const kind = namespaceKind(profile);
  const s = kind.strategy;

  it('create keeps the finalizers asked for and adds the system one once', () => {
    const ns: ApiObject = { metadata: { name: 'a' }, spec: { finalizers: ['example.com/keep'] } };
    s.prepareForCreate?.(ns);
    assert.deepEqual(ns.spec, { finalizers: ['example.com/keep', 'platform'] });
    const again: ApiObject = { metadata: { name: 'b' }, spec: { finalizers: ['platform'] } };
    s.prepareForCreate?.(again);
    assert.deepEqual(again.spec, { finalizers: ['platform'] });
  });

  it('finalizer names are qualified, and bare ones must be standard', () => {
    const errs = texts(
      s.validate({ spec: { finalizers: ['platform', 'orphan', 'a.io/x', 'mine', 'a/b/c'] } }),
    );
    assert.equal(errs.length, 2);
    assert.equal(
      errs[0],
      'spec.finalizers[3]: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified',
    );
    // The qualified-name wording itself is machinery's (isQualifiedName).
    assert.ok(errs[1].startsWith('spec.finalizers[4]: Invalid value: "a/b/c": '), errs[1]);
  });

  it('the phase follows the deletion timestamp', () => {
    const live: ApiObject = { metadata: { name: 'a' }, status: { phase: 'Terminating' } };
    assert.deepEqual(texts(s.validateUpdate(live, live)), [
      'status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty',
    ]);
    const dying: ApiObject = {
      metadata: { name: 'a', deletionTimestamp: '2024-01-01T00:00:00Z' },
      status: { phase: 'Active' },
    };
    assert.deepEqual(texts(s.validateUpdate(dying, dying)), [
      'status.Phase: Invalid value: "Active": may only be \'Terminating\' if `deletionTimestamp` is not empty',
    ]);
    assert.deepEqual(
      texts(s.validateUpdate({ metadata: { name: 'a' }, status: { phase: 'Active' } }, live)),
      [],
    );
  });

  it('the name label waits for a name', () => {
    const ns: ApiObject = { metadata: { generateName: 'x-' } };
    s.prepareForCreate?.(ns);
    assert.equal(ns.metadata?.labels, undefined);
  });

  it('a bad phase gets the deletion rule only, as upstream (the enum documents)', () => {
    const ns: ApiObject = {
      metadata: { name: 'a' },
      status: { phase: 'Sleeping', conditions: [{ type: 'X' }] },
    };
    assert.deepEqual(texts([...s.validate(ns), ...s.validateUpdate(ns, ns)]), [
      'status.Phase: Invalid value: "Sleeping": may only be \'Active\' if `deletionTimestamp` is empty',
    ]);
  });

  it('conditions are typed: unknown fields in them are pruned', () => {
    const obj = { status: { conditions: [{ type: 'X', status: 'True', junk: 1 }] } } as unknown as ApiObject;
    assert.deepEqual(kind.schema.normalize(obj).unknownFields, ['status.conditions[0].junk']);
  });
});

describe('ServiceAccount rules', () => {
  it('image pull secrets are LocalObjectReferences', () => {
    const r = serviceAccountKind.schema.normalize({
      imagePullSecrets: [{ name: 1 }],
    } as unknown as ApiObject);
    assert.deepEqual(r.typeErrors, [
      'json: cannot unmarshal number into Go struct field LocalObjectReference.imagePullSecrets.name of type string',
    ]);
  });
});

describe('core metadata rules', () => {
  it('every core kind refuses bare metadata finalizers that are not standard, at their index', () => {
    for (const kind of coreKinds(profile)) {
      const errs = texts(
        kind.strategy.validate({ metadata: { name: 'a', finalizers: ['orphan', 'mine', 'x.io/y'] } }),
      );
      assert.equal(
        errs[0],
        'metadata.finalizers[1]: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified',
        kind.resource.kind,
      );
    }
  });
});

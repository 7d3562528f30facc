import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldError } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { labelKey, namingProfile } from '../../naming/profile.ts';
import { humanDuration } from '../printing.ts';
import { configMapKind } from './configmap.ts';
import { namespaceKind } from './namespace.ts';
import { secretKind } from './secret.ts';
import { serviceAccountKind } from './serviceaccount.ts';

const profile = namingProfile('spec');
const msgs = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.type}: ${e.detail}`);

describe('ConfigMap', () => {
  const s = configMapKind.strategy;
  it('keys must be config keys and unique across data and binaryData', () => {
    const errs = s.validate({
      metadata: { name: 'a' },
      data: { 'ok.key': '1', 'bad key': '2', '..': '3' },
      binaryData: { 'ok.key': 'AA==' },
    });
    const text = msgs(errs).join('\n');
    assert.match(
      text,
      /data\[bad key\]: FieldValueInvalid: a valid config key must consist of alphanumeric characters/,
    );
    assert.match(text, /data\[\.\.\]: FieldValueInvalid: must not be '\.\.'/);
    // Upstream reports the clash on the data key.
    assert.match(text, /data\[ok\.key\]: FieldValueInvalid: duplicate of key present in binaryData/);
  });

  it('data over 1 MiB is too long', () => {
    const errs = s.validate({ metadata: { name: 'a' }, data: { k: 'x'.repeat(1024 * 1024 + 1) } });
    assert.equal(errs[0]?.type, 'FieldValueTooLong');
  });

  it('immutable: data and the flag itself are frozen, metadata is not', () => {
    const old = { metadata: { name: 'a' }, data: { k: '1' }, immutable: true };
    assert.deepEqual(s.validateUpdate({ ...old, metadata: { name: 'a', labels: { x: 'y' } } }, old), []);
    const changed = msgs(s.validateUpdate({ ...old, data: { k: '2' }, immutable: false }, old));
    assert.deepEqual(changed, [
      'immutable: FieldValueForbidden: field is immutable when `immutable` is set',
      'data: FieldValueForbidden: field is immutable when `immutable` is set',
    ]);
  });

  it('unknown fields are pruned and reported; wrong types are decode errors', () => {
    const obj: ApiObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', bogus: 1 },
      data: { k: 'v' },
      extra: true,
    };
    const r = configMapKind.schema.normalize(obj);
    assert.deepEqual(r.unknownFields.sort(), ['extra', 'metadata.bogus']);
    assert.equal(obj.extra, undefined);
    const bad = configMapKind.schema.normalize({ metadata: { name: 'a' }, data: { k: 5 } } as ApiObject);
    // Go's decoder names the map field, never the key.
    assert.deepEqual(bad.typeErrors, [
      'json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    ]);
  });

  it('normalize never throws on garbage', () => {
    for (const v of [
      { data: null },
      { data: [] },
      { metadata: 'x' },
      { metadata: { labels: [1] } },
      { binaryData: { k: '!!' } },
    ]) {
      assert.doesNotThrow(() => configMapKind.schema.normalize(v as ApiObject));
    }
  });

  it('table cells: name, key count, age', () => {
    const obj = {
      metadata: { name: 'a', creationTimestamp: new Date(Date.now() - 65_000).toISOString() },
      data: { a: '1' },
      binaryData: { b: 'AA==' },
    };
    assert.deepEqual(
      configMapKind.table?.map((c) => c.cell(obj)),
      ['a', 2, '65s'],
    );
  });
});

describe('Secret', () => {
  const kind = secretKind(profile);
  const s = kind.strategy;
  it('stringData merges into data as base64 and disappears; type defaults to Opaque', () => {
    const obj: ApiObject = {
      metadata: { name: 's' },
      data: { a: 'YQ==' },
      stringData: { b: 'bee', a: 'over' },
    };
    s.prepareForCreate?.(obj);
    s.applyDefaults?.(obj);
    assert.deepEqual(obj.data, {
      a: Buffer.from('over').toString('base64'),
      b: Buffer.from('bee').toString('base64'),
    });
    assert.equal(obj.stringData, undefined);
    assert.equal(obj.type, 'Opaque');
  });

  it('typed secrets need their keys; the type never changes', () => {
    const tls = msgs(
      s.validate({ metadata: { name: 's' }, type: labelKey(profile, 'tls'), data: { 'tls.crt': 'AA==' } }),
    );
    assert.deepEqual(tls, ['data[tls.key]: FieldValueRequired: ']);
    const sa = msgs(
      s.validate({ metadata: { name: 's' }, type: labelKey(profile, 'service-account-token') }),
    );
    assert.deepEqual(sa, [
      `metadata.annotations[${labelKey(profile, 'service-account.name')}]: FieldValueRequired: `,
    ]);
    const changed = msgs(
      s.validateUpdate({ metadata: { name: 's' }, type: 'b' }, { metadata: { name: 's' }, type: 'a' }),
    );
    assert.deepEqual(changed, ['type: FieldValueInvalid: field is immutable']);
  });

  it('data that is not base64 is a decode error', () => {
    const r = kind.schema.normalize({ metadata: { name: 's' }, data: { k: 'not base64!' } } as ApiObject);
    assert.equal(r.typeErrors.length, 1);
    assert.match(r.typeErrors[0], /illegal base64 data at input byte 3/);
  });
});

describe('Namespace', () => {
  const kind = namespaceKind(profile);
  const s = kind.strategy;
  it('create: phase Active, the finalizer, the name label', () => {
    const ns: ApiObject = { metadata: { name: 'team' }, status: { phase: 'Terminating' } };
    s.prepareForCreate?.(ns);
    assert.deepEqual(ns.status, { phase: 'Active' });
    assert.deepEqual(ns.spec, { finalizers: ['platform'] });
    assert.deepEqual(ns.metadata?.labels, { [labelKey(profile, 'metadata.name')]: 'team' });
    assert.equal(s.hasPendingFinalizers?.(ns), true);
  });

  it('an update cannot change spec.finalizers; finalize can', () => {
    const old: ApiObject = { metadata: { name: 'team' }, spec: { finalizers: ['platform'] } };
    const next: ApiObject = { metadata: { name: 'team' }, spec: { finalizers: [] } };
    s.prepareForUpdate?.(next, old);
    assert.deepEqual(next.spec, { finalizers: ['platform'] });
    const finalized = s.prepareForSubresourceUpdate?.(
      'finalize',
      { spec: { finalizers: [] } },
      structuredClone(old),
    );
    assert.deepEqual(finalized?.spec, { finalizers: [] });
  });

  it('names are DNS labels; the upstream profile uses its own finalizer', () => {
    assert.notDeepEqual(s.validateName('has.dots', false), []);
    const up: ApiObject = { metadata: { name: 'x' } };
    namespaceKind(namingProfile('upstream')).strategy.prepareForCreate?.(up);
    assert.deepEqual(up.spec, { finalizers: ['kubernetes'] });
  });

  it('table: Name, Status, Age', () => {
    assert.deepEqual(
      kind.table?.map((c) => c.name),
      ['Name', 'Status', 'Age'],
    );
  });
});

describe('ServiceAccount', () => {
  it('table counts secrets', () => {
    const cells = serviceAccountKind.table?.map((c) =>
      c.cell({ metadata: { name: 'sa' }, secrets: [{ name: 'a' }] }),
    );
    assert.deepEqual(cells?.slice(0, 2), ['sa', 1]);
  });
});

describe('humanDuration', () => {
  it('prints ages as kubectl does', () => {
    const cases: [number, string][] = [
      [5_000, '5s'],
      [119_000, '119s'],
      [5 * 60_000 + 10_000, '5m10s'],
      [30 * 60_000, '30m'],
      [3 * 3_600_000 + 5 * 60_000, '3h5m'],
      [30 * 3_600_000, '30h'],
      [3 * 86_400_000 + 2 * 3_600_000, '3d2h'],
      [40 * 86_400_000, '40d'],
      [(3 * 365 + 20) * 86_400_000, '3y20d'],
    ];
    for (const [ms, text] of cases) assert.equal(humanDuration(ms), text, String(ms));
  });
});

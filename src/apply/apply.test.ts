import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApiError } from '../machinery/status.ts';
import { serializeElement } from './fieldpath/element.ts';
import { fromFieldsV1, toFieldsV1 } from './fieldpath/fields-v1.ts';
import { FieldManager } from './managedfields/field-manager.ts';
import { onlyField, withoutField } from './merge/reset-filters.ts';
import { SCENARIOS, type Step } from './testing/scenarios.ts';
import { WIDGET_ATOMIC, WIDGET_GRANULAR } from './testing/widget-schema.ts';
import { SchemaTypes } from './typed/types.ts';
import { isObject, type JsonObject } from './value.ts';

const TYPES = { granular: new SchemaTypes(WIDGET_GRANULAR), atomic: new SchemaTypes(WIDGET_ATOMIC) };

const notStatus = withoutField('status');
const onlyStatus = onlyField('status');

function managerFor(step: Step): FieldManager {
  const subresource = step.subresource ?? '';
  return new FieldManager({
    group: 'tests.example',
    version: 'v1',
    kind: 'Widget',
    type: TYPES[step.schema ?? 'granular'].root(),
    subresource,
    filter: subresource === 'status' ? onlyStatus : notStatus,
  });
}

const HEAD = { apiVersion: 'tests.example/v1', kind: 'Widget' };

function content(obj: JsonObject): JsonObject {
  const out: JsonObject = {};
  if (obj.spec !== undefined) out.spec = obj.spec;
  if (obj.status !== undefined) out.status = obj.status;
  return out;
}

function managedOf(obj: JsonObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  for (const e of (meta.managedFields ?? []) as JsonObject[]) {
    const key = [e.manager, e.operation, ...(e.subresource ? [e.subresource] : [])].join('|');
    out[key] = e.fieldsV1;
  }
  return out;
}

/** One write as the store would do it: the written object keeps the live identity. */
function write(live: JsonObject | null, step: Step): JsonObject {
  const fm = managerFor(step);
  const meta = { name: 'w', namespace: 'ns' };
  if (step.op === 'apply') {
    return fm.apply(
      live,
      { ...HEAD, metadata: meta, ...step.body },
      step.manager,
      step.force ?? false,
    ) as JsonObject;
  }
  const base: JsonObject = live === null ? { ...HEAD, metadata: meta } : structuredClone(live);
  let next: JsonObject;
  if (step.subresource === 'status') next = { ...base, status: step.body.status ?? null };
  else {
    next = { ...HEAD, metadata: base.metadata, ...step.body };
    if (base.status !== undefined) next.status = base.status;
  }
  return fm.update(live, next, step.manager) as JsonObject;
}

describe('server-side apply scenarios', () => {
  for (const scenario of SCENARIOS) {
    test(`rule ${scenario.rule}: ${scenario.name}`, () => {
      let live: JsonObject | null = null;
      scenario.steps.forEach((step, i) => {
        const label = `step ${i + 1} (${step.manager} ${step.op})`;
        if (step.conflicts !== undefined || step.message !== undefined) {
          let caught: ApiError | undefined;
          try {
            write(live, step);
          } catch (err) {
            caught = err as ApiError;
          }
          assert.ok(caught, `${label}: expected a conflict`);
          const status = caught.status;
          assert.equal(status.code, 409, `${label}: ${status.message}`);
          assert.equal(status.reason, 'Conflict');
          if (step.message !== undefined) assert.equal(status.message, step.message, label);
          if (step.conflicts !== undefined) {
            const got = (status.details?.causes ?? []).map(
              (c) => `${(c.message ?? '').replace(/^conflict with "([^"]*)".*$/, '$1')}: ${c.field}`,
            );
            assert.deepEqual(got, step.conflicts, label);
          }
          return;
        }
        const out = write(live, step);
        // The store gives the created object its identity.
        if (live === null) (out.metadata as JsonObject).uid = 'uid-1';
        if (step.object !== undefined) assert.deepEqual(content(out), step.object, `${label}: object`);
        if (step.managed !== undefined)
          assert.deepEqual(managedOf(out), step.managed, `${label}: managedFields`);
        live = out;
      });
    });
  }
});

describe('managed fields bookkeeping', () => {
  test('FieldsV1 round-trips in canonical order', () => {
    const raw = { 'f:spec': { '.': {}, 'f:b': {}, 'f:a': { 'k:{"name":"x"}': { '.': {}, 'f:name': {} } } } };
    const again = toFieldsV1(fromFieldsV1(raw));
    assert.deepEqual(again, raw);
    assert.deepEqual(Object.keys(again['f:spec']), ['.', 'f:a', 'f:b']);
  });

  test('key elements serialize with sorted key names and Go escaping', () => {
    assert.equal(
      serializeElement({
        key: [
          ['a', '<x>'],
          ['b', 1],
        ],
      }),
      'k:{"a":"\\u003cx\\u003e","b":1}',
    );
  });

  test('updates past ten managers fold the oldest into ancient-changes', () => {
    let live: JsonObject | null = null;
    for (let i = 0; i < 12; i++) {
      const step: Step = {
        manager: `m${String(i).padStart(2, '0')}`,
        op: 'update',
        body: { spec: { labels: { [`k${i}`]: 'v' } } },
      };
      const prev: JsonObject | null = live;
      const labels = {
        ...(((prev?.spec as JsonObject | undefined)?.labels as JsonObject | undefined) ?? {}),
        [`k${i}`]: 'v',
      };
      live = write(prev, { ...step, body: { spec: { labels } } });
      if (prev === null) (live.metadata as JsonObject).uid = 'uid-1';
    }
    const managers = Object.keys(managedOf(live as unknown as JsonObject));
    assert.equal(managers.length, 10);
    assert.ok(managers.includes('ancient-changes|Update'));
  });

  test('the first apply to an object without managedFields conflicts with its existing fields', () => {
    const fm = managerFor({ manager: A, op: 'apply', body: {} });
    const live: JsonObject = {
      ...HEAD,
      metadata: { name: 'w', namespace: 'ns', uid: 'u' },
      spec: { replicas: 3 },
    };
    assert.throws(
      () => fm.apply(live, { ...HEAD, metadata: { name: 'w' }, spec: { replicas: 1 } }, A, false),
      (err: ApiError) =>
        err.status.message ===
        'Apply failed with 1 conflict: conflict with "before-first-apply" using tests.example/v1: .spec.replicas',
    );
  });

  test('updates of an object nobody tracks record nothing', () => {
    const fm = managerFor({ manager: U, op: 'update', body: {} });
    const live: JsonObject = {
      ...HEAD,
      metadata: { name: 'w', namespace: 'ns', uid: 'u' },
      spec: { replicas: 3 },
    };
    const out = fm.update(live, { ...live, spec: { replicas: 4 } }, U);
    assert.equal((out.metadata as JsonObject).managedFields, undefined);
  });

  test('an apply with managedFields in the body is refused', () => {
    const fm = managerFor({ manager: A, op: 'apply', body: {} });
    assert.throws(
      () => fm.apply(null, { ...HEAD, metadata: { name: 'w', managedFields: [] }, spec: {} }, A, false),
      (err: ApiError) =>
        err.status.code === 400 && err.status.message === 'metadata.managedFields must be nil',
    );
  });

  test('an apply of another kind is refused', () => {
    const fm = managerFor({ manager: A, op: 'apply', body: {} });
    assert.throws(
      () => fm.apply(null, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' } }, A, false),
      (err: ApiError) =>
        err.status.code === 400 && err.status.message === 'invalid object type: /v1, Kind=ConfigMap',
    );
  });

  test('an apply that does not fit the schema is a 500 naming the field', () => {
    const fm = managerFor({ manager: A, op: 'apply', body: {} });
    assert.throws(
      () =>
        fm.apply(null, { ...HEAD, metadata: { name: 'w', namespace: 'ns' }, spec: { nope: 1 } }, A, false),
      (err: ApiError) =>
        err.status.code === 500 &&
        err.status.message ===
          'failed to create typed patch object (ns/w; tests.example/v1, Kind=Widget): .spec.nope: field not declared in schema',
    );
  });

  test('kubectl may take over fields its last client-side configuration set', () => {
    const fm = managerFor({ manager: 'kubectl', op: 'apply', body: {} });
    const annotation = 'kubectl.kubernetes.io/last-applied-configuration';
    const lastApplied = JSON.stringify({
      ...HEAD,
      metadata: { name: 'w', namespace: 'ns' },
      spec: { replicas: 1 },
    });
    const created = fm.update(
      null,
      {
        ...HEAD,
        metadata: { name: 'w', namespace: 'ns', annotations: { [annotation]: lastApplied } },
        spec: { replicas: 1 },
      },
      'kubectl-client-side-apply',
    );
    (created.metadata as JsonObject).uid = 'u';
    const out = fm.apply(
      created,
      { ...HEAD, metadata: { name: 'w', namespace: 'ns' }, spec: { replicas: 2 } },
      'kubectl',
      false,
    );
    assert.deepEqual(out.spec, { replicas: 2 });
    const annotations = (out.metadata as JsonObject).annotations as JsonObject;
    assert.equal(
      annotations[annotation],
      '{"apiVersion":"tests.example/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},"spec":{"replicas":2}}\n',
    );
  });
});

const A = 'applier';
const U = 'updater';

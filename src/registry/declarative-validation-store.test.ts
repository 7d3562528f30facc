// Declarative validation through the server's write path: a test kind whose declarative rules
// disagree with its hand-written ones (mismatches counted in /metrics, the answer by the gates),
// and RoleBinding's real 1.35 rules, which agree with ours. The generic store hands its errors to
// Strategy.checkValidation.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roleBindingDeclarativeValidation } from '../apis/rbac/declarative-validation.ts';
import { roleBindingKind } from '../apis/rbac/role-binding.ts';
import { type FieldError, invalid, newPath, required } from '../machinery/field-errors.ts';
import type { ApiObject } from '../machinery/object.ts';
import { groupName, namingProfile } from '../naming/profile.ts';
import { h2Request, startKindsServer, WIDGET_GROUP, widgetKind } from '../server/testing/deprecated-kind.ts';
import type { KindDefinition } from './kind.ts';

const MISMATCH = 'apiserver_validation_declarative_validation_mismatch_total';
const PARITY = 'apiserver_validation_declarative_validation_parity_discrepancies_total';
const samples = (text: string, name: string) =>
  text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

const sizeOf = (obj: ApiObject) => (obj.spec as { size?: number } | undefined)?.size ?? 0;
const sizeError = (size: number): FieldError => ({
  ...invalid(newPath('spec', 'size'), size, 'must be greater than or equal to 0'),
  origin: 'minimum',
});

/** Hand-written: spec.size >= 0. Declarative (wrongly): spec.color is required instead. */
function disagreeingWidget(): KindDefinition {
  const kind = widgetKind('v1');
  const handwritten = (obj: ApiObject) => (sizeOf(obj) < 0 ? [sizeError(sizeOf(obj))] : []);
  return {
    ...kind,
    strategy: { ...kind.strategy, validate: handwritten, validateUpdate: handwritten },
    declarativeValidation: {
      validate: (obj) => (sizeOf(obj) < 0 ? [required(newPath('spec', 'color'))] : []),
      covers: (e) => e.field === 'spec.size',
    },
  };
}

const widget = (size: number) => ({
  apiVersion: `${WIDGET_GROUP}/v1`,
  kind: 'Widget',
  metadata: { name: `w${Math.abs(size)}` },
  spec: { size },
});
const path = `/apis/${WIDGET_GROUP}/v1/namespaces/default/widgets`;

describe('declarative validation on the write path', () => {
  it('by default answers with the hand-written errors and counts the mismatch', async () => {
    const logged: string[] = [];
    const s = await startKindsServer([disagreeingWidget()], { log: (l) => logged.push(l) });
    try {
      const ok = await h2Request(s.url, 'POST', path, widget(1));
      assert.equal(ok.status, 201, ok.body);
      const r = await h2Request(s.url, 'POST', path, widget(-1));
      assert.equal(r.status, 422, r.body);
      assert.match(r.body, /spec\.size: Invalid value: -1: must be greater than or equal to 0/);
      assert.doesNotMatch(r.body, /spec\.color/);
      assert.equal(logged.length, 2);
      const text = (await h2Request(s.url, 'GET', '/metrics')).body;
      assert.deepEqual(samples(text, MISMATCH), [`${MISMATCH} 2`]);
      assert.deepEqual(samples(text, PARITY), [`${PARITY}{validation_identifier="widget_create"} 2`]);
    } finally {
      await s.stop();
    }
  });

  it('with DeclarativeValidationTakeover answers with the declarative errors', async () => {
    const s = await startKindsServer([disagreeingWidget()], {
      featureGates: { DeclarativeValidationTakeover: true },
    });
    try {
      const r = await h2Request(s.url, 'POST', path, widget(-1));
      assert.equal(r.status, 422, r.body);
      assert.match(r.body, /spec\.color: Required value/);
      assert.doesNotMatch(r.body, /spec\.size/);
      assert.deepEqual(samples((await h2Request(s.url, 'GET', '/metrics')).body, MISMATCH), [
        `${MISMATCH} 2`,
      ]);
    } finally {
      await s.stop();
    }
  });

  it('with DeclarativeValidation off, neither runs the rules nor counts', async () => {
    const s = await startKindsServer([disagreeingWidget()], {
      featureGates: { DeclarativeValidation: false },
    });
    try {
      const r = await h2Request(s.url, 'POST', path, widget(-1));
      assert.equal(r.status, 422, r.body);
      assert.match(r.body, /spec\.size/);
      assert.deepEqual(samples((await h2Request(s.url, 'GET', '/metrics')).body, MISMATCH), [
        `${MISMATCH} 0`,
      ]);
    } finally {
      await s.stop();
    }
  });
});

describe("RoleBinding's declarative rules on the write path", () => {
  const profile = namingProfile('spec');
  const rbac = groupName(profile, 'rbac.authorization');
  const kind = (): KindDefinition => ({
    ...roleBindingKind(profile),
    declarativeValidation: roleBindingDeclarativeValidation,
  });
  const rbPath = `/apis/${rbac}/v1/namespaces/default/rolebindings`;

  for (const takeover of [false, true]) {
    it(`agree with the hand-written rules (takeover ${takeover ? 'on' : 'off'})`, async () => {
      const logged: string[] = [];
      const s = await startKindsServer([kind()], {
        featureGates: { DeclarativeValidationTakeover: takeover },
        log: (l) => logged.push(l),
      });
      try {
        const r = await h2Request(s.url, 'POST', rbPath, {
          apiVersion: `${rbac}/v1`,
          kind: 'RoleBinding',
          metadata: { name: 'b' },
          roleRef: { apiGroup: rbac, kind: 'Role', name: '' },
          subjects: [{ kind: 'User', apiGroup: rbac }],
        });
        assert.equal(r.status, 422, r.body);
        const fields = (JSON.parse(r.body).details.causes as { field: string }[]).map((c) => c.field).sort();
        assert.deepEqual(fields, ['roleRef.name', 'subjects[0].name']);
        assert.deepEqual(logged, []);
        assert.deepEqual(samples((await h2Request(s.url, 'GET', '/metrics')).body, MISMATCH), [
          `${MISMATCH} 0`,
        ]);
      } finally {
        await s.stop();
      }
    });
  }
});

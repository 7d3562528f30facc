// Declarative validation beside the hand-written rules: upstream's matching and messages, the
// counters under both gates' settings, takeover, panics, and RoleBinding's real 1.35 rules
// against our hand-written RBAC validation.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bindingStrategy } from '../apis/rbac/binding.ts';
import { roleBindingDeclarativeValidation } from '../apis/rbac/declarative-validation.ts';
import { roleBindingKind } from '../apis/rbac/role-binding.ts';
import { type FieldError, invalid, newPath, required } from '../machinery/field-errors.ts';
import { MetricsRegistry } from '../machinery/metrics/index.ts';
import type { ApiObject } from '../machinery/object.ts';
import { groupName, namingProfile } from '../naming/profile.ts';
import { featureGates } from '../server/feature-gates.ts';
import { widgetKind } from '../server/testing/deprecated-kind.ts';
import {
  type ComparingStrategy,
  declarativeMismatches,
  validationIdentifier,
  withDeclarativeValidation,
} from './declarative-validation.ts';
import type { DeclarativeValidation, KindDefinition } from './kind.ts';

const MISMATCH = 'apiserver_validation_declarative_validation_mismatch_total';
const PARITY = 'apiserver_validation_declarative_validation_parity_discrepancies_total';
const PANIC = 'apiserver_validation_declarative_validation_panic_total';
const PANICS = 'apiserver_validation_declarative_validation_panics_total';

/** The exposition lines of one metric's samples. */
const samples = (text: string, name: string) =>
  text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

const AUTHORITATIVE =
  'This difference should not affect system operation since hand written validation is authoritative.';
const TAKEOVER =
  'Consider disabling the DeclarativeValidationTakeover feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes.';

/** `spec.size` must not be negative: hand-written and (here) declarative, with the tag's origin. */
const sizeError = (size: unknown, origin = 'minimum'): FieldError => ({
  ...invalid(newPath('spec', 'size'), size, 'must be greater than or equal to 0'),
  origin,
});
const sizeOf = (obj: ApiObject) => (obj.spec as { size?: number } | undefined)?.size ?? 0;

/** A test kind whose spec.size moved to a declarative `minimum`, with rules to override per case. */
function sizedWidget(dv: Partial<DeclarativeValidation> = {}): KindDefinition {
  const kind = widgetKind('v1');
  const handwritten = (obj: ApiObject) => (sizeOf(obj) < 0 ? [sizeError(sizeOf(obj))] : []);
  return {
    ...kind,
    strategy: { ...kind.strategy, validate: handwritten, validateUpdate: handwritten },
    declarativeValidation: {
      validate: (obj) => (sizeOf(obj) < 0 ? [sizeError(sizeOf(obj))] : []),
      covers: (e) => e.field === 'spec.size',
      ...dv,
    },
  };
}

const widget = (size: number): ApiObject => ({ metadata: { name: 'w' }, spec: { size } });

/** A create as the generic store runs it: the hand-written errors, then the comparison. */
function create(kind: KindDefinition, obj: ApiObject): FieldError[] {
  const s = kind.strategy as Partial<ComparingStrategy>;
  const errs = kind.strategy.validate(obj);
  return s.checkValidation === undefined ? errs : s.checkValidation(errs, obj, undefined, '');
}

function update(kind: KindDefinition, obj: ApiObject, old: ApiObject, subresource = ''): FieldError[] {
  const s = kind.strategy as Partial<ComparingStrategy>;
  const errs = kind.strategy.validateUpdate(obj, old, subresource || undefined);
  return s.checkValidation === undefined ? errs : s.checkValidation(errs, obj, old, subresource);
}

function serve(kinds: KindDefinition[], gates: Record<string, boolean>) {
  const metrics = new MetricsRegistry();
  const logged: string[] = [];
  const out = withDeclarativeValidation(kinds, {
    gate: featureGates(gates),
    metrics,
    log: (l) => logged.push(l),
  });
  return { kinds: out, metrics, logged };
}

describe('comparing declarative and hand-written errors', () => {
  const covers = (e: FieldError) => e.field.startsWith('spec.');

  it('finds nothing when both agree, or when only uncovered errors differ', () => {
    assert.deepEqual(declarativeMismatches([], [], covers, false), []);
    assert.deepEqual(declarativeMismatches([sizeError(-1)], [sizeError(-1)], covers, false), []);
    // The bad value and the detail do not take part in the match.
    assert.deepEqual(
      declarativeMismatches([sizeError(-1)], [{ ...sizeError(-2), detail: 'x' }], covers, false),
      [],
    );
    assert.deepEqual(declarativeMismatches([required('metadata.name')], [], covers, false), []);
    // One hand-written error takes every declarative error it matches.
    assert.deepEqual(
      declarativeMismatches([sizeError(-1)], [sizeError(-1), sizeError(-1)], covers, false),
      [],
    );
  });

  it("reports unmatched and extra errors in upstream's words", () => {
    assert.deepEqual(declarativeMismatches([sizeError(-1)], [], covers, false), [
      `Unexpected difference between hand written validation and declarative validation error results, unmatched error(s) found {Type="Invalid value", Field="spec.size", Origin="minimum"}. This indicates an issue with declarative validation. ${AUTHORITATIVE}`,
    ]);
    assert.deepEqual(declarativeMismatches([], [required('spec.name')], covers, true), [
      `Unexpected difference between hand written validation and declarative validation error results, extra error(s) found {Type="Required value", Field="spec.name", Origin=""}. This indicates an issue with declarative validation. ${TAKEOVER}`,
    ]);
  });

  it('needs an origin on both sides of an Invalid error, and matches origins', () => {
    const bare = invalid(newPath('spec', 'size'), -1, 'bad');
    assert.equal(declarativeMismatches([bare], [bare], covers, false).length, 2);
    assert.equal(declarativeMismatches([sizeError(-1)], [sizeError(-1, 'maximum')], covers, false).length, 2);
    assert.equal(declarativeMismatches([required('spec.a')], [required('spec.a')], covers, false).length, 0);
  });

  it('counts exact duplicates of a hand-written error once', () => {
    const lines = declarativeMismatches([sizeError(-1), sizeError(-1)], [], covers, false);
    assert.equal(lines.length, 1);
  });

  it('normalizes declarative paths with the first rule that applies', () => {
    const rules = [
      { pattern: /^spec\.items\[(\d+)\]\.n$/, replacement: 'spec.items[$1].name' },
      { pattern: /never/, replacement: 'x' },
    ];
    assert.deepEqual(
      declarativeMismatches(
        [required('spec.items[3].name')],
        [required('spec.items[3].n')],
        covers,
        false,
        rules,
      ),
      [],
    );
    const [line] = declarativeMismatches([], [required('spec.items[0].n')], covers, false, rules);
    assert.ok(
      line.includes('{Type="Required value", Field="spec.items[0].name" (aka "spec.items[0].n"), Origin=""}'),
    );
  });

  it("names a write as upstream's identifier does", () => {
    assert.equal(validationIdentifier('RoleBinding', '', 'create'), 'rolebinding_create');
    assert.equal(validationIdentifier('Deployment', 'scale', 'update'), 'deployment_scale_update');
    assert.equal(validationIdentifier('Pod', 'resize/x', 'update'), 'pod_resize_x_update');
  });
});

describe('declarative validation in writes', () => {
  it('is defined in every registry with its help texts, and counts nothing by itself', async () => {
    const { metrics } = serve([], {});
    const text = await metrics.metrics();
    for (const line of [
      `# HELP ${MISMATCH} [BETA] Number of times declarative validation results differed from handwritten validation results for core types.`,
      `# TYPE ${MISMATCH} counter`,
      `${MISMATCH} 0`,
      `# HELP ${PARITY} [ALPHA] Number of discrepancies between declarative and handwritten validation, broken down by validation identifier.`,
      `# HELP ${PANIC} [BETA] Number of times declarative validation has panicked during validation.`,
      `${PANIC} 0`,
      `# HELP ${PANICS} [ALPHA] Number of panics in declarative validation, broken down by validation identifier.`,
      '# HELP apiserver_validation_duplicate_validation_error_total [INTERNAL] Number of duplicate validation errors during validation.',
    ]) {
      assert.ok(text.includes(`${line}\n`), line);
    }
  });

  it('leaves kinds without declarative rules as they are', () => {
    const plain = widgetKind('v1');
    const { kinds } = serve([plain, sizedWidget()], {});
    assert.equal(kinds[0], plain);
    assert.notEqual(kinds[1], undefined);
    assert.equal(typeof (kinds[1].strategy as Partial<ComparingStrategy>).checkValidation, 'function');
  });

  it('with DeclarativeValidation off, runs the hand-written rules only', async () => {
    const dv = sizedWidget({ validate: () => [required('spec.other')] });
    const { kinds, metrics } = serve([dv], { DeclarativeValidation: false });
    assert.equal(kinds[0], dv);
    assert.deepEqual(create(kinds[0], widget(-1)), [sizeError(-1)]);
    assert.deepEqual(samples(await metrics.metrics(), MISMATCH), [`${MISMATCH} 0`]);
  });

  it('by default compares, counts each mismatch and keeps the hand-written answer', async () => {
    // The declarative rules miss spec.size and find something the hand-written ones do not.
    const { kinds, metrics, logged } = serve([sizedWidget({ validate: () => [required('spec.other')] })], {});
    assert.deepEqual(create(kinds[0], widget(5)), []);
    assert.deepEqual(create(kinds[0], widget(-1)), [sizeError(-1)]);
    assert.deepEqual(update(kinds[0], widget(-1), widget(1)), [sizeError(-1)]);
    assert.equal(logged.length, 5);
    assert.ok(
      logged[0].includes('extra error(s) found {Type="Required value", Field="spec.other", Origin=""}'),
    );
    assert.ok(logged[0].endsWith(AUTHORITATIVE));
    const text = await metrics.metrics();
    assert.deepEqual(samples(text, MISMATCH), [`${MISMATCH} 5`]);
    assert.deepEqual(samples(text, PARITY), [
      `${PARITY}{validation_identifier="widget_create"} 3`,
      `${PARITY}{validation_identifier="widget_update"} 2`,
    ]);
  });

  it('agreeing rules count nothing', async () => {
    const { kinds, metrics, logged } = serve([sizedWidget()], { DeclarativeValidationTakeover: true });
    assert.deepEqual(create(kinds[0], widget(-3)), [sizeError(-3)]);
    assert.deepEqual(logged, []);
    assert.deepEqual(samples(await metrics.metrics(), MISMATCH), [`${MISMATCH} 0`]);
  });

  it('with DeclarativeValidationTakeover, answers with the declarative errors for covered fields', async () => {
    const dv = sizedWidget({
      validate: (obj) =>
        sizeOf(obj) < 0 ? [{ ...sizeError(sizeOf(obj)), detail: 'declared' }, required('spec.other')] : [],
    });
    const kind: KindDefinition = {
      ...dv,
      strategy: {
        ...dv.strategy,
        // An uncovered hand-written error stays in the answer.
        validate: (obj) => (sizeOf(obj) < 0 ? [sizeError(sizeOf(obj)), required('metadata.labels')] : []),
      },
    };
    const { kinds, metrics, logged } = serve([kind], { DeclarativeValidationTakeover: true });
    assert.deepEqual(create(kinds[0], widget(-1)), [
      required('metadata.labels'),
      { ...sizeError(-1), detail: 'declared' },
      required('spec.other'),
    ]);
    assert.equal(logged.length, 1);
    assert.ok(logged[0].endsWith(TAKEOVER));
    assert.deepEqual(samples(await metrics.metrics(), MISMATCH), [`${MISMATCH} 1`]);
  });

  it('counts a declarative rule that throws as a panic: logged, or an internal error under takeover', async () => {
    const boom = () => {
      throw new Error('boom');
    };
    for (const takeover of [false, true]) {
      const { kinds, metrics, logged } = serve([sizedWidget({ validate: boom })], {
        DeclarativeValidationTakeover: takeover,
      });
      const errs = create(kinds[0], widget(1));
      if (takeover) {
        assert.deepEqual(errs, [
          {
            type: 'InternalError',
            field: '',
            badValue: null,
            detail: 'panic during declarative validation: boom',
          },
        ]);
        // As upstream, the internal error then counts as an extra declarative error too.
        assert.equal(logged.length, 1);
        assert.ok(logged[0].includes('extra error(s) found {Type="Internal error", Field="", Origin=""}'));
        assert.deepEqual(samples(await metrics.metrics(), MISMATCH), [`${MISMATCH} 1`]);
      } else {
        assert.deepEqual(errs, []);
        assert.deepEqual(logged, ['panic during declarative validation: boom']);
        assert.deepEqual(samples(await metrics.metrics(), MISMATCH), [`${MISMATCH} 0`]);
      }
      const text = await metrics.metrics();
      assert.deepEqual(samples(text, PANIC), [`${PANIC} 1`]);
      assert.deepEqual(samples(text, PANICS), [`${PANICS}{validation_identifier="widget_create"} 1`]);
    }
  });
});

describe("RoleBinding's declarative rules (upstream 1.35)", () => {
  const profile = namingProfile('spec');
  const binding = (roleRef: unknown, subjects?: unknown[]): ApiObject => ({
    metadata: { name: 'b', namespace: 'default' },
    roleRef,
    ...(subjects === undefined ? {} : { subjects }),
  });
  const roleRef = { apiGroup: groupName(profile, 'rbac.authorization'), kind: 'Role', name: 'r' };
  const rbKind = (): KindDefinition => ({
    ...roleBindingKind(profile),
    strategy: bindingStrategy(profile, true),
    declarativeValidation: roleBindingDeclarativeValidation,
  });

  it('finds the names upstream requires declaratively', () => {
    const dv = roleBindingDeclarativeValidation;
    assert.deepEqual(dv.validate(binding(roleRef, [{ kind: 'User', name: 'u' }]), undefined, ''), []);
    assert.deepEqual(
      dv.validate(binding({ ...roleRef, name: '' }, [{ kind: 'User' }, null]), undefined, ''),
      [required('roleRef.name'), required('subjects[0].name'), required('subjects[1].name')],
    );
    // An update does not look again at unchanged fields.
    const bad = binding({ ...roleRef, name: '' }, [{ kind: 'User' }]);
    assert.deepEqual(dv.validate(bad, structuredClone(bad), ''), []);
    assert.deepEqual(dv.validate(bad, binding({ ...roleRef, name: '' }, []), ''), [
      required('subjects[0].name'),
    ]);
    assert.equal(dv.covers(required('subjects[12].name')), true);
    assert.equal(dv.covers(required('subjects[0].namespace')), false);
    assert.equal(dv.covers(invalid('roleRef.name', 'x:y', 'bad')), false);
  });

  it('agrees with the hand-written validation, under both settings of takeover', async () => {
    for (const takeover of [false, true]) {
      const { kinds, metrics, logged } = serve([rbKind()], { DeclarativeValidationTakeover: takeover });
      const [kind] = kinds;
      const obj = binding({ ...roleRef, name: '' }, [
        { kind: 'User', apiGroup: roleRef.apiGroup },
        { kind: 'Group', name: 'g', apiGroup: roleRef.apiGroup },
      ]);
      const errs = create(kind, obj);
      assert.deepEqual(errs.map((e) => e.field).sort(), ['roleRef.name', 'subjects[0].name']);
      assert.deepEqual(
        create(kind, binding(roleRef, [{ kind: 'User', name: 'u', apiGroup: roleRef.apiGroup }])),
        [],
      );
      assert.deepEqual(logged, []);
      assert.deepEqual(samples(await metrics.metrics(), MISMATCH), [`${MISMATCH} 0`]);
    }
  });
});

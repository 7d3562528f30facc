// What Deployment and ReplicaSet share: a selector that must match the pod template's labels, a
// replica count, the pod template itself, a status written only through /status, and the scale
// sub-resource over spec.replicas.

import {
  deepEqual,
  type FieldError,
  type FieldPath,
  invalid,
  newPath,
  notSupported,
  required,
  validateImmutableField,
} from '../../machinery/field-errors.ts';
import { type LabelSelector, labelSelectorAsMatcher, validateLabelSelector } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { validateLabels } from '../../machinery/validation/names.ts';
import type { Strategy } from '../../registry/strategy.ts';
import type { SchemaNode } from '../../schema/types.ts';
import { defaultPodTemplate, podTemplateDefinitions, validatePodSpec } from '../core/pod/index.ts';
import { NAMESPACED_DEFAULTS } from '../strategy-defaults.ts';

export interface WorkloadSpec {
  replicas?: number;
  selector?: LabelSelector | null;
  template?: { metadata?: { labels?: Record<string, string> }; spec?: Record<string, unknown> };
  minReadySeconds?: number;
}

export const specOf = (obj: ApiObject): WorkloadSpec => (obj.spec as WorkloadSpec | undefined) ?? {};

/** A workload kind's definitions: the pod template's and its own, built on first use. */
export function workloadDefinitions(own: () => Record<string, SchemaNode>): () => Record<string, SchemaNode> {
  return () => ({ ...podTemplateDefinitions(), ...own() });
}

const nonNegative = (v: unknown, path: FieldPath): FieldError[] =>
  typeof v === 'number' && v < 0 ? [invalid(path, v, 'must be greater than or equal to 0')] : [];

/**
 * The rules every workload spec follows: a non-empty selector matching the template's labels, a
 * replica count not below zero, a valid pod template whose restartPolicy is Always.
 */
export function validateWorkloadSpec(obj: ApiObject, kindWord: string): FieldError[] {
  const spec = specOf(obj);
  const path = newPath('spec');
  const errs: FieldError[] = [];
  errs.push(...nonNegative(spec.replicas, path.child('replicas')));
  errs.push(...nonNegative(spec.minReadySeconds, path.child('minReadySeconds')));
  const selector = spec.selector;
  if (selector === undefined || selector === null) {
    errs.push(required(path.child('selector'), ''));
  } else {
    errs.push(...validateLabelSelector(selector, path.child('selector')));
    if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
      errs.push(invalid(path.child('selector'), selector, `empty selector is invalid for ${kindWord}`));
    }
  }
  const template = spec.template;
  const tpath = path.child('template');
  if (template === undefined || template === null) {
    errs.push(required(tpath, ''));
    return errs;
  }
  const labels = template.metadata?.labels;
  errs.push(...validateLabels(labels, tpath.child('metadata', 'labels')));
  if (selector !== undefined && selector !== null && errs.length === 0) {
    let matches = false;
    try {
      matches = labelSelectorAsMatcher(selector).matches(labels ?? {});
    } catch {
      matches = false;
    }
    if (!matches) {
      errs.push(
        invalid(
          tpath.child('metadata', 'labels'),
          labels ?? {},
          '`selector` does not match template `labels`',
        ),
      );
    }
  }
  errs.push(...validatePodSpec(template.spec, tpath.child('spec')));
  const restart = template.spec?.restartPolicy;
  if (restart !== undefined && restart !== 'Always') {
    errs.push(notSupported(tpath.child('spec', 'restartPolicy'), restart, ['Always']));
  }
  return errs;
}

/**
 * Metadata a /status write may change besides the status, as upstream's status strategies allow:
 * a Deployment's keeps only its labels (the controller records revisions in annotations through
 * /status), a ReplicaSet's keeps neither.
 */
export function statusWritesMetadata(keys: readonly ('labels' | 'annotations')[]) {
  return (obj: ApiObject, _old: ApiObject, sent: ApiObject): void => {
    obj.metadata ??= {};
    const meta = obj.metadata;
    for (const key of keys) {
      const value = sent.metadata?.[key];
      if (value === undefined) delete meta[key];
      else meta[key] = structuredClone(value);
    }
  };
}

/** The strategy both kinds start from: namespaced, generation-tracked, status via /status. */
export function workloadStrategy(
  kindWord: string,
  defaults: (obj: ApiObject) => void,
  validate: (obj: ApiObject) => FieldError[],
): Strategy {
  return {
    ...NAMESPACED_DEFAULTS,
    hasStatus: true,
    tracksGeneration: true,
    prepareForCreate(obj) {
      // A new workload has an empty status, as upstream answers it.
      obj.status = {};
    },
    applyDefaults(obj) {
      const spec = (obj.spec ?? {}) as WorkloadSpec;
      obj.spec = spec;
      if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
      defaults(obj);
      defaultPodTemplate(spec.template);
    },
    validate(obj) {
      return [...validateWorkloadSpec(obj, kindWord), ...validate(obj)];
    },
    validateUpdate(obj, old) {
      return validateImmutableField(specOf(obj).selector, specOf(old).selector, newPath('spec', 'selector'));
    },
    specChanged(obj, old) {
      // By value, not by text: a spec that comes back with its keys in another order (a YAML or
      // protobuf client's) is the same spec.
      return !deepEqual(obj.spec, old.spec);
    },
  };
}

// Admission metrics after a known sequence through the chain: the validating step and each
// controller by operation and rejection, the step's summary, upstream's names, help texts, classes
// and buckets; a check upstream makes outside admission is neither a controller nor, when it
// rejects, a step.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseExposition, series } from '../auth/testing/exposition.ts';
import { MetricsRegistry } from '../machinery/metrics/index.ts';
import { AdmissionChain } from './chain.ts';
import type { AdmissionAttributes, Operation, ValidatingPlugin } from './types.ts';

const attrs = (operation: Operation, name: string): AdmissionAttributes => ({
  operation,
  group: '',
  version: 'v1',
  resource: 'configmaps',
  subresource: '',
  kind: 'ConfigMap',
  namespace: 'ns',
  name,
  namespaced: true,
  dryRun: false,
});

const passes: ValidatingPlugin = { name: 'First', validate: async () => undefined };
const refusesBad: ValidatingPlugin = {
  name: 'Second',
  validate: async (a) => {
    if (a.name === 'bad') throw new Error('refused');
  },
};
const storageCheck: ValidatingPlugin = {
  name: 'StorageCheck',
  notAdmissionController: true,
  validate: async (a) => {
    if (a.name === 'escalating') throw new Error('escalation');
  },
};

describe('admission metrics', () => {
  it('times the validating step and each controller by operation and rejection', async () => {
    const registry = new MetricsRegistry();
    const chain = new AdmissionChain([passes, refusesBad, storageCheck], { metrics: registry });
    await chain.validate(attrs('CREATE', 'a'));
    await chain.validate(attrs('CREATE', 'b'));
    await assert.rejects(chain.validate(attrs('CREATE', 'bad')), /refused/);
    await chain.validate(attrs('UPDATE', 'a'));
    await assert.rejects(chain.validate(attrs('DELETE', 'escalating')), /escalation/);

    const e = parseExposition(await registry.metrics());
    const step = 'apiserver_admission_step_admission_duration_seconds';
    assert.deepEqual(series(e, `${step}_count`), [
      '{operation="CREATE",rejected="false",type="validate"} 2',
      '{operation="CREATE",rejected="true",type="validate"} 1',
      '{operation="UPDATE",rejected="false",type="validate"} 1',
    ]);
    assert.deepEqual(series(e, `${step}_summary_count`), series(e, `${step}_count`));
    // No quantiles: upstream's summary has none.
    assert.deepEqual(series(e, `${step}_summary`), []);
    const buckets = e.samples
      .filter((s) => s.name === `${step}_bucket` && s.labels.operation === 'UPDATE')
      .map((s) => s.labels.le);
    assert.deepEqual(buckets, ['0.005', '0.025', '0.1', '0.5', '1', '2.5', '+Inf']);

    const controller = 'apiserver_admission_controller_admission_duration_seconds';
    assert.deepEqual(series(e, `${controller}_count`), [
      '{name="First",operation="CREATE",rejected="false",type="validate"} 3',
      '{name="First",operation="DELETE",rejected="false",type="validate"} 1',
      '{name="First",operation="UPDATE",rejected="false",type="validate"} 1',
      '{name="Second",operation="CREATE",rejected="false",type="validate"} 2',
      '{name="Second",operation="CREATE",rejected="true",type="validate"} 1',
      '{name="Second",operation="DELETE",rejected="false",type="validate"} 1',
      '{name="Second",operation="UPDATE",rejected="false",type="validate"} 1',
    ]);

    assert.equal(
      e.help.get(step),
      '[STABLE] Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
    );
    assert.equal(
      e.help.get(`${step}_summary`),
      '[ALPHA] Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
    );
    assert.equal(
      e.help.get(controller),
      '[STABLE] Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    );
    assert.equal(e.type.get(`${step}_summary`), 'summary');
  });

  it('records nothing without a registry', async () => {
    const chain = new AdmissionChain([passes]);
    await chain.validate(attrs('CREATE', 'a'));
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AdmissionChain } from '../../admission/chain.ts';
import type { AdmissionAttributes } from '../../admission/types.ts';
import type { RequestContext } from '../context.ts';
import { admitFor, type HandlerEnv, type Target } from './env.ts';

describe('admitFor', () => {
  it("hands plugins the request's audit annotations: the first value for a key stays", async () => {
    const seen: AdmissionAttributes[] = [];
    const chain = new AdmissionChain([
      {
        name: 'Annotator',
        async validate(a) {
          seen.push(a);
          a.addAnnotation?.('annotator.admission.example/decided', 'yes');
          a.addAnnotation?.('annotator.admission.example/decided', 'no');
        },
      },
    ]);
    const ctx = { warnings: [] } as unknown as RequestContext;
    const env = { admission: chain } as unknown as HandlerEnv;
    const target = {
      served: {
        kind: {
          resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
        },
      },
      namespace: 'default',
      name: 'c',
      subresource: '',
    } as unknown as Target;
    await admitFor(ctx, env, target, 'CREATE', false)({ metadata: { name: 'c' } }, null);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].operation, 'CREATE');
    assert.deepEqual(ctx.auditAnnotations, { 'annotator.admission.example/decided': 'yes' });
  });
});

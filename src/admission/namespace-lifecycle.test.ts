import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../machinery/object.ts';
import { ApiError } from '../machinery/status.ts';
import { componentName, namingProfile } from '../naming/profile.ts';
import { namespaceLifecycle } from './namespace-lifecycle.ts';
import type { AdmissionAttributes } from './types.ts';

const namespaces: Record<string, ApiObject> = {
  live: { metadata: { name: 'live' }, status: { phase: 'Active' } },
  dying: {
    metadata: { name: 'dying', deletionTimestamp: '2026-01-01T00:00:00Z' },
    status: { phase: 'Terminating' },
  },
};
const plugin = namespaceLifecycle({ get: async (n) => namespaces[n] }, [
  'default',
  componentName(namingProfile('spec'), 'system'),
]);

const attrs = (over: Partial<AdmissionAttributes>): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  resource: 'configmaps',
  subresource: '',
  kind: 'ConfigMap',
  namespace: 'live',
  name: 'cm',
  namespaced: true,
  dryRun: false,
  ...over,
});

async function rejection(p: Promise<void>) {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiError);
    return err.status;
  }
  assert.fail('expected a rejection');
}

describe('NamespaceLifecycle', () => {
  it('admits creates in a live namespace and anything cluster-scoped', async () => {
    await plugin.validate(attrs({}));
    await plugin.validate(attrs({ resource: 'namespaces', namespaced: false, namespace: '', name: 'x' }));
  });

  it('a create in a missing namespace is 404 for the namespace', async () => {
    const s = await rejection(plugin.validate(attrs({ namespace: 'nope' })));
    assert.deepEqual([s.code, s.reason, s.message], [404, 'NotFound', 'namespaces "nope" not found']);
  });

  it('a create in a terminating namespace is 403 with the NamespaceTerminating cause', async () => {
    const s = await rejection(plugin.validate(attrs({ namespace: 'dying' })));
    assert.equal(s.code, 403);
    assert.equal(
      s.message,
      'configmaps "cm" is forbidden: unable to create new content in namespace dying because it is being terminated',
    );
    assert.equal(s.details?.causes?.[0]?.reason, 'NamespaceTerminating');
    // Updates and deletes of what is already there go on.
    await plugin.validate(attrs({ namespace: 'dying', operation: 'UPDATE' }));
  });

  it('the system namespaces cannot be deleted', async () => {
    const s = await rejection(
      plugin.validate(attrs({ operation: 'DELETE', resource: 'namespaces', name: 'default', namespace: '' })),
    );
    assert.deepEqual(
      [s.code, s.message],
      [403, 'namespaces "default" is forbidden: this namespace may not be deleted'],
    );
    await plugin.validate(
      attrs({ operation: 'DELETE', resource: 'namespaces', name: 'live', namespace: '' }),
    );
  });
});

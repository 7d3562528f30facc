// The clusterrole-aggregation descriptor against a real in-process API server through the HTTP client and the shared informer: the default policy's
// aggregated roles (view, edit, admin) are filled, a newly labelled ClusterRole joins them, and the
// rules are applied under the controller's field manager.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ResourceClient } from '../../client/api.ts';
import type { RestClient } from '../../client/rest-client.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { groupName, namingProfile } from '../../naming/index.ts';
import { waitFor } from '../../server/testing/wait-for.ts';
import { type ControllerHarness, startControllerHarness } from '../testing/index.ts';
import { AGGREGATION_FIELD_MANAGER } from './clusterrole-aggregation-controller.ts';
import { clusterRoleAggregationControllerDescriptor } from './index.ts';

const SPEC = namingProfile('spec');
const G = groupName(SPEC, 'rbac.authorization');

type Rule = { verbs?: string[]; resources?: string[]; apiGroups?: string[] };
const rulesOf = (o: ApiObject) => (Array.isArray(o.rules) ? (o.rules as Rule[]) : []);
const grants = (o: ApiObject, verb: string, resource: string) =>
  rulesOf(o).some((r) => r.verbs?.includes(verb) && r.resources?.includes(resource));

describe('clusterrole-aggregation controller on a server', () => {
  let h: ControllerHarness;
  let client: RestClient;
  let roles: ResourceClient;

  before(async () => {
    h = await startControllerHarness();
    client = h.client;
    roles = client.resource({ group: G, version: 'v1', resource: 'clusterroles' });
    await h.start(clusterRoleAggregationControllerDescriptor);
  });
  after(() => h?.stop());

  it('fills the default aggregated roles and follows a newly labelled role, applying as its manager', async () => {
    const view = await waitFor(
      () => roles.get('view'),
      (o) => grants(o, 'get', 'pods'),
      'view to aggregate the default rules',
    );
    const managers = (view.metadata?.managedFields ?? []) as { manager?: string; operation?: string }[];
    assert.ok(
      managers.some((m) => m.manager === AGGREGATION_FIELD_MANAGER && m.operation === 'Apply'),
      JSON.stringify(managers),
    );
    // admin aggregates edit's rules, which include view's.
    await waitFor(
      () => roles.get('admin'),
      (o) => grants(o, 'get', 'pods') && grants(o, 'create', 'rolebindings'),
      'admin to aggregate',
    );

    await roles.create({
      apiVersion: `${G}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'widgets-view', labels: { [`${G}/aggregate-to-view`]: 'true' } },
      rules: [{ verbs: ['list'], apiGroups: ['example.com'], resources: ['widgets'] }],
    });
    await waitFor(
      () => roles.get('view'),
      (o) => grants(o, 'list', 'widgets'),
      'view to take the new rule',
    );
    await waitFor(
      () => roles.get('admin'),
      (o) => grants(o, 'list', 'widgets'),
      'admin too',
    );
    await roles.delete('widgets-view');
    await waitFor(
      () => roles.get('view'),
      (o) => !grants(o, 'list', 'widgets'),
      'the rule to leave view',
    );
  });
});

// The clusterrole-aggregation controller against the fake cluster: aggregated roles take the union
// of the matching roles' rules (name order, each rule once), follow label, rule and deletion
// changes, put hand edits back, chain (a role aggregated into another), and are written by apply
// with force under the controller's field manager; a role without aggregationRule is left alone.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SharedInformerFactory } from '../../client/informers/factory.ts';
import { FakeCluster } from '../../client/testing/fake-cluster.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { groupName, namingProfile } from '../../naming/index.ts';
import { waitFor } from '../../server/testing/wait-for.ts';
import { MemoryLog } from '../garbage-collector/testing.ts';
import {
  AGGREGATION_FIELD_MANAGER,
  aggregateRules,
  ClusterRoleAggregationController,
} from './clusterrole-aggregation-controller.ts';
import { clusterRoleAggregationControllerDescriptor } from './index.ts';

const G = groupName(namingProfile('spec'), 'rbac.authorization');
const CR = { group: G, version: 'v1', resource: 'clusterroles' };
const toView = `${G}/aggregate-to-view`;
const toEdit = `${G}/aggregate-to-edit`;

type Rule = Record<string, string[]>;
const r = (verbs: string[], resources: string[]): Rule => ({ verbs, apiGroups: [''], resources });

describe('aggregateRules', () => {
  it('unions per selector in name order, skips itself and repeats, and treats a missing list as empty', () => {
    const role = (name: string, labels: Record<string, string>, rules: unknown[], agg?: unknown) =>
      ({ metadata: { name, labels }, rules, ...(agg ? { aggregationRule: agg } : {}) }) as ApiObject;
    const self = role('self', { a: '1' }, [], {
      clusterRoleSelectors: [{ matchLabels: { a: '1' } }, { matchLabels: { b: '1' } }],
    });
    const got = aggregateRules(self, [
      self,
      role('z', { a: '1' }, [r(['get'], ['pods'])]),
      role('m', { a: '1' }, [
        r(['list'], ['pods']),
        { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] },
      ]),
      role('b-only', { b: '1' }, [r(['watch'], ['pods'])]),
      role('none', {}, [r(['*'], ['*'])]),
    ]);
    assert.deepEqual(got, [
      r(['list'], ['pods']),
      { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] },
      r(['watch'], ['pods']),
    ]);
  });
});

describe('clusterrole-aggregation controller (fake cluster)', () => {
  const cluster = new FakeCluster();
  const informers = new SharedInformerFactory(cluster);
  const stop = new AbortController();
  const roles = cluster.resource(CR);
  let controller: ClusterRoleAggregationController;
  let running: Promise<void>;

  const role = (name: string, labels: Record<string, string>, rules: Rule[], selectors?: unknown[]) =>
    roles.create({
      apiVersion: `${G}/v1`,
      kind: 'ClusterRole',
      metadata: { name, labels },
      rules,
      ...(selectors ? { aggregationRule: { clusterRoleSelectors: selectors } } : {}),
    });
  const until = (name: string, want: Rule[]) =>
    waitFor(
      () => roles.get(name),
      (o) => JSON.stringify(o.rules) === JSON.stringify(want),
      `${name} to hold ${JSON.stringify(want)}`,
    );

  before(async () => {
    controller = new ClusterRoleAggregationController({
      client: cluster,
      clusterRoles: informers.forResource(CR),
      resource: CR,
      log: new MemoryLog(),
    });
    await role('pods-view', { [toView]: 'true' }, [r(['get'], ['pods']), r(['list'], ['pods'])]);
    informers.start();
    running = controller.run(stop.signal);
  });
  after(async () => {
    stop.abort();
    controller.stop();
    await running;
    informers.stop();
  });

  it('fills an aggregated role and follows changes of the matching roles', async () => {
    await role('view', {}, [], [{ matchLabels: { [toView]: 'true' } }]);
    await until('view', [r(['get'], ['pods']), r(['list'], ['pods'])]);
    const applies = cluster.callsOf('apply', 'clusterroles');
    assert.ok(applies.length > 0);
    assert.ok(
      applies.every((c) => c.opts?.fieldManager === AGGREGATION_FIELD_MANAGER && c.opts?.force === true),
    );

    await role('a-cm-view', { [toView]: 'true' }, [r(['get'], ['configmaps']), r(['get'], ['pods'])]);
    await until('view', [r(['get'], ['configmaps']), r(['get'], ['pods']), r(['list'], ['pods'])]);

    await roles.patch('a-cm-view', 'merge', { metadata: { labels: null } });
    await until('view', [r(['get'], ['pods']), r(['list'], ['pods'])]);
    await roles.patch('pods-view', 'merge', { rules: [r(['watch'], ['pods'])] });
    await until('view', [r(['watch'], ['pods'])]);

    await roles.patch('view', 'merge', { rules: [r(['*'], ['*'])] });
    await until('view', [r(['watch'], ['pods'])]);

    await roles.delete('pods-view');
    await until('view', []);
  });

  it('chains: a role aggregated into another aggregated role carries its union along', async () => {
    await role('edit', { [toView]: 'true' }, [], [{ matchLabels: { [toEdit]: 'true' } }]);
    await role('secrets-edit', { [toEdit]: 'true' }, [r(['update'], ['secrets'])]);
    await until('edit', [r(['update'], ['secrets'])]);
    await until('view', [r(['update'], ['secrets'])]);
  });

  it('leaves a role without an aggregationRule alone', async () => {
    await role('plain', {}, [r(['get'], ['nodes'])]);
    await until('view', [r(['update'], ['secrets'])]);
    assert.deepEqual((await roles.get('plain')).rules, [r(['get'], ['nodes'])]);
    assert.ok(cluster.callsOf('apply', 'clusterroles').every((c) => c.name !== 'plain'));
  });
});

describe('clusterrole-aggregation descriptor', () => {
  it('has upstream names', () => {
    assert.equal(clusterRoleAggregationControllerDescriptor.name, 'clusterrole-aggregation-controller');
    assert.deepEqual(clusterRoleAggregationControllerDescriptor.aliases, ['clusterrole-aggregation']);
    assert.equal(
      clusterRoleAggregationControllerDescriptor.serviceAccountName,
      'clusterrole-aggregation-controller',
    );
    assert.equal(clusterRoleAggregationControllerDescriptor.enabledByDefault, true);
  });
});

// Aggregation over real stores: aggregated roles take the union of the matching roles' rules (in
// name order, each rule once), follow label, rule and deletion changes, chain (admin <- edit <-
// view style), and record the controller as field manager.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rbacKinds } from '../../apis/rbac/index.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { groupName, namingProfile } from '../../naming/profile.ts';
import type { GenericStore } from '../../registry/generic-store.ts';
import { ServedResources } from '../../server/served-resources.ts';
import { openSqliteStorage, type SqliteStorage } from '../../storage/sqlite/index.ts';
import { trackAs } from '../resources.ts';
import { AGGREGATION_MANAGER, ClusterRoleAggregation } from './in-server-aggregation.ts';

const profile = namingProfile('spec');
const G = groupName(profile, 'rbac.authorization');
const toView = `${G}/aggregate-to-view`;
const toEdit = `${G}/aggregate-to-edit`;

type Rule = Record<string, string[]>;
const r = (verbs: string[], resources: string[]): Rule => ({ verbs, apiGroups: [''], resources });

describe('clusterrole-aggregation controller', () => {
  let storage: SqliteStorage;
  let store: GenericStore;
  let controller: ClusterRoleAggregation;
  let track: ReturnType<typeof trackAs>;

  const role = (name: string, labels: Record<string, string>, rules: Rule[], selectors?: unknown[]) =>
    store.create(
      '',
      {
        apiVersion: `${G}/v1`,
        kind: 'ClusterRole',
        metadata: { name, labels },
        rules,
        ...(selectors ? { aggregationRule: { clusterRoleSelectors: selectors } } : {}),
      },
      { track },
    );

  /** Resolves with the role once `pred` holds for it, as the watch reports it. */
  async function until(name: string, pred: (rules: unknown[]) => boolean): Promise<ApiObject> {
    const w = store.watch('');
    for await (const ev of w) {
      if (ev.object.metadata?.name !== name || ev.type === 'DELETED') continue;
      const rules = Array.isArray(ev.object.rules) ? ev.object.rules : [];
      if (pred(rules)) {
        w.stop();
        return ev.object;
      }
    }
    throw new Error('watch ended');
  }
  const equals = (want: Rule[]) => (rules: unknown[]) => JSON.stringify(rules) === JSON.stringify(want);

  before(async () => {
    storage = openSqliteStorage({ path: ':memory:' });
    const served = new ServedResources(rbacKinds(profile), storage, profile);
    const cr = served.lookup(G, 'v1', 'clusterroles');
    assert.ok(cr);
    store = cr.store;
    // Created as through the API, with managedFields, so later writers are recorded beside.
    track = trackAs(cr, 'test');
    controller = new ClusterRoleAggregation(served.stored, { group: G });
    await role('pods-view', { [toView]: 'true' }, [r(['get'], ['pods']), r(['list'], ['pods'])]);
    await controller.start();
  });
  after(async () => {
    controller.stop();
    await storage.close();
  });

  it('fills an aggregated role and follows changes of the matching roles', async () => {
    await role('view', {}, [], [{ matchLabels: { [toView]: 'true' } }]);
    const filled = await until('view', equals([r(['get'], ['pods']), r(['list'], ['pods'])]));
    const managers = (filled.metadata?.managedFields ?? []) as { manager?: string }[];
    assert.ok(
      managers.some((m) => m.manager === AGGREGATION_MANAGER),
      JSON.stringify(managers),
    );

    // another matching role: name order, duplicates once
    await role('a-cm-view', { [toView]: 'true' }, [r(['get'], ['configmaps']), r(['get'], ['pods'])]);
    await until('view', equals([r(['get'], ['configmaps']), r(['get'], ['pods']), r(['list'], ['pods'])]));

    // a role losing its label leaves; a changed rule follows
    const cm = await store.get('', 'a-cm-view');
    await store.update('', 'a-cm-view', { ...cm, metadata: { ...cm.metadata, labels: {} } });
    await until('view', equals([r(['get'], ['pods']), r(['list'], ['pods'])]));
    const pods = await store.get('', 'pods-view');
    await store.update('', 'pods-view', { ...pods, rules: [r(['watch'], ['pods'])] });
    await until('view', equals([r(['watch'], ['pods'])]));

    // hand edits of the aggregated rules are put back
    const view = await store.get('', 'view');
    await store.update('', 'view', { ...view, rules: [r(['*'], ['*'])] });
    await until('view', equals([r(['watch'], ['pods'])]));

    await store.delete('', 'pods-view');
    await until('view', (rules) => rules.length === 0);
  });

  it('chains: a role aggregated into another aggregated role carries its union along', async () => {
    await role('edit', { [toView]: 'true' }, [], [{ matchLabels: { [toEdit]: 'true' } }]);
    await role('secrets-edit', { [toEdit]: 'true' }, [r(['update'], ['secrets'])]);
    await until('edit', equals([r(['update'], ['secrets'])]));
    await until('view', equals([r(['update'], ['secrets'])]));
    await controller.idle();
  });
});

// Reading a key's resource back from the registry's key layout: the core group's keys, named
// groups' (with and without a dot), prefixes, keys with no resource, and roots registered to
// override the layout.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_RESOURCE, ResourceOfKey } from './resource-of.ts';

describe('ResourceOfKey', () => {
  it('reads core, dotless and dotted groups from keys and prefixes', () => {
    const r = new ResourceOfKey();
    const cases: [string, string, string][] = [
      ['/configmaps/ns/a', '', 'configmaps'],
      ['/configmaps/', '', 'configmaps'],
      ['/namespaces/default', '', 'namespaces'],
      ['/apps/deployments/ns/d', 'apps', 'deployments'],
      ['/apps/deployments/', 'apps', 'deployments'],
      ['/batch/jobs/ns/j', 'batch', 'jobs'],
      ['/coordination.example.org/leases/ns/l', 'coordination.example.org', 'leases'],
      ['/example.com/widgets/w', 'example.com', 'widgets'],
      // Back to a resource answered before, from another key.
      ['/configmaps/other/b', '', 'configmaps'],
    ];
    for (const [key, group, resource] of cases) {
      assert.deepEqual({ ...r.of(key) }, { group, resource }, key);
    }
    assert.equal(r.of('/configmaps/ns/a'), r.of('/configmaps/x/y'), 'one object per resource');
  });

  it('answers no resource for keys without one', () => {
    const r = new ResourceOfKey();
    assert.equal(r.of(''), NO_RESOURCE);
    assert.equal(r.of('/'), NO_RESOURCE);
    assert.equal(r.rootOf('/apps/deployments/ns/d'), '/apps/deployments');
    assert.equal(r.rootOf('/pods/ns/p'), '/pods');
  });

  it('tells of each resource once, and lets registered roots override the layout', () => {
    const r = new ResourceOfKey();
    const heard: string[] = [];
    r.onNew = (root, gr) => heard.push(`${root} ${gr.group}/${gr.resource}`);
    r.of('/pods/ns/a');
    r.of('/pods/ns/b');
    r.of('/apps/deployments/ns/d');
    r.of('/pods/ns/c');
    r.register('/events', { group: 'events.example.org', resource: 'events' });
    assert.deepEqual({ ...r.of('/events/ns/e') }, { group: 'events.example.org', resource: 'events' });
    assert.deepEqual(heard, [
      '/pods /pods',
      '/apps/deployments apps/deployments',
      '/events events.example.org/events',
    ]);
  });
});

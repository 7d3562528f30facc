// The rollout arithmetic without a cluster: maxSurge and maxUnavailable from ints and percents
// (surge rounds up, unavailable down, both zero leaves one unavailable), how far the new
// ReplicaSet may grow, proportional shares on a resize, the hash and its alphabet, and which old
// ReplicaSets the history limit deletes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deploymentAnnotationNames } from '../../naming/deployment-annotations.ts';
import { namingProfile } from '../../naming/profile.ts';
import { setNewReplicaSetAnnotations } from './annotations.ts';
import { maxSurge, maxUnavailable, minAvailable, resolveFenceposts, scaledValue } from './fenceposts.ts';
import { canonicalize, computeHash, equalIgnoreHash, fnv32a, safeEncodeString } from './hash.ts';
import { replicaSetsToClean } from './history.ts';
import { newRSNewReplicas } from './proportions.ts';
import { proportionalSizes } from './scale.ts';
import { deploymentObject, podTemplate } from './testing.ts';
import type { IntOrString, ReplicaSet } from './types.ts';

const names = deploymentAnnotationNames(namingProfile('spec'));

describe('maxSurge / maxUnavailable', () => {
  const cases: [IntOrString, IntOrString, number, number, number][] = [
    // surge, unavailable, replicas -> surge, unavailable
    ['25%', '25%', 10, 3, 2],
    ['25%', '25%', 4, 1, 1],
    ['25%', '25%', 1, 1, 0],
    ['25%', '25%', 3, 1, 0],
    ['50%', '50%', 5, 3, 2],
    ['1%', '1%', 10, 1, 0],
    ['0%', '1%', 10, 0, 1], // both resolve to zero: one may be unavailable
    ['0%', '0%', 0, 0, 1],
    [0, '10%', 5, 0, 1], // 0.5 rounds down to 0, then the zero rule
    [2, 1, 10, 2, 1],
    ['100%', 0, 7, 7, 0],
    [0, '100%', 7, 0, 7],
    ['33%', '33%', 10, 4, 3],
  ];
  for (const [s, u, replicas, wantS, wantU] of cases) {
    it(`surge ${s}, unavailable ${u} of ${replicas} -> ${wantS}, ${wantU}`, () => {
      assert.deepEqual(resolveFenceposts(s, u, replicas), [wantS, wantU]);
    });
  }

  it('caps unavailable at replicas, is zero at zero replicas and for Recreate', () => {
    const d = deploymentObject('d', {
      replicas: 2,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 5 } },
    });
    assert.equal(maxUnavailable(d), 2);
    assert.equal(minAvailable(d), 0);
    assert.equal(maxSurge(d), 1);
    assert.equal(maxUnavailable({ ...d, spec: { ...d.spec, replicas: 0 } }), 0);
    const recreate = deploymentObject('r', { strategy: { type: 'Recreate' } });
    assert.equal(maxSurge(recreate), 0);
    assert.equal(maxUnavailable(recreate), 0);
    assert.equal(minAvailable(recreate), 0);
  });

  it('rejects a string that is not a percent', () => {
    assert.throws(() => scaledValue('3', 10, true), /not a percentage/);
    assert.equal(scaledValue('7%', 10, true), 1);
    assert.equal(scaledValue('7%', 10, false), 0);
  });
});

describe('new ReplicaSet size', () => {
  const rs = (name: string, replicas: number): ReplicaSet => ({ metadata: { name }, spec: { replicas } });
  it('grows by what surge leaves, never past replicas; Recreate takes all at once', () => {
    const d = deploymentObject('d', {
      replicas: 10,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
    });
    const fresh = rs('new', 0);
    assert.equal(newRSNewReplicas(d, [rs('old', 10), fresh], fresh), 3);
    const grown = rs('new', 9);
    assert.equal(newRSNewReplicas(d, [rs('old', 2), grown], grown), 10);
    const stuck = rs('new', 3);
    assert.equal(newRSNewReplicas(d, [rs('old', 10), stuck], stuck), 3);
    const recreate = deploymentObject('r', { replicas: 4, strategy: { type: 'Recreate' } });
    assert.equal(newRSNewReplicas(recreate, [fresh], fresh), 4);
  });
});

describe('proportional scaling', () => {
  const rs = (name: string, replicas: number, max: number, created: string): ReplicaSet => ({
    metadata: { name, creationTimestamp: created, annotations: { [names.maxReplicas]: String(max) } },
    spec: { replicas },
  });
  it('hands a resize out by each ReplicaSet size, leftovers to the largest', () => {
    // 10 replicas + 3 surge, mid-rollout 8 old / 5 new; scaled to 20 (+5 surge = 25).
    const d = deploymentObject('d', {
      replicas: 20,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    });
    const old = rs('old', 8, 13, '2026-01-01T00:00:00Z');
    const fresh = rs('new', 5, 13, '2026-01-01T00:01:00Z');
    const sizes = proportionalSizes(d, [old, fresh], names);
    assert.equal(sizes.get(old), 15);
    assert.equal(sizes.get(fresh), 10);
  });
  it('scales down older ReplicaSets first among equals', () => {
    const d = deploymentObject('d', {
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
    });
    const a = rs('a', 2, 4, '2026-01-01T00:00:00Z');
    const b = rs('b', 2, 4, '2026-01-01T00:01:00Z');
    const sizes = proportionalSizes(d, [b, a], names);
    assert.equal((sizes.get(a) ?? 0) + (sizes.get(b) ?? 0), 1);
    assert.equal(sizes.get(a), 0);
  });
});

describe('pod-template-hash', () => {
  it('is FNV-32a rendered in the safe alphabet', () => {
    // FNV-1a test vector: "a" -> 0xe40c292c.
    assert.equal(fnv32a(new TextEncoder().encode('a')), 0xe40c292c);
    // Each digit by its character code modulo the alphabet's 27 letters: '0' (48) is the 22nd.
    assert.equal(safeEncodeString('0123456789'), '456789bcdf');
    assert.match(computeHash(podTemplate('img:1')), /^[bcdfghjklmnpqrstvwxz2456789]+$/);
  });
  it('ignores key order, changes with the template and the collision count', () => {
    const a = computeHash({ spec: { b: 1, a: 2 }, metadata: { labels: { x: 'y' } } });
    const b = computeHash({ metadata: { labels: { x: 'y' } }, spec: { a: 2, b: 1 } });
    assert.equal(a, b);
    assert.notEqual(computeHash(podTemplate('img:1')), computeHash(podTemplate('img:2')));
    assert.notEqual(computeHash(podTemplate('img:1'), 1), computeHash(podTemplate('img:1')));
    assert.notEqual(computeHash(podTemplate('img:1'), 1), computeHash(podTemplate('img:1'), 2));
    assert.deepEqual(canonicalize({ a: [], b: {}, c: null, d: 0 }), { d: 0 });
  });
  it('compares templates apart from the hash label', () => {
    const t = podTemplate('img:1');
    const labelled = {
      ...t,
      metadata: { labels: { ...t.metadata.labels, [names.podTemplateHashLabel]: 'abc' } },
    };
    assert.ok(equalIgnoreHash(t, labelled, names.podTemplateHashLabel));
    assert.ok(!equalIgnoreHash(t, podTemplate('img:2'), names.podTemplateHashLabel));
  });
});

describe('revision annotations', () => {
  it('moves an earlier revision into the history when a ReplicaSet becomes new again', () => {
    const d = deploymentObject('d');
    const rs: ReplicaSet = { metadata: { annotations: { [names.revision]: '1' } }, spec: { replicas: 0 } };
    assert.ok(setNewReplicaSetAnnotations(d, rs, 3, true, names));
    assert.equal(rs.metadata?.annotations?.[names.revision], '3');
    assert.equal(rs.metadata?.annotations?.[names.revisionHistory], '1');
    assert.ok(setNewReplicaSetAnnotations(d, rs, 5, true, names));
    assert.equal(rs.metadata?.annotations?.[names.revisionHistory], '1,3');
    assert.ok(!setNewReplicaSetAnnotations(d, rs, 4, true, names));
  });
});

describe('history cleanup selection', () => {
  const rs = (
    name: string,
    revision: number,
    replicas = 0,
    extra: Partial<ReplicaSet['metadata']> = {},
  ): ReplicaSet => ({
    metadata: { name, annotations: { [names.revision]: String(revision) }, generation: 1, ...extra },
    spec: { replicas },
    status: { replicas, observedGeneration: 1 },
  });
  it('deletes the lowest revisions beyond the limit, never one with replicas or being deleted', () => {
    const d = deploymentObject('d', { revisionHistoryLimit: 2 });
    const olds = [
      rs('r5', 5),
      rs('r1', 1),
      rs('r3', 3, 1),
      rs('r2', 2),
      rs('r4', 4, 0, { deletionTimestamp: 'x' }),
    ];
    // Alive: r5, r1, r3, r2 -> 2 over the limit: r1 and r2 (r3 has a replica, is third).
    assert.deepEqual(
      replicaSetsToClean({ names }, olds, d).map((x) => x.metadata?.name),
      ['r1', 'r2'],
    );
    const limit1 = deploymentObject('d', { revisionHistoryLimit: 1 });
    assert.deepEqual(
      replicaSetsToClean({ names }, olds, limit1).map((x) => x.metadata?.name),
      ['r1', 'r2'],
    );
    const unlimited = deploymentObject('d', { revisionHistoryLimit: undefined });
    assert.deepEqual(replicaSetsToClean({ names }, olds, unlimited), []);
  });
  it('keeps a ReplicaSet whose controller has not observed its latest spec', () => {
    const d = deploymentObject('d', { revisionHistoryLimit: 0 });
    const unobserved = rs('u', 1);
    unobserved.metadata = { ...unobserved.metadata, generation: 2 };
    assert.deepEqual(replicaSetsToClean({ names }, [unobserved], d), []);
  });
});

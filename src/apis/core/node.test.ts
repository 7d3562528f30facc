// Node: validation as upstream's ValidateNode/ValidateNodeUpdate, the status rules of its two
// endpoints, the `kubectl get nodes` columns, and the spec.unschedulable field selector over HTTP.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FieldError } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { nodeRoleLabel, nodeRoleLabelPrefix } from '../../naming/node-roles.ts';
import { NODE_AGENT_VERSION_FIELD } from '../../naming/node-wire-fields.ts';
import { namingProfile, UPSTREAM_ALIASES } from '../../naming/profile.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/index.ts';
import { nodeKind } from './node.ts';

const profile = namingProfile('spec');
const kind = nodeKind(profile);
const s = kind.strategy;
const msgs = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.type}: ${e.detail}`);
const node = (spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}): ApiObject => ({
  metadata: { name: 'n1' },
  spec,
  status,
});
const cell = (name: string, obj: ApiObject) => kind.table?.find((c) => c.name === name)?.cell(obj);

describe('Node validation', () => {
  it('taints: label-name keys, known effects, unique by key and effect', () => {
    const errs = msgs(
      s.validate(
        node({
          taints: [
            { key: 'a', effect: 'NoSchedule' },
            { key: 'a', effect: 'NoExecute' },
            { key: 'a', effect: 'NoSchedule' },
            { key: 'bad key', effect: 'Sometimes' },
            { key: 'b', value: 'x y', effect: '' },
          ],
        }),
      ),
    );
    assert.ok(
      errs.includes('spec.taints[2]: FieldValueDuplicate: taints must be unique by key and effect pair'),
      errs.join('\n'),
    );
    assert.ok(
      errs.some((e) => e.startsWith('spec.taints[3].key: FieldValueInvalid: name part must consist of')),
    );
    assert.ok(
      errs.some((e) =>
        e.startsWith(
          'spec.taints[3].effect: FieldValueNotSupported: supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        ),
      ),
    );
    assert.ok(
      errs.some((e) => e.startsWith('spec.taints[4].value: FieldValueInvalid: a valid label must be')),
    );
    assert.ok(errs.includes('spec.taints[4].effect: FieldValueRequired: '));
    assert.equal(errs.length, 5, errs.join('\n'));
  });

  it('pod CIDRs: valid, one per family, podCIDR kept as the first', () => {
    assert.deepEqual(msgs(s.validate(node({ podCIDRs: ['10.0.0.0/24', 'fd00::/64'] }))), []);
    assert.deepEqual(msgs(s.validate(node({ podCIDRs: ['10.0.0.0/33'] }))), [
      'spec.podCIDRs[0]: FieldValueInvalid: must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
    assert.deepEqual(msgs(s.validate(node({ podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] }))), [
      'spec.podCIDRs: FieldValueInvalid: may specify no more than one CIDR for each IP family',
    ]);
    const old = node({ podCIDR: '10.0.0.0/24' });
    s.applyDefaults?.(old);
    assert.deepEqual((old.spec as { podCIDRs: string[] }).podCIDRs, ['10.0.0.0/24']);
    assert.deepEqual(msgs(s.validateUpdate(node({ podCIDRs: ['10.9.0.0/24'] }), old)), [
      'spec.podCIDRs: FieldValueForbidden: node updates may not change podCIDR except from "" to valid',
    ]);
    assert.deepEqual(msgs(s.validateUpdate(node({ podCIDRs: ['10.0.0.0/24'] }), node({}))), []);
  });

  it('providerID and externalID are fixed once set; status addresses are unique; quantities not negative', () => {
    const old = node({ providerID: 'x://1', externalID: 'e' });
    assert.deepEqual(
      msgs(
        s.validateUpdate(
          node(
            { providerID: 'x://2' },
            {
              addresses: [
                { type: 'InternalIP', address: '10.0.0.1' },
                { type: 'InternalIP', address: '10.0.0.1' },
              ],
            },
          ),
          old,
        ),
      ),
      [
        'spec.providerID: FieldValueForbidden: node updates may not change providerID except from "" to valid',
        'spec.externalID: FieldValueForbidden: may not be updated',
        'status.addresses[1]: FieldValueDuplicate: ',
      ],
    );
    assert.deepEqual(msgs(s.validate(node({}, { capacity: { cpu: '-1' } }))), [
      'status.capacity.cpu: FieldValueInvalid: must be greater than or equal to 0',
    ]);
  });
});

describe('Node columns', () => {
  it('status from the Ready condition, SchedulingDisabled when cordoned, roles from labels', () => {
    const ready = { conditions: [{ type: 'Ready', status: 'True' }] };
    assert.equal(cell('Status', node({}, ready)), 'Ready');
    assert.equal(cell('Status', node({ unschedulable: true }, ready)), 'Ready,SchedulingDisabled');
    assert.equal(cell('Status', node({}, { conditions: [{ type: 'Ready', status: 'False' }] })), 'NotReady');
    assert.equal(cell('Status', node({}, {})), 'Unknown');
    const labelled: ApiObject = {
      metadata: {
        name: 'n',
        labels: {
          [`${nodeRoleLabelPrefix(profile)}worker`]: '',
          [`${nodeRoleLabelPrefix(profile)}control-plane`]: '',
          [nodeRoleLabel(profile)]: 'edge',
          [`${nodeRoleLabelPrefix(profile)}`]: 'x',
        },
      },
    };
    assert.equal(cell('Roles', labelled), 'control-plane,edge,worker');
    assert.equal(cell('Roles', node()), '<none>');
    const wide = node(
      {},
      {
        addresses: [
          { type: 'Hostname', address: 'h' },
          { type: 'InternalIP', address: '10.0.0.5' },
        ],
        nodeInfo: { [NODE_AGENT_VERSION_FIELD]: 'v1.35.0', osImage: 'Debian' },
      },
    );
    assert.deepEqual(
      ['Version', 'Internal-IP', 'External-IP', 'OS-Image', 'Kernel-Version', 'Container-Runtime'].map((c) =>
        cell(c, wide),
      ),
      ['v1.35.0', '10.0.0.5', '<none>', 'Debian', '<unknown>', '<unknown>'],
    );
    assert.deepEqual(
      kind.table?.map((c) => `${c.name}${c.priority ? '*' : ''}`),
      [
        'Name',
        'Status',
        'Roles',
        'Age',
        'Version',
        'Internal-IP*',
        'External-IP*',
        'OS-Image*',
        'Kernel-Version*',
        'Container-Runtime*',
      ],
    );
  });
});

describe('nodes over HTTP', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
  });
  after(() => t?.stop());
  const N = '/api/v1/nodes';

  it('create keeps the status; the main resource keeps it after; /status keeps the spec', async () => {
    const created = await t.call({
      method: 'POST',
      path: N,
      body: JSON.stringify({
        metadata: { name: 'a' },
        spec: { podCIDR: '10.0.0.0/24' },
        status: { conditions: [{ type: 'Ready', status: 'True' }] },
      }),
    });
    assert.equal(created.status, 201, created.body);
    const n = created.json() as { spec: { podCIDRs: string[] }; status: { conditions: unknown[] } };
    assert.deepEqual(n.spec.podCIDRs, ['10.0.0.0/24']);
    assert.equal(n.status.conditions.length, 1);
    const put = await t.call({
      method: 'PUT',
      path: `${N}/a`,
      body: JSON.stringify({ ...n, spec: { ...n.spec, unschedulable: true }, status: {} }),
    });
    assert.equal(put.status, 200, put.body);
    assert.equal((put.json() as typeof n).status.conditions.length, 1);
    const st = await t.call({
      method: 'PATCH',
      path: `${N}/a/status`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ spec: { unschedulable: false }, status: { phase: 'Running' } }),
    });
    assert.equal(st.status, 200, st.body);
    const after = st.json() as { spec: { unschedulable?: boolean }; status: { phase?: string } };
    assert.equal(after.spec.unschedulable, true);
    assert.equal(after.status.phase, 'Running');
  });

  it('an invalid node is 422; spec.unschedulable selects; the table has kubectl columns', async () => {
    const bad = await t.call({
      method: 'POST',
      path: N,
      body: JSON.stringify({ metadata: { name: 'Bad_Name' } }),
    });
    assert.equal(bad.status, 422, bad.body);
    await t.call({ method: 'POST', path: N, body: JSON.stringify({ metadata: { name: 'b' } }) });
    const sel = await t.call({ path: `${N}?fieldSelector=spec.unschedulable%3Dtrue` });
    assert.equal(sel.status, 200, sel.body);
    assert.deepEqual(
      (sel.json().items as ApiObject[]).map((i) => i.metadata?.name),
      ['a'],
    );
    const other = await t.call({ path: `${N}?fieldSelector=spec.bogus%3Dtrue` });
    assert.equal(other.status, 400, other.body);
    const table = await t.call({
      path: N,
      headers: { accept: `application/json;as=Table;v=v1;g=${UPSTREAM_ALIASES.metaGroup}` },
    });
    const j = table.json() as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    assert.deepEqual(
      j.columnDefinitions.slice(0, 5).map((c) => c.name),
      ['Name', 'Status', 'Roles', 'Age', 'Version'],
    );
    assert.deepEqual(j.rows[0]?.cells.slice(0, 3), ['a', 'Ready,SchedulingDisabled', '<none>']);
  });
});

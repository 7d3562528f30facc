import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTable, type TableColumn } from './table.ts';

const obj = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', namespace: 'ns', creationTimestamp: '2026-01-01T00:00:00Z' },
  data: { x: '1', y: '2' },
};

describe('table', () => {
  it('the default table has Name and Created At, and rows carry partial metadata', () => {
    const t = buildTable([obj], undefined, { group: 'meta.example', version: 'v1' });
    assert.equal(t.kind, 'Table');
    assert.equal(t.apiVersion, 'meta.example/v1');
    assert.deepEqual(
      (t.columnDefinitions as { name: string; type: string }[]).map((c) => [c.name, c.type]),
      [
        ['Name', 'string'],
        ['Created At', 'date'],
      ],
    );
    assert.deepEqual(t.rows, [
      {
        cells: ['a', '2026-01-01T00:00:00Z'],
        object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.example/v1', metadata: obj.metadata },
      },
    ]);
  });

  it('kind columns, includeObject and noHeaders', () => {
    const cols: TableColumn[] = [
      { name: 'Name', type: 'string', format: 'name', description: 'n', cell: (o) => o.metadata?.name },
      { name: 'Data', type: 'integer', description: 'd', cell: (o) => Object.keys(o.data as object).length },
    ];
    const full = buildTable([obj], cols, { group: 'g', version: 'v1', includeObject: 'Object' });
    assert.deepEqual(full.rows, [{ cells: ['a', 2], object: obj }]);
    const bare = buildTable([obj], cols, {
      group: 'g',
      version: 'v1',
      includeObject: 'None',
      noHeaders: true,
      listMeta: { resourceVersion: '5' },
    });
    assert.equal(bare.columnDefinitions, undefined);
    assert.deepEqual(bare.metadata, { resourceVersion: '5' });
    assert.deepEqual(bare.rows, [{ cells: ['a', 2] }]);
  });
});

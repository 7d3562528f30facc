// The Grafana dashboards in dashboards/ (tested here because the test runner walks src/, bench/ and
// test/ only): valid JSON of the schema Grafana 10/11 writes, a Prometheus datasource variable that
// every panel and query uses, unique panel ids, a grid that fits, and PromQL that names only the
// metrics this list holds, upstream's names as the API server and controller manager expose them.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const DIR = join(import.meta.dirname, '../../dashboards');

/** Metrics the dashboards may name; histograms also as their _bucket, _sum and _count series. */
const COUNTERS_AND_GAUGES = [
  'apiserver_request_total',
  'apiserver_current_inflight_requests',
  'apiserver_longrunning_requests',
  'apiserver_watch_events_total',
  'apiserver_storage_objects',
  'apiserver_storage_size_bytes',
  'authentication_attempts',
  'apiserver_authorization_decisions_total',
  'apiserver_audit_event_total',
  'apiserver_audit_error_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
  'workqueue_depth',
  'workqueue_adds_total',
  'leader_election_master_status',
];
const HISTOGRAMS = [
  'apiserver_request_duration_seconds',
  'etcd_request_duration_seconds',
  'apiserver_admission_step_admission_duration_seconds',
];
const KNOWN = new Set([
  ...COUNTERS_AND_GAUGES,
  ...HISTOGRAMS.flatMap((h) => [`${h}_bucket`, `${h}_sum`, `${h}_count`]),
]);

const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression selects: what is left once strings, label matchers, ranges,
 * grouping clauses, dashboard variables and numbers are taken out, less the function names (each
 * followed by a parenthesis). label_values(metric, label) names its metric first; its label goes.
 */
function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\blabel_values\s*\(([^,()]*),\s*[A-Za-z_]\w*\s*\)/g, 'label_values($1)')
    .replace(/\$\{?\w+\}?/g, ' ')
    .replace(/\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, ' ');
  const out: string[] = [];
  for (const m of stripped.matchAll(/[A-Za-z_:][\w:]*/g)) {
    const after = stripped.slice((m.index ?? 0) + m[0].length).trimStart();
    if (after.startsWith('(') || KEYWORDS.has(m[0].toLowerCase())) continue;
    out.push(m[0]);
  }
  return out;
}

interface Target {
  expr?: string;
  refId?: string;
  datasource?: { type?: string; uid?: string };
}
interface Panel {
  id?: number;
  type?: string;
  title?: string;
  datasource?: { type?: string; uid?: string };
  gridPos?: { x: number; y: number; w: number; h: number };
  targets?: Target[];
  panels?: Panel[];
}
interface Variable {
  name: string;
  type: string;
  query?: string | { query?: string };
  definition?: string;
  datasource?: { type?: string; uid?: string };
}
interface Dashboard {
  title?: string;
  uid?: string;
  schemaVersion?: number;
  panels: Panel[];
  templating: { list: Variable[] };
  time?: { from: string; to: string };
}

const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const load = (f: string) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Dashboard;
/** Every panel, rows' collapsed panels included. */
const allPanels = (d: Dashboard): Panel[] => d.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a template.
const PROMETHEUS = { type: 'prometheus', uid: '${datasource}' };

describe('metricNames', () => {
  it('finds the selected metrics and nothing else', () => {
    assert.deepEqual(
      metricNames(
        'histogram_quantile(0.99, sum by (le, verb) (rate(apiserver_request_duration_seconds_bucket{job="$job", verb!~"WATCH|CONNECT"}[$__rate_interval])))',
      ),
      ['apiserver_request_duration_seconds_bucket'],
    );
    assert.deepEqual(
      metricNames(
        'sum(rate(a_total{code=~"5.."}[5m])) / on (job) group_left sum(rate(b_total[5m])) > bool 0.5',
      ),
      ['a_total', 'b_total'],
    );
    assert.deepEqual(metricNames('label_values(apiserver_request_total{job="$job"}, instance)'), [
      'apiserver_request_total',
    ]);
    assert.deepEqual(metricNames('topk(15, max by (resource) (apiserver_storage_objects))'), [
      'apiserver_storage_objects',
    ]);
  });
});

describe('dashboards', () => {
  it('there is at least the API server dashboard', () => {
    assert.ok(files.includes('apiserver.json'), files.join(', '));
  });

  for (const f of files) {
    describe(f, () => {
      const d = load(f);

      it('is a dashboard of the current schema with a title, uid and time range', () => {
        assert.ok(typeof d.title === 'string' && d.title !== '');
        assert.match(d.uid ?? '', /^[A-Za-z0-9_-]{1,40}$/);
        assert.ok(
          (d.schemaVersion ?? 0) >= 36 && (d.schemaVersion ?? 0) <= 41,
          `schemaVersion ${d.schemaVersion}`,
        );
        assert.ok(Array.isArray(d.panels) && d.panels.length > 0);
        assert.ok(d.time !== undefined);
      });

      it('has a Prometheus datasource variable that every panel, query and variable uses', () => {
        const ds = d.templating.list.find((v) => v.name === 'datasource');
        assert.equal(ds?.type, 'datasource');
        assert.equal(ds?.query, 'prometheus');
        for (const p of allPanels(d)) {
          assert.deepEqual(p.datasource, PROMETHEUS, `panel ${p.id} ${p.title}`);
          for (const t of p.targets ?? [])
            assert.deepEqual(t.datasource, PROMETHEUS, `panel ${p.id} ${t.refId}`);
        }
        for (const v of d.templating.list.filter((v) => v.type === 'query')) {
          assert.deepEqual(v.datasource, PROMETHEUS, v.name);
        }
      });

      it('gives every panel a unique id and a place on the 24-column grid', () => {
        const ids = allPanels(d).map((p) => p.id);
        for (const id of ids) assert.ok(Number.isInteger(id) && (id as number) > 0, `id ${id}`);
        assert.equal(new Set(ids).size, ids.length, 'ids are unique');
        for (const p of allPanels(d)) {
          const g = p.gridPos;
          assert.ok(g !== undefined, `panel ${p.id} has a gridPos`);
          assert.ok(
            g.x >= 0 && g.w > 0 && g.x + g.w <= 24 && g.h > 0 && g.y >= 0,
            `panel ${p.id}: ${JSON.stringify(g)}`,
          );
        }
        // No two panels overlap.
        const cells = new Set<string>();
        for (const p of d.panels) {
          const g = p.gridPos as NonNullable<Panel['gridPos']>;
          for (let x = g.x; x < g.x + g.w; x++)
            for (let y = g.y; y < g.y + g.h; y++) {
              assert.ok(!cells.has(`${x},${y}`), `panel ${p.id} overlaps another at ${x},${y}`);
              cells.add(`${x},${y}`);
            }
        }
      });

      it('gives every query panel queries with distinct refIds', () => {
        for (const p of allPanels(d).filter((p) => p.type !== 'row')) {
          const targets = p.targets ?? [];
          assert.ok(targets.length > 0, `panel ${p.id} ${p.title} has queries`);
          assert.equal(new Set(targets.map((t) => t.refId)).size, targets.length, `panel ${p.id} refIds`);
          for (const t of targets)
            assert.ok(typeof t.expr === 'string' && t.expr !== '', `panel ${p.id} ${t.refId}`);
        }
      });

      it('names only known metrics in its queries and variables', () => {
        const exprs = [
          ...allPanels(d).flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? '')),
          ...d.templating.list.flatMap((v) =>
            v.type === 'query' ? [typeof v.query === 'string' ? v.query : (v.query?.query ?? '')] : [],
          ),
        ];
        for (const e of exprs) {
          const names = metricNames(e);
          assert.ok(names.length > 0, `no metric in ${e}`);
          for (const n of names) assert.ok(KNOWN.has(n), `${n} is not a known metric (in ${e})`);
          // Balanced brackets: a typo there is a query Grafana cannot run.
          for (const [open, close] of ['()', '{}', '[]']) {
            assert.equal(e.split(open).length, e.split(close).length, `unbalanced ${open}${close} in ${e}`);
          }
        }
      });
    });
  }

  it('the API server dashboard shows every metric of the list', () => {
    const d = load('apiserver.json');
    const named = new Set(
      allPanels(d).flatMap((p) => (p.targets ?? []).flatMap((t) => metricNames(t.expr ?? ''))),
    );
    const base = (n: string) => n.replace(/_(bucket|sum|count)$/, '');
    const shown = new Set([...named].map((n) => (HISTOGRAMS.includes(base(n)) ? base(n) : n)));
    for (const m of [...COUNTERS_AND_GAUGES, ...HISTOGRAMS]) assert.ok(shown.has(m), `${m} is on no panel`);
  });
});

// Server-side apply scenarios as data: each step is a manager applying or updating a Widget, and
// what the object, its managedFields, or the conflict must be afterwards. apply.test.ts runs them.

import type { JsonObject } from '../value.ts';

export interface Step {
  manager: string;
  op: 'apply' | 'update';
  /** For apply, the configuration's spec/status; for update, the whole spec/status written. */
  body: JsonObject;
  force?: boolean;
  subresource?: 'status';
  /** Which version of the Widget schema is served at this step (rule 6). */
  schema?: 'granular' | 'atomic';
  /** The stored result's spec and status. */
  object?: JsonObject;
  /** `manager|operation[|subresource]` -> fieldsV1, for every entry. */
  managed?: Record<string, unknown>;
  /** The step fails with these conflicts (`manager: path`), in message order. */
  conflicts?: string[];
  /** The exact conflict message. */
  message?: string;
}

export interface Scenario {
  name: string;
  rule: number;
  steps: Step[];
}

const A = 'applier';
const B = 'other';
const U = 'updater';

const apply = (manager: string, body: JsonObject, more: Partial<Step> = {}): Step => ({
  manager,
  op: 'apply',
  body,
  ...more,
});
const update = (manager: string, body: JsonObject, more: Partial<Step> = {}): Step => ({
  manager,
  op: 'update',
  body,
  ...more,
});

export const SCENARIOS: Scenario[] = [
  // Rule 1: ownership and conflicts.
  {
    name: 'apply creates and owns the fields it sets',
    rule: 1,
    steps: [
      apply(
        A,
        { spec: { replicas: 1, image: 'a' } },
        {
          object: { spec: { replicas: 1, image: 'a' } },
          managed: { [`${A}|Apply`]: { 'f:spec': { 'f:image': {}, 'f:replicas': {} } } },
        },
      ),
    ],
  },
  {
    name: 'a second applier changing an owned field conflicts',
    rule: 1,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      apply(
        B,
        { spec: { replicas: 2 } },
        {
          conflicts: [`${A}: .spec.replicas`],
          message: `Apply failed with 1 conflict: conflict with "${A}": .spec.replicas`,
        },
      ),
    ],
  },
  {
    name: 'force moves ownership and overwrites',
    rule: 1,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      apply(
        B,
        { spec: { replicas: 2 } },
        {
          force: true,
          object: { spec: { replicas: 2 } },
          managed: { [`${B}|Apply`]: { 'f:spec': { 'f:replicas': {} } } },
        },
      ),
    ],
  },
  {
    name: 'conflicts with several managers are grouped by manager',
    rule: 1,
    steps: [
      apply(A, { spec: { replicas: 1, image: 'a' } }),
      update(U, { spec: { replicas: 1, image: 'a', template: { name: 'n' } } }),
      apply(
        B,
        { spec: { replicas: 2, image: 'b', template: { name: 'm' } } },
        {
          message: `Apply failed with 3 conflicts: conflicts with "${A}":\n- .spec.image\n- .spec.replicas\nconflicts with "${U}" using tests.example/v1:\n- .spec.template.name`,
        },
      ),
    ],
  },
  {
    name: 'a conflicting apply leaves the object as it was',
    rule: 1,
    steps: [
      apply(A, { spec: { replicas: 1, image: 'a' } }),
      apply(B, { spec: { replicas: 5, tags: ['x'] } }, { conflicts: [`${A}: .spec.replicas`] }),
      apply(A, { spec: { replicas: 1, image: 'a' } }, { object: { spec: { replicas: 1, image: 'a' } } }),
    ],
  },
  {
    name: 'applying new fields another manager does not own never conflicts',
    rule: 1,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      apply(
        B,
        { spec: { image: 'b' } },
        {
          object: { spec: { replicas: 1, image: 'b' } },
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:replicas': {} } },
            [`${B}|Apply`]: { 'f:spec': { 'f:image': {} } },
          },
        },
      ),
    ],
  },
  {
    name: 'conflict on a list-map entry field names the key',
    rule: 1,
    steps: [
      apply(A, { spec: { containers: [{ name: 'web', image: 'nginx' }] } }),
      apply(
        B,
        { spec: { containers: [{ name: 'web', image: 'httpd' }] } },
        {
          message: `Apply failed with 1 conflict: conflict with "${A}": .spec.containers[name="web"].image`,
        },
      ),
    ],
  },
  {
    name: 'conflict with a status updater names the subresource',
    rule: 1,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      update(U, { status: { phase: 'Running' } }, { subresource: 'status' }),
      apply(
        B,
        { status: { phase: 'Done' } },
        {
          subresource: 'status',
          message: `Apply failed with 1 conflict: conflict with "${U}" with subresource "status" using tests.example/v1: .status.phase`,
        },
      ),
    ],
  },
  {
    name: 'forced apply takes only the conflicting fields from the owner',
    rule: 1,
    steps: [
      apply(A, { spec: { replicas: 1, image: 'a' } }),
      apply(
        B,
        { spec: { replicas: 3 } },
        {
          force: true,
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:image': {} } },
            [`${B}|Apply`]: { 'f:spec': { 'f:replicas': {} } },
          },
        },
      ),
    ],
  },
  {
    name: 'the status is not owned through the main resource',
    rule: 1,
    steps: [
      apply(
        A,
        { spec: { replicas: 1 }, status: { phase: 'x' } },
        {
          managed: { [`${A}|Apply`]: { 'f:spec': { 'f:replicas': {} } } },
        },
      ),
    ],
  },
  {
    name: 'apply through the status subresource owns only the status',
    rule: 1,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      apply(
        B,
        { spec: { replicas: 9 }, status: { phase: 'Ready' } },
        {
          subresource: 'status',
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:replicas': {} } },
            [`${B}|Apply|status`]: { 'f:status': { 'f:phase': {} } },
          },
        },
      ),
    ],
  },
  // Rule 2: shared ownership.
  {
    name: 'the same value makes ownership shared',
    rule: 2,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      apply(
        B,
        { spec: { replicas: 1 } },
        {
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:replicas': {} } },
            [`${B}|Apply`]: { 'f:spec': { 'f:replicas': {} } },
          },
        },
      ),
    ],
  },
  {
    name: 'a shared field changed by one owner conflicts with the other',
    rule: 2,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      apply(B, { spec: { replicas: 1 } }),
      apply(A, { spec: { replicas: 2 } }, { conflicts: [`${B}: .spec.replicas`] }),
    ],
  },
  {
    name: 'a shared field kept by the other owner when one drops it',
    rule: 2,
    steps: [
      apply(A, { spec: { replicas: 1, image: 'a' } }),
      apply(B, { spec: { replicas: 1 } }),
      apply(
        A,
        { spec: { image: 'a' } },
        {
          object: { spec: { replicas: 1, image: 'a' } },
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:image': {} } },
            [`${B}|Apply`]: { 'f:spec': { 'f:replicas': {} } },
          },
        },
      ),
    ],
  },
  {
    name: 'after dropping ownership the other manager changes the field freely',
    rule: 2,
    steps: [
      apply(A, { spec: { replicas: 1, image: 'a' } }),
      apply(B, { spec: { replicas: 1 } }),
      apply(A, { spec: { image: 'a' } }),
      apply(B, { spec: { replicas: 4 } }, { object: { spec: { replicas: 4, image: 'a' } } }),
    ],
  },
  {
    name: 'shared list-map entry stays while one owner still applies it',
    rule: 2,
    steps: [
      apply(A, { spec: { containers: [{ name: 'web', image: 'nginx' }] } }),
      apply(B, { spec: { containers: [{ name: 'web', image: 'nginx' }] } }),
      apply(
        A,
        { spec: { replicas: 1 } },
        {
          object: { spec: { replicas: 1, containers: [{ name: 'web', image: 'nginx' }] } },
        },
      ),
    ],
  },
  {
    name: 'shared set value stays while one owner still applies it',
    rule: 2,
    steps: [
      apply(A, { spec: { tags: ['a', 'b'] } }),
      apply(B, { spec: { tags: ['b'] } }),
      apply(A, { spec: { tags: ['a'] } }, { object: { spec: { tags: ['a', 'b'] } } }),
    ],
  },
  // Rule 3: omitted fields are removed.
  {
    name: 'a field the applier alone owned and now omits is removed',
    rule: 3,
    steps: [
      apply(A, { spec: { replicas: 1, image: 'a' } }),
      apply(A, { spec: { image: 'a' } }, { object: { spec: { image: 'a' } } }),
    ],
  },
  {
    name: 'a struct emptied of owned fields goes with them',
    rule: 3,
    steps: [
      apply(A, { spec: { template: { name: 'n' } } }),
      apply(A, { spec: { replicas: 1 } }, { object: { spec: { replicas: 1 } } }),
    ],
  },
  {
    name: 'an omitted map key is removed',
    rule: 3,
    steps: [
      apply(A, { spec: { labels: { a: '1', b: '2' } } }),
      apply(A, { spec: { labels: { a: '1' } } }, { object: { spec: { labels: { a: '1' } } } }),
    ],
  },
  {
    name: 'an omitted list-map entry is removed',
    rule: 3,
    steps: [
      apply(A, { spec: { containers: [{ name: 'a' }, { name: 'b' }] } }),
      apply(
        A,
        { spec: { containers: [{ name: 'b' }] } },
        { object: { spec: { containers: [{ name: 'b' }] } } },
      ),
    ],
  },
  {
    name: 'an omitted set value is removed',
    rule: 3,
    steps: [
      apply(A, { spec: { tags: ['x', 'y'] } }),
      apply(A, { spec: { tags: ['y'] } }, { object: { spec: { tags: ['y'] } } }),
    ],
  },
  {
    name: 'a field set by an updater is not removed by an applier omitting it',
    rule: 3,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      update(U, { spec: { replicas: 1, image: 'u' } }),
      apply(A, { spec: { replicas: 1 } }, { object: { spec: { replicas: 1, image: 'u' } } }),
    ],
  },
  {
    name: 'a field the applier owned but an updater changed is kept when omitted',
    rule: 3,
    steps: [
      apply(A, { spec: { replicas: 1, image: 'a' } }),
      update(U, { spec: { replicas: 1, image: 'u' } }),
      apply(A, { spec: { replicas: 1 } }, { object: { spec: { replicas: 1, image: 'u' } } }),
    ],
  },
  {
    name: 'a nested field removed from a list entry the applier still applies',
    rule: 3,
    steps: [
      apply(A, { spec: { containers: [{ name: 'web', image: 'nginx', args: ['-v'] }] } }),
      apply(
        A,
        { spec: { containers: [{ name: 'web', image: 'nginx' }] } },
        {
          object: { spec: { containers: [{ name: 'web', image: 'nginx' }] } },
        },
      ),
    ],
  },
  {
    name: 'an omitted atomic list goes whole',
    rule: 3,
    steps: [
      apply(A, { spec: { args: ['a', 'b'], replicas: 1 } }),
      apply(A, { spec: { replicas: 1 } }, { object: { spec: { replicas: 1 } } }),
    ],
  },
  {
    name: 'omitting everything leaves no ownership behind',
    rule: 3,
    steps: [apply(A, { spec: { replicas: 1 } }), apply(A, {}, { object: {}, managed: {} })],
  },
  {
    name: 'an entry another applier added to the same list stays',
    rule: 3,
    steps: [
      apply(A, { spec: { containers: [{ name: 'a' }] } }),
      apply(B, { spec: { containers: [{ name: 'b' }] } }),
      apply(A, { spec: { replicas: 2 } }, { object: { spec: { replicas: 2, containers: [{ name: 'b' }] } } }),
    ],
  },
  // Rule 4: updates.
  {
    name: 'an update never conflicts and takes ownership',
    rule: 4,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      update(
        U,
        { spec: { replicas: 7 } },
        {
          object: { spec: { replicas: 7 } },
          managed: { [`${U}|Update`]: { 'f:spec': { 'f:replicas': {} } } },
        },
      ),
    ],
  },
  {
    name: 'after an update took a field, the applier conflicts on it',
    rule: 4,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      update(U, { spec: { replicas: 7 } }),
      apply(
        A,
        { spec: { replicas: 2 } },
        {
          message: `Apply failed with 1 conflict: conflict with "${U}" using tests.example/v1: .spec.replicas`,
        },
      ),
    ],
  },
  {
    name: 'a create records everything it set, maps with their own entry',
    rule: 4,
    steps: [
      update(
        U,
        { spec: { replicas: 1, labels: { a: 'b' } } },
        {
          managed: {
            [`${U}|Update`]: { 'f:spec': { '.': {}, 'f:labels': { '.': {}, 'f:a': {} }, 'f:replicas': {} } },
          },
        },
      ),
    ],
  },
  {
    name: 'an update that changes nothing records nothing new',
    rule: 4,
    steps: [
      update(U, { spec: { replicas: 1 } }),
      update(
        B,
        { spec: { replicas: 1 } },
        { managed: { [`${U}|Update`]: { 'f:spec': { '.': {}, 'f:replicas': {} } } } },
      ),
    ],
  },
  {
    name: 'an update removing a field takes it from its owner',
    rule: 4,
    steps: [
      apply(A, { spec: { replicas: 1, image: 'a' } }),
      update(
        U,
        { spec: { replicas: 1 } },
        {
          managed: { [`${A}|Apply`]: { 'f:spec': { 'f:replicas': {} } } },
        },
      ),
    ],
  },
  {
    name: 'updates by the same manager accumulate in one entry',
    rule: 4,
    steps: [
      update(U, { spec: { replicas: 1 } }),
      update(
        U,
        { spec: { replicas: 1, image: 'x' } },
        {
          managed: { [`${U}|Update`]: { 'f:spec': { '.': {}, 'f:image': {}, 'f:replicas': {} } } },
        },
      ),
    ],
  },
  {
    name: 'an update and an apply by one manager are two entries',
    rule: 4,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      update(
        A,
        { spec: { replicas: 1, image: 'x' } },
        {
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:replicas': {} } },
            [`${A}|Update`]: { 'f:spec': { 'f:image': {} } },
          },
        },
      ),
    ],
  },
  {
    name: 'a status update is its own entry and leaves spec owners alone',
    rule: 4,
    steps: [
      apply(A, { spec: { replicas: 1 } }),
      update(
        U,
        { status: { phase: 'Up' } },
        {
          subresource: 'status',
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:replicas': {} } },
            [`${U}|Update|status`]: { 'f:status': { '.': {}, 'f:phase': {} } },
          },
        },
      ),
    ],
  },
  {
    name: 'an update of a list-map entry field takes only that field',
    rule: 4,
    steps: [
      apply(A, { spec: { containers: [{ name: 'web', image: 'nginx' }] } }),
      update(
        U,
        { spec: { containers: [{ name: 'web', image: 'httpd' }] } },
        {
          managed: {
            [`${A}|Apply`]: {
              'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:name': {} } } },
            },
            [`${U}|Update`]: {
              'f:spec': { 'f:containers': { 'k:{"name":"web"}': { 'f:image': {} } } },
            },
          },
        },
      ),
    ],
  },
  // Rule 5: topologies.
  {
    name: 'granular map: keys are owned one by one',
    rule: 5,
    steps: [
      apply(A, { spec: { labels: { a: '1' } } }),
      apply(
        B,
        { spec: { labels: { b: '2' } } },
        {
          object: { spec: { labels: { a: '1', b: '2' } } },
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:labels': { 'f:a': {} } } },
            [`${B}|Apply`]: { 'f:spec': { 'f:labels': { 'f:b': {} } } },
          },
        },
      ),
    ],
  },
  {
    name: 'atomic map: owned whole, replaced whole',
    rule: 5,
    steps: [
      apply(
        A,
        { spec: { selector: { a: '1' } } },
        {
          managed: { [`${A}|Apply`]: { 'f:spec': { 'f:selector': {} } } },
        },
      ),
      apply(B, { spec: { selector: { b: '2' } } }, { conflicts: [`${A}: .spec.selector`] }),
      apply(
        B,
        { spec: { selector: { b: '2' } } },
        { force: true, object: { spec: { selector: { b: '2' } } } },
      ),
    ],
  },
  {
    name: 'atomic struct: owned whole, replaced whole',
    rule: 5,
    steps: [
      apply(
        A,
        { spec: { limits: { cpu: '1', memory: '1Gi' } } },
        {
          managed: { [`${A}|Apply`]: { 'f:spec': { 'f:limits': {} } } },
        },
      ),
      apply(A, { spec: { limits: { cpu: '2' } } }, { object: { spec: { limits: { cpu: '2' } } } }),
    ],
  },
  {
    name: 'granular struct: fields merge',
    rule: 5,
    steps: [
      apply(A, { spec: { template: { name: 'n' } } }),
      apply(
        B,
        { spec: { template: { color: 'red' } } },
        {
          object: { spec: { template: { name: 'n', color: 'red' } } },
        },
      ),
    ],
  },
  {
    name: 'list map with two keys and a defaulted key',
    rule: 5,
    steps: [
      apply(
        A,
        { spec: { ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] } },
        {
          managed: {
            [`${A}|Apply`]: {
              'f:spec': {
                'f:ports': {
                  'k:{"port":53,"protocol":"UDP"}': { '.': {}, 'f:port': {}, 'f:protocol': {} },
                  'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {} },
                },
              },
            },
          },
        },
      ),
    ],
  },
  {
    name: 'list map entries merge by key with the live order kept',
    rule: 5,
    steps: [
      apply(A, {
        spec: {
          containers: [
            { name: 'a', image: '1' },
            { name: 'b', image: '2' },
          ],
        },
      }),
      apply(
        B,
        { spec: { containers: [{ name: 'c', image: '3' }] } },
        {
          object: {
            spec: {
              containers: [
                { name: 'a', image: '1' },
                { name: 'b', image: '2' },
                { name: 'c', image: '3' },
              ],
            },
          },
        },
      ),
    ],
  },
  {
    name: 'shared list map entries follow the configuration order',
    rule: 5,
    steps: [
      apply(A, { spec: { containers: [{ name: 'a' }, { name: 'b' }] } }),
      apply(
        A,
        { spec: { containers: [{ name: 'b' }, { name: 'a' }] } },
        {
          object: { spec: { containers: [{ name: 'b' }, { name: 'a' }] } },
        },
      ),
    ],
  },
  {
    name: 'nested list map inside a list map entry',
    rule: 5,
    steps: [
      apply(A, { spec: { containers: [{ name: 'web', env: [{ name: 'X', value: '1' }] }] } }),
      apply(
        B,
        { spec: { containers: [{ name: 'web', env: [{ name: 'Y', value: '2' }] }] } },
        {
          object: {
            spec: {
              containers: [
                {
                  name: 'web',
                  env: [
                    { name: 'X', value: '1' },
                    { name: 'Y', value: '2' },
                  ],
                },
              ],
            },
          },
          managed: {
            [`${A}|Apply`]: {
              'f:spec': {
                'f:containers': {
                  'k:{"name":"web"}': {
                    '.': {},
                    'f:env': { 'k:{"name":"X"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
                    'f:name': {},
                  },
                },
              },
            },
            [`${B}|Apply`]: {
              'f:spec': {
                'f:containers': {
                  'k:{"name":"web"}': {
                    '.': {},
                    'f:env': { 'k:{"name":"Y"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
                    'f:name': {},
                  },
                },
              },
            },
          },
        },
      ),
    ],
  },
  {
    name: 'set: values owned one by one',
    rule: 5,
    steps: [
      apply(A, { spec: { tags: ['a'] } }),
      apply(
        B,
        { spec: { tags: ['b'] } },
        {
          object: { spec: { tags: ['a', 'b'] } },
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:tags': { 'v:"a"': {} } } },
            [`${B}|Apply`]: { 'f:spec': { 'f:tags': { 'v:"b"': {} } } },
          },
        },
      ),
    ],
  },
  {
    name: 'atomic list: owned whole and conflicts whole',
    rule: 5,
    steps: [
      apply(A, { spec: { args: ['a'] } }, { managed: { [`${A}|Apply`]: { 'f:spec': { 'f:args': {} } } } }),
      apply(B, { spec: { args: ['b'] } }, { conflicts: [`${A}: .spec.args`] }),
    ],
  },
  {
    name: 'a merge patch strategy with a key reads as a list map',
    rule: 5,
    steps: [
      apply(A, { spec: { legacy: [{ name: 'a', value: '1' }] } }),
      apply(
        B,
        { spec: { legacy: [{ name: 'b', value: '2' }] } },
        {
          object: {
            spec: {
              legacy: [
                { name: 'a', value: '1' },
                { name: 'b', value: '2' },
              ],
            },
          },
        },
      ),
    ],
  },
  {
    name: 'a merge patch strategy without a key reads as a set',
    rule: 5,
    steps: [
      apply(A, { spec: { legacySet: ['a'] } }),
      apply(
        B,
        { spec: { legacySet: ['b'] } },
        {
          object: { spec: { legacySet: ['a', 'b'] } },
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:legacySet': { 'v:"a"': {} } } },
            [`${B}|Apply`]: { 'f:spec': { 'f:legacySet': { 'v:"b"': {} } } },
          },
        },
      ),
    ],
  },
  {
    name: 'unstructured content: keys are fields, lists atomic',
    rule: 5,
    steps: [
      apply(
        A,
        { spec: { extra: { a: { b: 1 }, list: [1, 2] } } },
        {
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:extra': { 'f:a': { '.': {}, 'f:b': {} }, 'f:list': {} } } },
          },
        },
      ),
      apply(B, { spec: { extra: { a: { c: 2 }, list: [3] } } }, { conflicts: [`${A}: .spec.extra.list`] }),
      apply(
        B,
        { spec: { extra: { a: { c: 2 } } } },
        {
          object: { spec: { extra: { a: { b: 1, c: 2 }, list: [1, 2] } } },
        },
      ),
    ],
  },
  {
    name: 'an empty map is owned as a value',
    rule: 5,
    steps: [
      apply(
        A,
        { spec: { labels: {} } },
        {
          object: { spec: { labels: {} } },
          managed: { [`${A}|Apply`]: { 'f:spec': { 'f:labels': {} } } },
        },
      ),
    ],
  },
  {
    name: 'an explicit null is owned as a value',
    rule: 5,
    steps: [
      apply(A, { spec: { image: null } }, { managed: { [`${A}|Apply`]: { 'f:spec': { 'f:image': {} } } } }),
    ],
  },
  // Rule 6: topology changes.
  {
    name: 'granular to atomic: the previous owner owns the whole value',
    rule: 6,
    steps: [
      apply(
        A,
        { spec: { config: { a: '1' } } },
        {
          managed: { [`${A}|Apply`]: { 'f:spec': { 'f:config': { 'f:a': {} } } } },
        },
      ),
      apply(
        B,
        { spec: { replicas: 1 } },
        {
          schema: 'atomic',
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:config': {} } },
            [`${B}|Apply`]: { 'f:spec': { 'f:replicas': {} } },
          },
        },
      ),
    ],
  },
  {
    name: 'granular to atomic: later changes by others conflict',
    rule: 6,
    steps: [
      apply(A, { spec: { config: { a: '1' } } }),
      apply(B, { spec: { config: { b: '2' } } }, { schema: 'atomic', conflicts: [`${A}: .spec.config`] }),
    ],
  },
  {
    name: 'granular to atomic: an updater owning a part owns the whole',
    rule: 6,
    steps: [
      update(U, { spec: { config: { a: '1' } } }),
      apply(B, { spec: { config: { a: '2' } } }, { schema: 'atomic', conflicts: [`${U}: .spec.config`] }),
    ],
  },
  {
    name: 'atomic to granular: nothing is reassigned',
    rule: 6,
    steps: [
      apply(
        A,
        { spec: { config: { a: '1' } } },
        { schema: 'atomic', managed: { [`${A}|Apply`]: { 'f:spec': { 'f:config': {} } } } },
      ),
      apply(
        B,
        { spec: { replicas: 1 } },
        {
          managed: {
            [`${A}|Apply`]: { 'f:spec': { 'f:config': {} } },
            [`${B}|Apply`]: { 'f:spec': { 'f:replicas': {} } },
          },
        },
      ),
    ],
  },
  {
    name: 'atomic to granular: later updates do not conflict',
    rule: 6,
    steps: [
      apply(A, { spec: { config: { a: '1' } } }, { schema: 'atomic' }),
      apply(B, { spec: { config: { b: '2' } } }, { object: { spec: { config: { a: '1', b: '2' } } } }),
    ],
  },
  {
    name: 'atomic list to set: values merge afterwards',
    rule: 6,
    steps: [
      apply(A, { spec: { flags: ['a'] } }),
      apply(B, { spec: { flags: ['b'] } }, { schema: 'atomic', object: { spec: { flags: ['a', 'b'] } } }),
    ],
  },
  {
    name: 'set to atomic list: the value owner owns the list',
    rule: 6,
    steps: [
      apply(
        A,
        { spec: { flags: ['a'] } },
        { schema: 'atomic', managed: { [`${A}|Apply`]: { 'f:spec': { 'f:flags': { 'v:"a"': {} } } } } },
      ),
      apply(B, { spec: { flags: ['b'] } }, { conflicts: [`${A}: .spec.flags`] }),
    ],
  },
];

// Encode and decode speed per codec (JSON, YAML, protobuf, CBOR) for a 1 KiB ConfigMap and a full
// Deployment, in-process: no server, no storage. Each case runs for a fixed time and reports
// operations per second; --quick runs each for a few milliseconds, to exercise the code only.

import { builtinKinds } from '../../src/apis/index.ts';
import { deploymentFixture } from '../../src/apis/testing/protobuf-fixtures.ts';
import { CBOR_SERIALIZER, protobufSerializer } from '../../src/codec/binary-serializers.ts';
import { JSON_SERIALIZER, type Serializer, YAML_SERIALIZER } from '../../src/codec/serializers.ts';
import type { ApiObject } from '../../src/machinery/object.ts';
import { namingProfile } from '../../src/naming/profile.ts';
import { formatNumber } from '../lib/format.ts';
import type { Scenario, ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { renderTable } from '../lib/table.ts';

const PROFILE = namingProfile('spec');
const KINDS = builtinKinds(PROFILE);
const lookup = (apiVersion: string, kind: string) =>
  KINDS.find(
    (k) =>
      k.resource.kind === kind &&
      (k.resource.group === '' ? k.resource.version : `${k.resource.group}/${k.resource.version}`) ===
        apiVersion,
  )?.schema;

const CODECS: Serializer[] = [
  JSON_SERIALIZER,
  YAML_SERIALIZER,
  protobufSerializer(PROFILE.protobufMediaType, lookup),
  CBOR_SERIALIZER,
];

/** A ConfigMap whose JSON body is about 1 KiB. */
function configMap(): ApiObject {
  const data: Record<string, string> = {};
  for (let i = 0; i < 12; i++) data[`key-${i}`] = `value-${i}-${'x'.repeat(48)}`;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'settings',
      namespace: 'default',
      uid: '6f1b7c1e-3a58-4a8e-9b1c-2d4e5f607182',
      resourceVersion: '812',
      creationTimestamp: '2024-05-06T07:08:09Z',
      labels: { app: 'web' },
    },
    data,
  };
}

const encode = (s: Serializer, o: ApiObject): string | Buffer =>
  s.binary ? s.encode(o) : s.encode(o, false);
const decode = (s: Serializer, b: string | Buffer): unknown =>
  s.binary ? s.decodeChecked(b as Buffer).value : s.decode(b as string);

/** Operations per second of `f`, run repeatedly for about `ms` milliseconds. */
function opsPerSecond(f: () => unknown, ms: number): number {
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 16; i++) f();
    n += 16;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

interface CodecResult {
  object: string;
  codec: string;
  bytes: number;
  encodePerSecond: number;
  decodePerSecond: number;
}

async function run(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const ms = ctx.quick ? 5 : 2000;
  const objects: [string, ApiObject][] = [
    ['ConfigMap 1 KiB', configMap()],
    ['Deployment', deploymentFixture().json],
  ];
  const results: CodecResult[] = [];
  for (const [object, obj] of objects) {
    for (const s of CODECS) {
      ctx.log(`${object} ${s.mediaType}`);
      const body = encode(s, obj);
      opsPerSecond(() => decode(s, encode(s, obj)), ms / 4); // warm-up
      results.push({
        object,
        codec: s.mediaType,
        bytes: Buffer.byteLength(body),
        encodePerSecond: opsPerSecond(() => encode(s, obj), ms),
        decodePerSecond: opsPerSecond(() => decode(s, body), ms),
      });
    }
  }
  const markdown = renderTable({
    headers: ['object', 'codec', 'bytes', 'encode/s', 'decode/s'],
    align: ['left', 'left', 'right', 'right', 'right'],
    rows: results.map((r) => [
      r.object,
      r.codec,
      String(r.bytes),
      formatNumber(r.encodePerSecond),
      formatNumber(r.decodePerSecond),
    ]),
  });
  return { results, markdown };
}

export const codecScenario: Scenario = {
  name: 'codec',
  description: 'encode/decode ops/s per codec (JSON, YAML, protobuf, CBOR), in-process',
  run,
};

// Expected bytes for golden tests from an independent encoder: protobufjs reading the fixture
// .proto files under test/fixtures/protobuf (upstream's messages and field numbers). Test data for
// it is Go-shaped: every Go value field set explicitly, as upstream's marshalers always write them.

import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/protobuf/', import.meta.url));
const FILES = ['meta', 'runtime', 'intstr', 'resource', 'core', 'apps', 'coordination', 'autoscaling'];

let root: protobuf.Root | undefined;

function fixtureRoot(): protobuf.Root {
  root ??= new protobuf.Root().loadSync(
    FILES.map((f) => `${FIXTURES}${f}.proto`),
    { keepCase: true },
  );
  return root;
}

/** The message `type` (`fixture.core.ConfigMap`) of `data`, encoded by protobufjs. */
export function fixtureMessage(type: string, data: Record<string, unknown>): Buffer {
  const t = fixtureRoot().lookupType(type);
  const problem = t.verify(data);
  if (problem !== null) throw new Error(`fixture data for ${type}: ${problem}`);
  return Buffer.from(t.encode(t.fromObject(data)).finish());
}

/** The whole body upstream sends: the magic, then Unknown {typeMeta, raw, '', ''}. */
export function fixtureEnvelope(
  type: string,
  apiVersion: string,
  kind: string,
  data: Record<string, unknown>,
): Buffer {
  const raw = fixtureMessage(type, data);
  const unknown = fixtureMessage('fixture.runtime.Unknown', {
    typeMeta: { apiVersion, kind },
    raw,
    contentEncoding: '',
    contentType: '',
  });
  return Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), unknown]);
}

// Go-shaped helpers for the well-known messages.

/** metav1.Time: whole seconds, nanos written as 0. */
export const goTime = (iso: string) => ({ seconds: Date.parse(iso) / 1000, nanos: 0 });
/** metav1.MicroTime: seconds and the microseconds as nanos. */
export const goMicroTime = (iso: string) => {
  const ms = Date.parse(iso);
  const micros = Number(/\.(\d{6})Z$/.exec(iso)?.[1] ?? '0');
  return { seconds: Math.floor(ms / 1000), nanos: micros * 1000 };
};
/** intstr.IntOrString: all three fields. */
export const goIntOrString = (v: number | string) =>
  typeof v === 'number' ? { type: 0, intVal: v, strVal: '' } : { type: 1, intVal: 0, strVal: v };
export const goQuantity = (s: string) => ({ string: s });

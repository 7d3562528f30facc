// Protobuf messages to JSON-shaped objects: the object upstream's JSON encoding of the decoded Go
// struct shows. Go value structs are always there (`status: {}`), scalars are dropped when zero
// unless the Go field has no omitempty, pointers are there exactly when they were on the wire, the
// zero time is absent (Go writes null, which our objects leave out). Unknown fields are skipped; a
// singular message seen twice merges, as protobuf requires. Input is untrusted: every length is
// checked, nesting is bounded, and any failure is a ProtobufError.

import { ProtobufError } from './errors.ts';
import { type Elem, type FieldPlan, isInline, type MessagePlan } from './plan.ts';
import { formatTimestamp, type Timestamp } from './time.ts';
import { Reader, WIRE_BYTES, WIRE_FIXED64, WIRE_VARINT } from './wire.ts';

/** Deeper than any built-in kind nests; a body nesting further is refused rather than recursed. */
const MAX_DEPTH = 100;

type Json = Record<string, unknown>;

/** Decoded but not yet shaped values of one message, by property name. */
type Seen = Map<string, unknown>;

/** A decoded singular message awaiting its final shape (kept so a repeated occurrence can merge). */
class Pending {
  constructor(
    readonly plan: MessagePlan,
    readonly seen: Seen,
  ) {}
}

/** Decodes a whole message (`bytes` is exactly the message) into its JSON shape. */
export function readMessage(plan: MessagePlan, bytes: Uint8Array): Json {
  const seen: Seen = new Map();
  readInto(new Reader(bytes), plan, seen, 0);
  return shape(plan, seen);
}

function wireName(t: number): string {
  return ['varint', 'fixed64', 'bytes', 'start group', 'end group', 'fixed32'][t] ?? String(t);
}

function readInto(r: Reader, plan: MessagePlan, seen: Seen, depth: number): void {
  if (depth > MAX_DEPTH) throw new ProtobufError(`message nesting exceeds ${MAX_DEPTH} levels`);
  while (!r.done) {
    const [num, wireType] = r.tag();
    const slot = plan.byNum.get(num);
    if (slot === undefined) {
      r.skip(wireType);
      continue;
    }
    if (isInline(slot)) {
      expectWire(wireType, WIRE_BYTES, `field ${num}`);
      const n = r.length();
      const inner = new Reader(r.buf, r.pos, r.pos + n);
      r.pos += n;
      // The embedded struct's fields belong to this same JSON object.
      readInto(inner, slot.inline, seen, depth + 1);
      continue;
    }
    readField(r, slot, wireType, seen, depth);
  }
}

function expectWire(got: number, want: number, what: string): void {
  if (got !== want) {
    throw new ProtobufError(`wrong wire type ${wireName(got)} for ${what} (want ${wireName(want)})`);
  }
}

function scalarWire(elem: Elem): number {
  if (elem.kind === 'int' || elem.kind === 'bool') return WIRE_VARINT;
  if (elem.kind === 'double') return WIRE_FIXED64;
  return WIRE_BYTES;
}

function readField(r: Reader, f: FieldPlan, wireType: number, seen: Seen, depth: number): void {
  const want = scalarWire(f.elem);
  if (f.shape === 'list') {
    let list = seen.get(f.name) as unknown[] | undefined;
    if (list === undefined) {
      list = [];
      seen.set(f.name, list);
    }
    if (want !== WIRE_BYTES && wireType === WIRE_BYTES) {
      // A packed list of numbers: accepted as every protobuf reader must, though Go never writes it.
      const n = r.length();
      const inner = new Reader(r.buf, r.pos, r.pos + n);
      r.pos += n;
      while (!inner.done) list.push(readValue(inner, f.elem, depth, f.name));
      return;
    }
    expectWire(wireType, want, f.name);
    const v = readValue(r, f.elem, depth, f.name);
    list.push(v instanceof Pending ? shape(v.plan, v.seen) : v);
    return;
  }
  if (f.shape === 'map') {
    expectWire(wireType, WIRE_BYTES, f.name);
    let map = seen.get(f.name) as Json | undefined;
    if (map === undefined) {
      map = {};
      seen.set(f.name, map);
    }
    const n = r.length();
    const entry = new Reader(r.buf, r.pos, r.pos + n);
    r.pos += n;
    let key = '';
    let value: unknown;
    while (!entry.done) {
      const [k, wt] = entry.tag();
      if (k === 1) {
        expectWire(wt, WIRE_BYTES, `${f.name} key`);
        key = entry.string();
      } else if (k === 2) {
        expectWire(wt, want, `${f.name} value`);
        value = readValue(entry, f.elem, depth, f.name);
      } else entry.skip(wt);
    }
    if (value instanceof Pending) value = shape(value.plan, value.seen);
    map[key] = value === undefined ? zeroJson(f.elem) : finishValue(f.elem, value);
    return;
  }
  expectWire(wireType, want, f.name);
  if (f.elem.kind === 'message') {
    // A message seen again merges into the first, as protobuf (and Go's generated code) does.
    const prior = seen.get(f.name);
    const plan = (f.elem.message as () => MessagePlan)();
    const n = r.length();
    const inner = new Reader(r.buf, r.pos, r.pos + n);
    r.pos += n;
    const target = prior instanceof Pending ? prior : new Pending(plan, new Map());
    readInto(inner, plan, target.seen, depth + 1);
    seen.set(f.name, target);
    return;
  }
  seen.set(f.name, readValue(r, f.elem, depth, f.name));
}

/** Reads one value of `elem`'s kind (the tag already read). */
function readValue(r: Reader, elem: Elem, depth: number, where: string): unknown {
  switch (elem.kind) {
    case 'string':
      return r.string();
    case 'bytes':
      return Buffer.from(r.bytes()).toString('base64');
    case 'int':
      return elem.int32 ? r.int32() : r.int64();
    case 'bool':
      return r.bool();
    case 'double':
      return r.double();
    case 'message': {
      const plan = (elem.message as () => MessagePlan)();
      const n = r.length();
      const seen: Seen = new Map();
      readInto(new Reader(r.buf, r.pos, r.pos + n), plan, seen, depth + 1);
      r.pos += n;
      return new Pending(plan, seen);
    }
    case 'time':
    case 'microtime':
      return readSub(r, (inner) => readTimestamp(inner));
    case 'intorstring':
      return readSub(r, (inner) => readIntOrString(inner, where));
    case 'quantity':
      return readSub(r, (inner) => readQuantity(inner, where));
    case 'fieldsv1':
    case 'rawextension':
      return readSub(r, (inner) => readRaw(inner, where));
    case 'stringlist':
      return readSub(r, (inner) => readStringList(inner, where));
  }
}

function readSub<T>(r: Reader, read: (inner: Reader) => T): T {
  const n = r.length();
  const inner = new Reader(r.buf, r.pos, r.pos + n);
  r.pos += n;
  return read(inner);
}

function readTimestamp(r: Reader): Timestamp {
  const ts = { seconds: 0, nanos: 0 };
  if (r.done) return { seconds: -62135596800, nanos: 0 };
  while (!r.done) {
    const [k, wt] = r.tag();
    if (k === 1 && wt === WIRE_VARINT) ts.seconds = r.int64();
    else if (k === 2 && wt === WIRE_VARINT) ts.nanos = r.int32();
    else if (k === 1 || k === 2) expectWire(wt, WIRE_VARINT, 'Timestamp field');
    else r.skip(wt);
  }
  return ts;
}

function readIntOrString(r: Reader, where: string): number | string {
  let type = 0;
  let intVal = 0;
  let strVal = '';
  while (!r.done) {
    const [k, wt] = r.tag();
    if (k === 1) {
      expectWire(wt, WIRE_VARINT, `${where} type`);
      type = r.int64();
    } else if (k === 2) {
      expectWire(wt, WIRE_VARINT, `${where} intVal`);
      intVal = r.int32();
    } else if (k === 3) {
      expectWire(wt, WIRE_BYTES, `${where} strVal`);
      strVal = r.string();
    } else r.skip(wt);
  }
  if (type === 0) return intVal;
  if (type === 1) return strVal;
  // Go's MarshalJSON refuses any other type.
  throw new ProtobufError(`${where}: impossible IntOrString.Type ${type}`);
}

function readQuantity(r: Reader, where: string): string {
  let s: string | undefined;
  while (!r.done) {
    const [k, wt] = r.tag();
    if (k === 1) {
      expectWire(wt, WIRE_BYTES, `${where} quantity`);
      s = r.string();
    } else r.skip(wt);
  }
  // Upstream parses the string on the way in; an empty one does not parse.
  if (s === undefined || s === '')
    throw new ProtobufError(`${where}: quantities must match the regular expression`);
  return s;
}

function readStringList(r: Reader, where: string): string[] {
  const items: string[] = [];
  while (!r.done) {
    const [k, wt] = r.tag();
    if (k === 1) {
      expectWire(wt, WIRE_BYTES, `${where} items`);
      items.push(r.string());
    } else r.skip(wt);
  }
  return items;
}

function readRaw(r: Reader, where: string): Uint8Array | null {
  let raw: Uint8Array | null = null;
  while (!r.done) {
    const [k, wt] = r.tag();
    if (k === 1) {
      expectWire(wt, WIRE_BYTES, `${where} raw`);
      raw = r.bytes();
    } else r.skip(wt);
  }
  return raw;
}

/** The JSON of a Go zero value of `elem` where Go's JSON shows it (map values, value structs). */
function zeroJson(elem: Elem): unknown {
  switch (elem.kind) {
    case 'string':
    case 'bytes':
      return '';
    case 'int':
    case 'double':
      return 0;
    case 'bool':
      return false;
    case 'intorstring':
      return 0;
    case 'quantity':
      return '0';
    case 'message':
      return shape((elem.message as () => MessagePlan)(), new Map());
    default:
      return undefined;
  }
}

const SCALARS = new Set(['string', 'bytes', 'int', 'bool', 'double']);

function isZeroScalar(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

/** A decoded value in its JSON form; undefined where Go's JSON has null. */
function finishValue(elem: Elem, v: unknown): unknown {
  switch (elem.kind) {
    case 'time':
      return formatTimestamp(v as Timestamp, false);
    case 'microtime':
      return formatTimestamp(v as Timestamp, true);
    case 'fieldsv1':
    case 'rawextension': {
      const raw = v as Uint8Array | null;
      if (raw === null || raw.length === 0) return undefined;
      try {
        return JSON.parse(Buffer.from(raw).toString('utf8'));
      } catch {
        throw new ProtobufError(`${elem.kind === 'fieldsv1' ? 'FieldsV1' : 'RawExtension'} raw is not JSON`);
      }
    }
    case 'message':
      return v instanceof Pending ? shape(v.plan, v.seen) : v;
    default:
      return v;
  }
}

/** The JSON object for a message's decoded values, in the schema's property order. */
function shape(plan: MessagePlan, seen: Seen): Json {
  const out: Json = {};
  for (const f of plan.props) {
    const v = seen.get(f.name);
    if (f.shape === 'list') {
      const list = v as unknown[] | undefined;
      if (list !== undefined && list.length > 0) {
        out[f.name] = list.map((item) => {
          const done = finishValue(f.elem, item);
          return done === undefined ? null : done;
        });
      }
      continue;
    }
    if (f.shape === 'map') {
      const map = v as Json | undefined;
      if (map !== undefined && Object.keys(map).length > 0) out[f.name] = map;
      continue;
    }
    if (v === undefined) {
      // Absent on the wire: a pointer stays nil; a value field is its zero.
      if (f.pointer) continue;
      if (f.elem.kind === 'message' || f.elem.kind === 'intorstring' || f.elem.kind === 'quantity') {
        out[f.name] = zeroJson(f.elem);
      } else if (f.keepZero) {
        const zero = zeroJson(f.elem);
        if (zero !== undefined) out[f.name] = zero;
      }
      continue;
    }
    const done = finishValue(f.elem, v);
    if (done === undefined) continue;
    // omitempty drops a zero scalar; IntOrString and Quantity are structs to Go and always show.
    if (!f.pointer && !f.keepZero && SCALARS.has(f.elem.kind) && isZeroScalar(done)) continue;
    out[f.name] = done;
  }
  return out;
}

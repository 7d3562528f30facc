// JSON-shaped objects to protobuf messages, byte for byte as upstream's generated marshalers write
// the Go struct the JSON decodes into: fields in number order; Go value fields written even when
// absent (as their zero), pointer fields only when set, lists and maps only when non-empty; map
// entries sorted by key; well-known messages (Time, IntOrString, Quantity, FieldsV1) in their shapes.

import { ProtobufError } from './errors.ts';
import { type Elem, type FieldPlan, isInline, type MessagePlan } from './plan.ts';
import { isZeroTimestamp, parseTimestamp } from './time.ts';
import { WIRE_BYTES, WIRE_FIXED64, WIRE_VARINT, type Writer } from './wire.ts';

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Writes the fields of `obj` (a JSON object) as the message `plan` describes. */
export function writeMessage(w: Writer, plan: MessagePlan, obj: Json): void {
  for (const slot of plan.slots) {
    if (isInline(slot)) {
      // An embedded Go struct is a value: always written, even with nothing in it.
      w.tag(slot.num, WIRE_BYTES);
      const start = w.begin();
      writeMessage(w, slot.inline, obj);
      w.finish(start);
      continue;
    }
    writeField(w, slot, obj[slot.name]);
  }
}

function writeField(w: Writer, f: FieldPlan, v: unknown): void {
  if (v === undefined || v === null) {
    if (f.shape === 'single' && !f.pointer) writeZero(w, f.num, f.elem);
    return;
  }
  if (f.shape === 'list') {
    if (!Array.isArray(v)) throw new ProtobufError(`${f.name}: expected a list, got ${typeof v}`);
    for (const item of v) {
      if (item === null || item === undefined) writeZero(w, f.num, f.elem);
      else writeValue(w, f.num, f.elem, item, f.name);
    }
    return;
  }
  if (f.shape === 'map') {
    if (!isRecord(v)) throw new ProtobufError(`${f.name}: expected a map, got ${typeof v}`);
    for (const key of sortedKeys(v)) {
      w.tag(f.num, WIRE_BYTES);
      const start = w.begin();
      w.tag(1, WIRE_BYTES);
      w.string(key);
      const value = v[key];
      if (value === null || value === undefined) writeZero(w, 2, f.elem);
      else writeValue(w, 2, f.elem, value, `${f.name}[${key}]`);
      w.finish(start);
    }
    return;
  }
  writeValue(w, f.num, f.elem, v, f.name);
}

/** Map keys in Go's sort.Strings order (bytes of UTF-8, which differs from UTF-16 past the BMP). */
function sortedKeys(map: Json): string[] {
  const keys = Object.keys(map);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test is for ASCII only
  if (keys.every((k) => /^[\u0000-\u007f]*$/.test(k))) return keys.sort();
  return keys.sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
}

/** The zero value of a Go value field, as its marshaler writes it. */
function writeZero(w: Writer, num: number, elem: Elem): void {
  switch (elem.kind) {
    case 'int':
    case 'bool':
      w.tag(num, WIRE_VARINT);
      w.uvarint(0);
      return;
    case 'double':
      w.tag(num, WIRE_FIXED64);
      w.double(0);
      return;
    case 'string':
    case 'bytes':
    case 'time':
    case 'microtime':
    case 'fieldsv1':
    case 'rawextension':
    case 'stringlist':
      // Empty string, nil bytes written as empty, the zero time and empty raw messages: all length 0.
      w.tag(num, WIRE_BYTES);
      w.uvarint(0);
      return;
    case 'intorstring':
      writeIntOrString(w, num, 0);
      return;
    case 'quantity':
      writeQuantity(w, num, '0');
      return;
    case 'message': {
      w.tag(num, WIRE_BYTES);
      const start = w.begin();
      writeMessage(w, (elem.message as () => MessagePlan)(), {});
      w.finish(start);
      return;
    }
  }
}

// A function of its own rather than a closure in writeValue: a closure made on every value
// written showed in the rollout bench's profiles (under tsx, each also gets its name set).
function wrongValue(where: string, want: string, v: unknown): ProtobufError {
  return new ProtobufError(`${where}: expected ${want}, got ${Array.isArray(v) ? 'list' : typeof v}`);
}

function writeValue(w: Writer, num: number, elem: Elem, v: unknown, where: string): void {
  switch (elem.kind) {
    case 'string':
      if (typeof v !== 'string') throw wrongValue(where, 'a string', v);
      w.tag(num, WIRE_BYTES);
      w.string(v);
      return;
    case 'bytes':
      if (typeof v !== 'string') throw wrongValue(where, 'a base64 string', v);
      w.tag(num, WIRE_BYTES);
      w.bytes(Buffer.from(v, 'base64'));
      return;
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v)) throw wrongValue(where, 'an integer', v);
      w.tag(num, WIRE_VARINT);
      w.int(v);
      return;
    case 'bool':
      if (typeof v !== 'boolean') throw wrongValue(where, 'a boolean', v);
      w.tag(num, WIRE_VARINT);
      w.uvarint(v ? 1 : 0);
      return;
    case 'double':
      if (typeof v !== 'number') throw wrongValue(where, 'a number', v);
      w.tag(num, WIRE_FIXED64);
      w.double(v);
      return;
    case 'message': {
      if (!isRecord(v)) throw wrongValue(where, 'an object', v);
      w.tag(num, WIRE_BYTES);
      const start = w.begin();
      writeMessage(w, (elem.message as () => MessagePlan)(), v);
      w.finish(start);
      return;
    }
    case 'time':
    case 'microtime': {
      const ts = parseTimestamp(v, elem.kind === 'microtime');
      w.tag(num, WIRE_BYTES);
      const start = w.begin();
      if (!isZeroTimestamp(ts)) {
        w.tag(1, WIRE_VARINT);
        w.int(ts.seconds);
        w.tag(2, WIRE_VARINT);
        w.int(ts.nanos);
      }
      w.finish(start);
      return;
    }
    case 'intorstring':
      if (typeof v !== 'string' && (typeof v !== 'number' || !Number.isInteger(v))) {
        throw wrongValue(where, 'an integer or a string', v);
      }
      writeIntOrString(w, num, v);
      return;
    case 'quantity':
      if (typeof v !== 'string' && typeof v !== 'number') throw wrongValue(where, 'a quantity', v);
      writeQuantity(w, num, String(v));
      return;
    case 'stringlist': {
      if (!Array.isArray(v) || !v.every((s) => typeof s === 'string'))
        throw wrongValue(where, 'a list of strings', v);
      w.tag(num, WIRE_BYTES);
      const start = w.begin();
      for (const s of v) {
        w.tag(1, WIRE_BYTES);
        w.string(s);
      }
      w.finish(start);
      return;
    }
    case 'fieldsv1':
    case 'rawextension': {
      w.tag(num, WIRE_BYTES);
      const start = w.begin();
      w.tag(1, WIRE_BYTES);
      w.bytes(v instanceof Uint8Array ? v : Buffer.from(JSON.stringify(v), 'utf8'));
      w.finish(start);
      return;
    }
  }
}

/** IntOrString writes all three fields, as its Go marshaler does: type, intVal, strVal. */
function writeIntOrString(w: Writer, num: number, v: number | string): void {
  w.tag(num, WIRE_BYTES);
  const start = w.begin();
  w.tag(1, WIRE_VARINT);
  w.uvarint(typeof v === 'number' ? 0 : 1);
  w.tag(2, WIRE_VARINT);
  w.int(typeof v === 'number' ? v : 0);
  w.tag(3, WIRE_BYTES);
  w.string(typeof v === 'number' ? '' : v);
  w.finish(start);
}

function writeQuantity(w: Writer, num: number, s: string): void {
  w.tag(num, WIRE_BYTES);
  const start = w.begin();
  w.tag(1, WIRE_BYTES);
  w.string(s);
  w.finish(start);
}

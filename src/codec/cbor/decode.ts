// The second of upstream's two passes: build the value from input the well-formedness scan accepted,
// with the choices of upstream's decode mode for unstructured content (map[string]interface{}):
// byte and text strings both become strings, integers must fit int64, only false, true and null of
// the simple values are accepted, tags 0 and 1 become RFC 3339 strings, tags 21 to 23 turn byte
// strings into base64url, base64 or hex text, every other tag stands for its content, and maps
// with a repeated key are reported (or, as upstream does, rejected). Like upstream, decoding goes on
// past an error and reports the first one; a repeated key overrides earlier errors of its own map.
// Iterative, with an explicit stack, so that 10,000 levels of nesting cannot overflow ours.

import type { KeyOccurrence } from '../json-duplicates.ts';
import * as errorsModule from './errors.ts';
import { CborDecodeError } from './errors.ts';
import * as float16Module from './float16.ts';
import type { Head } from './head.ts';
import * as headModule from './head.ts';
import * as timeTagsModule from './time-tags.ts';
import * as utf8Module from './utf8.ts';
import * as wellformedModule from './wellformed.ts';

// Bound once: under the test loader, imported bindings are getters, and these are read per byte.
const { GO_INT64, GO_MAP, GO_STRING, GO_TIME, invalidUTF8, TYPE_NAMES, unacceptable, unmarshalTypeError } =
  errorsModule;
const { halfToNumber } = float16Module;
const {
  AI_2BYTE,
  AI_4BYTE,
  AI_8BYTE,
  AI_INDEFINITE,
  BREAK,
  exactArg,
  MAJOR_ARRAY,
  MAJOR_BYTES,
  MAJOR_MAP,
  MAJOR_NINT,
  MAJOR_SIMPLE,
  MAJOR_TAG,
  MAJOR_TEXT,
  MAJOR_UINT,
  MAX_INT64,
  readHead,
  SIMPLE_FALSE,
  SIMPLE_NULL,
  SIMPLE_TRUE,
  TAG_BASE16_LATER,
  TAG_BASE64_LATER,
  TAG_BASE64URL_LATER,
  TAG_EPOCH_TIME,
  TAG_RFC3339_TIME,
  TAG_SELF_DESCRIBED,
} = headModule;
const { epochFloatToRFC3339, epochToRFC3339, rfc3339TagToString } = timeTagsModule;
const { decodeLenientUtf8, decodeStrictUtf8, goQuote } = utf8Module;
const { scanWellFormed } = wellformedModule;

export interface CborDecodeOptions {
  /**
   * 'report' (default): a repeated key keeps its last value, as JSON.parse does, and is listed in
   * `duplicates` for the fieldValidation levels. 'reject': fail as upstream does, whatever the
   * fieldValidation level: `cbor: found duplicate map key "a" at map element index 1`.
   */
  duplicateKeys?: 'report' | 'reject';
  /**
   * 'any' (default) takes any data item. 'object' decodes as upstream decodes a request body, into
   * map[string]interface{}: another type at the top is `cbor: cannot unmarshal array into Go value
   * of type map[string]interface {}`; null is accepted (and is null).
   */
  top?: 'any' | 'object';
  /** Paths (in the duplicates' style) whose first key's ordinal the caller wants, e.g. unknown fields. */
  ordinalsOf?: ReadonlySet<string>;
}

export interface CborDecoded {
  value: unknown;
  /** Repeated keys, in reading order, in the form the JSON path reports them. */
  duplicates: KeyOccurrence[];
  /** Ordinal of the first key at each path asked for with `ordinalsOf`. */
  ordinals: Map<string, number>;
}

type Slot = 'any' | 'object';

/** A finished data item: its value, or the first error inside it. */
interface Done {
  value: unknown;
  err: CborDecodeError | undefined;
}

interface ArrayFrame {
  kind: 'array';
  out: unknown[];
  /** Elements left, or -1 when indefinite. */
  remaining: number;
  err: CborDecodeError | undefined;
  path: string;
}

interface MapFrame {
  kind: 'map';
  out: Record<string, unknown>;
  remaining: number;
  err: CborDecodeError | undefined;
  path: string;
  /** Pair index, as upstream's messages count it. */
  index: number;
  key: string;
  /** Position of the current key among all keys of the body, in reading order. */
  keyOrdinal: number;
  /** Upstream reuses its key variable, so a null key repeats the key before it ("" at first). */
  lastKey: string;
  /** A repeated key under 'reject': the rest of the map has been skipped. */
  closed: boolean;
}

/** An "expected later encoding" tag (21-23) that applies to the byte strings of its content. */
interface EncodingFrame {
  kind: 'encoding';
  slot: Slot;
  path: string;
  started: boolean;
  result: Done | undefined;
}

type Frame = ArrayFrame | MapFrame | EncodingFrame;

const ok = (value: unknown): Done => ({ value, err: undefined });
const fail = (err: CborDecodeError): Done => ({ value: null, err });

/** Does a tag accept the content whose first byte is `next`? Tags 0 and 1 constrain it. */
function builtinTagError(tag: number, next: number): CborDecodeError | undefined {
  const major = next >> 5;
  if (tag === TAG_RFC3339_TIME && major !== MAJOR_TEXT) {
    return tagContentError(tag, 'text string', major);
  }
  if (
    tag === TAG_EPOCH_TIME &&
    major !== MAJOR_UINT &&
    major !== MAJOR_NINT &&
    (next < 0xf9 || next > 0xfb)
  ) {
    return tagContentError(tag, 'integer or floating-point number', major);
  }
  return undefined;
}

const tagContentError = (tag: number, expected: string, major: number) =>
  new CborDecodeError(
    `cbor: tag number ${tag} must be followed by ${expected}, got ${TYPE_NAMES[major]}`,
    'tag',
    'decode',
  );

class Decoder {
  readonly view: DataView;
  pos = 0;
  readonly stack: Frame[] = [];
  /** Expected-later-encoding tags in force, innermost last. */
  readonly encodings: number[] = [];
  readonly duplicates: KeyOccurrence[] = [];
  readonly ordinals = new Map<string, number>();
  ordinal = 0;

  constructor(
    readonly data: Uint8Array,
    readonly rejectDuplicates: boolean,
    readonly ordinalsOf: ReadonlySet<string>,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  head(): Head {
    const h = readHead(this.data, this.view, this.pos);
    this.pos = h.end;
    return h;
  }

  peekMajor(): number {
    return this.data[this.pos] >> 5;
  }

  /** Skips the data item at `pos` (known to be well-formed). */
  skip(): void {
    this.pos = scanWellFormed(this.data, this.pos, true);
  }

  decode(top: Slot): Done {
    let r = this.begin(top, '');
    for (;;) {
      if (r === undefined) {
        r = this.next(this.stack[this.stack.length - 1]);
        continue;
      }
      const frame = this.stack[this.stack.length - 1];
      if (frame === undefined) return r;
      this.deliver(frame, r);
      r = undefined;
    }
  }

  /**
   * Strips self-described tags, checks the content types of a chain of tags, and decodes the value
   * at `pos`: a scalar comes back done; a container (or tag 21-23) pushes a frame and returns
   * undefined.
   */
  begin(slot: Slot, path: string): Done | undefined {
    for (;;) {
      const err = this.stripAndCheckTags();
      if (err !== undefined) return fail(err);
      const start = this.pos;
      const h = this.head();
      switch (h.major) {
        case MAJOR_UINT:
          if (exactArg(h) > MAX_INT64) {
            return fail(unmarshalTypeError(h.major, slot === 'object' ? GO_MAP : GO_INT64, overflowText(h)));
          }
          return slot === 'object' ? fail(unmarshalTypeError(h.major, GO_MAP)) : ok(h.arg);
        case MAJOR_NINT:
          if (exactArg(h) > MAX_INT64) {
            return fail(unmarshalTypeError(h.major, slot === 'object' ? GO_MAP : GO_INT64, overflowText(h)));
          }
          if (slot === 'object') return fail(unmarshalTypeError(h.major, GO_MAP));
          return ok(h.big === undefined ? -1 - h.arg : Number(-1n - h.big));
        case MAJOR_BYTES: {
          const bytes = this.byteString(h);
          if (slot === 'object') return fail(unmarshalTypeError(h.major, GO_MAP));
          return ok(this.bytesToString(bytes));
        }
        case MAJOR_TEXT: {
          const text = this.textString(h);
          if (typeof text !== 'string') return fail(text);
          return slot === 'object' ? fail(unmarshalTypeError(h.major, GO_MAP)) : ok(text);
        }
        case MAJOR_ARRAY:
          if (slot === 'object') {
            this.pos = start;
            this.skip();
            return fail(unmarshalTypeError(h.major, GO_MAP));
          }
          this.stack.push({ kind: 'array', out: [], remaining: remainingOf(h), err: undefined, path });
          return undefined;
        case MAJOR_MAP:
          this.stack.push({
            kind: 'map',
            out: {},
            remaining: remainingOf(h),
            err: undefined,
            path,
            index: 0,
            key: '',
            keyOrdinal: 0,
            lastKey: '',
            closed: false,
          });
          return undefined;
        case MAJOR_TAG:
          if (h.arg === TAG_BASE64URL_LATER || h.arg === TAG_BASE64_LATER || h.arg === TAG_BASE16_LATER) {
            this.encodings.push(h.arg);
            this.stack.push({ kind: 'encoding', slot, path, started: false, result: undefined });
            return undefined;
          }
          if (slot === 'any' && (h.arg === TAG_RFC3339_TIME || h.arg === TAG_EPOCH_TIME)) {
            return this.timeTag(h.arg);
          }
          // Any other tag stands for its content (upstream: UnrecognizedTagContentToAny).
          continue;
        default:
          return this.simple(h, slot);
      }
    }
  }

  /** Upstream strips self-described tags, then checks each tag of a chain against what follows. */
  stripAndCheckTags(): CborDecodeError | undefined {
    const { data } = this;
    while (this.peekMajor() === MAJOR_TAG) {
      const h = readHead(data, this.view, this.pos);
      if (h.arg !== TAG_SELF_DESCRIBED) break;
      this.pos = h.end;
    }
    let p = this.pos;
    while (data[p] >> 5 === MAJOR_TAG) {
      const h = readHead(data, this.view, p);
      const err = builtinTagError(h.arg, data[h.end]);
      if (err !== undefined) {
        this.pos = h.end;
        this.skip();
        return err;
      }
      p = h.end;
    }
    return undefined;
  }

  simple(h: Head, slot: Slot): Done {
    if (h.ai === AI_2BYTE || h.ai === AI_4BYTE || h.ai === AI_8BYTE) {
      if (slot === 'object') return fail(unmarshalTypeError(MAJOR_SIMPLE, GO_MAP));
      if (h.ai === AI_2BYTE) return ok(halfToNumber(h.arg));
      const view = this.view;
      return ok(h.ai === AI_4BYTE ? view.getFloat32(this.pos - 4) : view.getFloat64(this.pos - 8));
    }
    if (h.arg === SIMPLE_NULL) return ok(null);
    if (h.arg !== SIMPLE_FALSE && h.arg !== SIMPLE_TRUE) {
      return fail(unacceptable(MAJOR_SIMPLE, `simple value ${h.arg} is not recognized`, 'decode'));
    }
    return slot === 'object' ? fail(unmarshalTypeError(MAJOR_SIMPLE, GO_MAP)) : ok(h.arg === SIMPLE_TRUE);
  }

  /** The bytes of a byte string whose head was just read (chunks joined). */
  byteString(h: Head): Uint8Array {
    if (h.ai !== AI_INDEFINITE) {
      const bytes = this.data.subarray(this.pos, this.pos + h.arg);
      this.pos += h.arg;
      return bytes;
    }
    const chunks: Uint8Array[] = [];
    while (this.data[this.pos] !== BREAK) {
      const c = this.head();
      chunks.push(this.data.subarray(this.pos, this.pos + c.arg));
      this.pos += c.arg;
    }
    this.pos++;
    return Buffer.concat(chunks);
  }

  /** A text string whose head was just read; each chunk must be valid UTF-8 on its own. */
  textString(h: Head): string | CborDecodeError {
    if (h.ai !== AI_INDEFINITE) {
      const text = decodeStrictUtf8(this.data.subarray(this.pos, this.pos + h.arg));
      this.pos += h.arg;
      return text ?? invalidUTF8();
    }
    let out = '';
    let bad = false;
    while (this.data[this.pos] !== BREAK) {
      const c = this.head();
      const text = bad ? '' : decodeStrictUtf8(this.data.subarray(this.pos, this.pos + c.arg));
      this.pos += c.arg;
      if (text === undefined) bad = true;
      else out += text;
    }
    this.pos++;
    return bad ? invalidUTF8() : out;
  }

  /** A byte string as a string: text-encoded under a tag 21-23, else its bytes as Go's JSON shows them. */
  bytesToString(bytes: Uint8Array): string {
    if (this.encodings.length === 0) return decodeLenientUtf8(bytes);
    const tag = this.encodings[this.encodings.length - 1];
    const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (tag === TAG_BASE64URL_LATER) return b.toString('base64url');
    if (tag === TAG_BASE64_LATER) return b.toString('base64');
    return b.toString('hex');
  }

  timeTag(tag: number): Done {
    const h = this.head();
    try {
      if (tag === TAG_RFC3339_TIME) {
        const text = this.textString(h);
        return typeof text === 'string' ? ok(rfc3339TagToString(text)) : fail(text);
      }
      if (h.major === MAJOR_UINT || h.major === MAJOR_NINT) {
        if (exactArg(h) > MAX_INT64) return fail(unmarshalTypeError(h.major, GO_TIME, overflowText(h)));
        const seconds = h.major === MAJOR_UINT ? h.arg : -1 - h.arg;
        return ok(epochToRFC3339(seconds, 0));
      }
      const f = this.simple(h, 'any').value as number;
      const whole = Math.trunc(f);
      if (whole >= 2 ** 63 || whole < -(2 ** 63)) {
        return fail(unmarshalTypeError(MAJOR_SIMPLE, GO_TIME, `${f} overflows Go's int64`));
      }
      return ok(epochFloatToRFC3339(f));
    } catch (err) {
      if (err instanceof CborDecodeError) return fail(err);
      throw err;
    }
  }

  /**
   * Decodes a map key as upstream decodes into a Go string: byte and text strings are keys; null
   * keeps the previous key; anything else is an error (containers are skipped whole).
   * Returns the key, `null` for a null key, or the error.
   */
  key(): string | null | CborDecodeError {
    let pushed = 0;
    try {
      for (;;) {
        const err = this.stripAndCheckTags();
        if (err !== undefined) return err;
        const start = this.pos;
        const h = this.head();
        switch (h.major) {
          case MAJOR_BYTES:
            return this.bytesToString(this.byteString(h));
          case MAJOR_TEXT:
            return this.textString(h);
          case MAJOR_TAG:
            if (h.arg === TAG_BASE64URL_LATER || h.arg === TAG_BASE64_LATER || h.arg === TAG_BASE16_LATER) {
              this.encodings.push(h.arg);
              pushed++;
            }
            continue;
          case MAJOR_ARRAY:
          case MAJOR_MAP:
            this.pos = start;
            this.skip();
            return unmarshalTypeError(h.major, GO_STRING);
          case MAJOR_UINT:
            return unmarshalTypeError(h.major, GO_STRING);
          case MAJOR_NINT:
            return exactArg(h) > MAX_INT64
              ? unmarshalTypeError(h.major, GO_STRING, overflowText(h))
              : unmarshalTypeError(h.major, GO_STRING);
          default: {
            if (h.ai !== AI_2BYTE && h.ai !== AI_4BYTE && h.ai !== AI_8BYTE && h.arg === SIMPLE_NULL) {
              return null;
            }
            const simple = this.simple(h, 'any');
            return simple.err ?? unmarshalTypeError(MAJOR_SIMPLE, GO_STRING);
          }
        }
      }
    } finally {
      this.encodings.length -= pushed;
    }
  }

  /** Moves a frame on: starts its next child, or closes it and returns its value. */
  next(frame: Frame): Done | undefined {
    if (frame.kind === 'encoding') {
      if (!frame.started) {
        frame.started = true;
        return this.begin(frame.slot, frame.path);
      }
      this.stack.pop();
      this.encodings.pop();
      return frame.result;
    }
    if (frame.kind === 'array') {
      if (this.atEnd(frame)) return this.close(frame);
      return this.begin('any', this.containerNext() ? `${frame.path}[${frame.out.length}]` : '');
    }
    for (;;) {
      if (frame.closed || this.atEnd(frame)) return this.close(frame);
      const key = this.key();
      if (key instanceof CborDecodeError) {
        frame.err ??= key;
        this.skip();
        this.endEntry(frame);
        continue;
      }
      frame.key = key ?? frame.lastKey;
      frame.lastKey = frame.key;
      // Paths cost a string per key: build them only for containers and asked-for keys.
      let path = '';
      if (this.ordinalsOf.size > 0 || this.containerNext()) {
        path = frame.path === '' ? frame.key : `${frame.path}.${frame.key}`;
        if (this.ordinalsOf.has(path) && !this.ordinals.has(path)) this.ordinals.set(path, this.ordinal);
      }
      frame.keyOrdinal = this.ordinal++;
      return this.begin('any', path);
    }
  }

  /** Whether the next item may hold keys (a container, or a tag that may wrap one). */
  containerNext(): boolean {
    const major = this.data[this.pos] >> 5;
    return major === MAJOR_ARRAY || major === MAJOR_MAP || major === MAJOR_TAG;
  }

  /** Whether a container has no items left; consumes the break of an indefinite one. */
  atEnd(frame: ArrayFrame | MapFrame): boolean {
    if (frame.remaining >= 0) return frame.remaining === 0;
    if (this.data[this.pos] !== BREAK) return false;
    this.pos++;
    return true;
  }

  close(frame: ArrayFrame | MapFrame): Done {
    this.stack.pop();
    return { value: frame.out, err: frame.err };
  }

  endEntry(frame: ArrayFrame | MapFrame): void {
    if (frame.remaining > 0) frame.remaining--;
    if (frame.kind === 'map') frame.index++;
  }

  /** Hands a finished child to its frame. */
  deliver(frame: Frame, r: Done): void {
    if (frame.kind === 'encoding') {
      frame.result = r;
      return;
    }
    if (frame.kind === 'array') {
      if (r.err !== undefined) frame.err ??= r.err;
      frame.out.push(r.value);
      this.endEntry(frame);
      return;
    }
    if (r.err !== undefined) {
      frame.err ??= r.err;
      this.endEntry(frame);
      return;
    }
    const { out, key } = frame;
    if (Object.hasOwn(out, key)) this.repeated(frame);
    if (frame.closed) return;
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: r.value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else out[key] = r.value;
    this.endEntry(frame);
  }

  repeated(frame: MapFrame): void {
    if (!this.rejectDuplicates) {
      const path = frame.path === '' ? frame.key : `${frame.path}.${frame.key}`;
      this.duplicates.push({ path, ordinal: frame.keyOrdinal });
      return;
    }
    frame.err = new CborDecodeError(
      `cbor: found duplicate map key ${goQuote(frame.key)} at map element index ${frame.index}`,
      'duplicate-key',
      'decode',
    );
    // Upstream stops reading the map here: skip its remaining entries.
    this.endEntry(frame);
    while (!this.atEnd(frame)) {
      this.skip();
      this.skip();
      this.endEntry(frame);
    }
    frame.remaining = 0;
    frame.closed = true;
  }
}

/** Items left in a container whose head was just read (-1 when indefinite). */
function remainingOf(h: Head): number {
  return h.ai === AI_INDEFINITE ? -1 : h.arg;
}

function overflowText(h: Head): string {
  const n = exactArg(h);
  return h.major === MAJOR_NINT ? `-${n + 1n} overflows Go's int64` : `${n} overflows Go's int64`;
}

/**
 * Decodes one CBOR data item (the self-described tag optional) into a JSON-shaped value. Throws
 * CborDecodeError with upstream's message for anything upstream would refuse.
 */
export function decodeCbor(bytes: Uint8Array, options: CborDecodeOptions = {}): CborDecoded {
  scanWellFormed(bytes);
  const d = new Decoder(bytes, options.duplicateKeys === 'reject', options.ordinalsOf ?? new Set());
  const { value, err } = d.decode(options.top === 'object' ? 'object' : 'any');
  if (err !== undefined) throw err;
  return { value, duplicates: d.duplicates, ordinals: d.ordinals };
}

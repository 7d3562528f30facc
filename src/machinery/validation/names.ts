// Name formats (DNS labels and subdomains, path segments, label keys and values) and the validation
// of object metadata every kind shares. Each check returns upstream's message strings; upstream has
// two spellings of the length limit (`characters` for DNS names, `bytes` for label keys and
// values), and both are kept where upstream uses them.

import { Buffer } from 'node:buffer';
import { randomInt } from 'node:crypto';
import {
  type FieldError,
  type FieldPath,
  forbidden,
  goQuote,
  invalid,
  newPath,
  required,
  tooLong,
  validateImmutableField,
} from '../field-errors.ts';
import type { ObjectMeta } from '../object.ts';

/** Checks a name; `prefix` is true for a generateName prefix, which may end in a dash. */
export type NameValidator = (name: string, prefix: boolean) => string[];

/** Length in bytes of the UTF-8 encoding, which is what upstream's limits count. */
function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

function maxLenBytesError(length: number): string {
  return `must be no more than ${length} bytes`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

/** `<msg> (e.g. 'a',  or 'b', regex used for validation is '<re>')`; the double space is upstream's. */
export function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) out += ' or ';
    out += `'${ex}', `;
  });
  return `${out}regex used for validation is '${re}')`;
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

// ---------------------------------------------------------------------------------------------
// DNS names

export const DNS1123_LABEL_MAX_LENGTH = 63;
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
export const DNS1035_LABEL_MAX_LENGTH = 63;

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);

const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);

/** RFC 1123 label: at most 63 characters, `[a-z0-9]([-a-z0-9]*[a-z0-9])?`. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1123_LABEL_RE.test(value)) {
    // A valid subdomain that is not a valid label can only be failing on its dots.
    if (DNS1123_SUBDOMAIN_RE.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
}

/** RFC 1123 subdomain: at most 253 characters, dot-separated labels. */
export function isDNS1123Subdomain(value: string): string[] {
  return subdomainErrors(value, maxLenError);
}

function subdomainErrors(value: string, lengthError: (n: number) => string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(lengthError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  }
  return errs;
}

/** RFC 1035 label: like an RFC 1123 label but starting with a letter. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1035_LABEL_MAX_LENGTH));
  if (!DNS1035_LABEL_RE.test(value)) {
    errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  }
  return errs;
}

// A generateName prefix gets characters appended, so a trailing dash is fine there. Upstream masks
// it by replacing the last two characters with one letter; the shortening is kept as it is.
function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return `${name.slice(0, -2)}a`;
  return name;
}

/** Names that must be DNS subdomains (most kinds). */
export const nameIsDNSSubdomain: NameValidator = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** Names that must be DNS labels (namespaces, services...). */
export const nameIsDNSLabel: NameValidator = (name, prefix) =>
  isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** Names that must be DNS-1035 labels. */
export const nameIsDNS1035Label: NameValidator = (name, prefix) =>
  isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** Namespace names are DNS labels. */
export const validateNamespaceName: NameValidator = nameIsDNSLabel;

// ---------------------------------------------------------------------------------------------
// Path segment names (the weakest rule: anything that survives being one URL path segment)

export const NAME_MAY_NOT_BE = ['.', '..'] as const;
export const NAME_MAY_NOT_CONTAIN = ['/', '%'] as const;

export function isValidPathSegmentName(name: string): string[] {
  for (const bad of NAME_MAY_NOT_BE) {
    if (name === bad) return [`may not be '${bad}'`];
  }
  return isValidPathSegmentPrefix(name);
}

export function isValidPathSegmentPrefix(name: string): string[] {
  return NAME_MAY_NOT_CONTAIN.filter((bad) => name.includes(bad)).map((bad) => `may not contain '${bad}'`);
}

export const validatePathSegmentName: NameValidator = (name, prefix) =>
  prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);

// ---------------------------------------------------------------------------------------------
// Label keys (qualified names) and values

export const LABEL_VALUE_MAX_LENGTH = 63;
const LABEL_KEY_NAME_MAX_LENGTH = 63;
const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_RE = new RegExp(`^${LABEL_KEY_FMT}$`);
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);

/** A label key (also annotation keys, finalizers): `[prefix/]name`, prefix a DNS subdomain. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else errs.push(...subdomainErrors(prefix, maxLenBytesError).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a valid label key ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLength(name) > LABEL_KEY_NAME_MAX_LENGTH)
    errs.push(`name part ${maxLenBytesError(LABEL_KEY_NAME_MAX_LENGTH)}`);
  if (!LABEL_KEY_RE.test(name)) {
    errs.push(`name part ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

/** Label keys are qualified names. */
export const isLabelKey = isQualifiedName;

/** A label value: empty, or at most 63 bytes of `[A-Za-z0-9]`, `-`, `_`, `.` with alphanumeric ends. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenBytesError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE_RE.test(value)) {
    errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

// ---------------------------------------------------------------------------------------------
// Name generation

export const MAX_GENERATED_NAME_LENGTH = 58;
const RANDOM_LENGTH = 5;
// Upstream's alphabet: no vowels (no accidental words) and no characters that look alike.
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Five random characters from upstream's name alphabet. */
export function randomNameSuffix(): string {
  let out = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) out += NAME_ALPHABET[randomInt(NAME_ALPHABET.length)];
  return out;
}

/** A name from a generateName prefix: the prefix cut to 58 characters plus 5 random ones. */
export function generateName(base: string, suffix: () => string = randomNameSuffix): string {
  const head = base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base;
  return head + suffix();
}

// ---------------------------------------------------------------------------------------------
// Object metadata

export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;
export const FIELD_MANAGER_MAX_LENGTH = 128;
export const MAX_SUBRESOURCE_NAME_LENGTH = 256;
const NEGATIVE_MESSAGE = 'must be greater than or equal to 0';
const FINALIZER_ORPHAN = 'orphan';
const FINALIZER_FOREGROUND = 'foregroundDeletion';

function tagged(e: FieldError, origin: string): FieldError {
  return { ...e, origin };
}

function stringMap(v: unknown): [string, string][] {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return [];
  return Object.entries(v as Record<string, unknown>).map(([k, x]) => [
    k,
    typeof x === 'string' ? x : String(x),
  ]);
}

/** Label keys must be qualified names and values valid label values; errors name the map's path. */
export function validateLabels(labels: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of stringMap(labels)) {
    errs.push(...validateLabelName(k, path));
    for (const msg of isValidLabelValue(v)) {
      errs.push(tagged(invalid(path, v, msg), 'format=k8s-label-value'));
    }
  }
  return errs;
}

/** One label key. */
export function validateLabelName(key: string, path: FieldPath): FieldError[] {
  return isQualifiedName(key).map((msg) => tagged(invalid(path, key, msg), 'format=k8s-label-key'));
}

/** Annotation keys are qualified names in any case; keys and values together at most 256 KiB. */
export function validateAnnotations(
  annotations: Record<string, string> | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of stringMap(annotations)) {
    for (const msg of isQualifiedName(k.toLowerCase())) {
      errs.push(tagged(invalid(path, k, msg), 'format=k8s-label-key'));
    }
    total += byteLength(k) + byteLength(v);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) errs.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  return errs;
}

/** Each finalizer is a qualified name; `orphan` and `foregroundDeletion` exclude each other. */
export function validateFinalizers(finalizers: string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(finalizers)) return errs;
  for (const f of finalizers) {
    for (const msg of isQualifiedName(String(f))) errs.push(invalid(path, f, msg));
  }
  if (finalizers.includes(FINALIZER_ORPHAN) && finalizers.includes(FINALIZER_FOREGROUND)) {
    errs.push(
      invalid(
        path,
        finalizers,
        `finalizer ${FINALIZER_ORPHAN} and ${FINALIZER_FOREGROUND} cannot be both set`,
      ),
    );
  }
  return errs;
}

// Splits apiVersion the way upstream does; a malformed one has no version.
function versionOf(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return { group: '', version: '' };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Owner references need apiVersion, kind, name and uid, and at most one may be the controller. */
export function validateOwnerReferences(refs: unknown[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(refs)) return errs;
  let firstController = '';
  for (const raw of refs) {
    const ref = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const apiVersion = str(ref.apiVersion);
    const kind = str(ref.kind);
    const gv = versionOf(apiVersion);
    if (gv.version === '')
      errs.push(invalid(path.child('apiVersion'), apiVersion, 'version must not be empty'));
    if (kind === '') errs.push(invalid(path.child('kind'), kind, 'must not be empty'));
    if (str(ref.name) === '') errs.push(invalid(path.child('name'), str(ref.name), 'must not be empty'));
    if (str(ref.uid) === '') errs.push(invalid(path.child('uid'), str(ref.uid), 'must not be empty'));
    if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
      errs.push(invalid(path, raw, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) {
      const current = `${kind}/${str(ref.name)}`;
      if (firstController !== '') {
        errs.push(
          invalid(
            path,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** A field manager name: at most 128 bytes, printable characters only. */
export function validateFieldManager(manager: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (byteLength(manager) > FIELD_MANAGER_MAX_LENGTH) errs.push(tooLong(path, FIELD_MANAGER_MAX_LENGTH));
  let offset = 0;
  for (const ch of manager) {
    if (!PRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0)!;
      const u = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
      errs.push(invalid(path, manager, `invalid character ${u} (at position ${offset})`));
    }
    offset += byteLength(ch);
  }
  return errs;
}

/** managedFields entries: operation Apply or Update, fieldsType FieldsV1, a sane manager. */
export function validateManagedFields(entries: unknown[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(entries)) return errs;
  entries.forEach((raw, i) => {
    const e = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const p = path.index(i);
    const operation = str(e.operation);
    if (operation !== 'Apply' && operation !== 'Update') {
      errs.push(invalid(p.child('operation'), operation, 'must be `Apply` or `Update`'));
    }
    const fieldsType = str(e.fieldsType);
    if (fieldsType !== '' && fieldsType !== 'FieldsV1') {
      errs.push(invalid(p.child('fieldsType'), fieldsType, 'must be `FieldsV1`'));
    }
    errs.push(...validateFieldManager(str(e.manager), p.child('manager')));
    if (byteLength(str(e.subresource)) > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(tooLong(p.child('subresource'), MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}

export interface ObjectMetaValidationOptions {
  /** Whether the kind lives in namespaces (namespace required) or not (namespace forbidden). */
  namespaced: boolean;
  /** The kind's name rule. */
  nameValidator: NameValidator;
  /** Where the metadata sits; `metadata` by default. */
  path?: FieldPath;
}

/**
 * Metadata checks on create (after name generation): generateName and name against the kind's
 * rule, name required, namespace required or forbidden, then generation, labels, annotations,
 * owner references, finalizers and managed fields.
 */
export function validateObjectMeta(
  meta: ObjectMeta | undefined,
  opts: ObjectMetaValidationOptions,
): FieldError[] {
  const m = meta ?? {};
  const path = opts.path ?? newPath('metadata');
  const errs: FieldError[] = [];
  const generate = str(m.generateName);
  for (const msg of generate === '' ? [] : opts.nameValidator(generate, true)) {
    errs.push(invalid(path.child('generateName'), generate, msg));
  }
  const name = str(m.name);
  if (name === '') {
    errs.push(required(path.child('name'), 'name or generateName is required'));
  } else {
    for (const msg of opts.nameValidator(name, false)) errs.push(invalid(path.child('name'), name, msg));
  }
  const namespace = str(m.namespace);
  if (opts.namespaced && namespace === '') {
    errs.push(required(path.child('namespace')));
  } else if (opts.namespaced) {
    for (const msg of validateNamespaceName(namespace, false)) {
      errs.push(invalid(path.child('namespace'), namespace, msg));
    }
  } else if (namespace !== '') {
    errs.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  const generation = typeof m.generation === 'number' ? m.generation : 0;
  if (generation < 0) {
    errs.push(tagged(invalid(path.child('generation'), generation, NEGATIVE_MESSAGE), 'minimum'));
  }
  errs.push(...validateLabels(m.labels, path.child('labels')));
  errs.push(...validateAnnotations(m.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(m.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateFinalizers(m.finalizers, path.child('finalizers')));
  errs.push(...validateManagedFields(m.managedFields, path.child('managedFields')));
  return errs;
}

/**
 * Metadata checks on update: no new finalizers once deleting, resourceVersion present, generation
 * not going back, identity fields unchanged, then the same map and list checks as on create.
 */
export function validateObjectMetaUpdate(
  next: ObjectMeta | undefined,
  old: ObjectMeta | undefined,
  path: FieldPath = newPath('metadata'),
): FieldError[] {
  const n = next ?? {};
  const o = old ?? {};
  const errs: FieldError[] = [];
  if (o.deletionTimestamp) {
    const before = new Set(Array.isArray(o.finalizers) ? o.finalizers : []);
    const added = [...new Set(Array.isArray(n.finalizers) ? n.finalizers : [])]
      .filter((f) => !before.has(f))
      .sort();
    if (added.length > 0) {
      errs.push(
        forbidden(
          path.child('finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map(goQuote).join(', ')}}`,
        ),
      );
    }
  }
  const rv = str(n.resourceVersion);
  if (rv === '') errs.push(invalid(path.child('resourceVersion'), rv, 'must be specified for an update'));
  const newGeneration = typeof n.generation === 'number' ? n.generation : 0;
  const oldGeneration = typeof o.generation === 'number' ? o.generation : 0;
  if (newGeneration < oldGeneration) {
    errs.push(invalid(path.child('generation'), newGeneration, 'must not be decremented'));
  }
  errs.push(...validateImmutableField(str(n.name), str(o.name), path.child('name')));
  errs.push(...validateImmutableField(str(n.namespace), str(o.namespace), path.child('namespace')));
  errs.push(...validateImmutableField(str(n.uid), str(o.uid), path.child('uid')));
  errs.push(
    ...validateImmutableField(
      n.creationTimestamp ?? null,
      o.creationTimestamp ?? null,
      path.child('creationTimestamp'),
    ),
  );
  errs.push(
    ...validateImmutableField(
      n.deletionTimestamp ?? null,
      o.deletionTimestamp ?? null,
      path.child('deletionTimestamp'),
    ),
  );
  errs.push(
    ...validateImmutableField(
      n.deletionGracePeriodSeconds ?? null,
      o.deletionGracePeriodSeconds ?? null,
      path.child('deletionGracePeriodSeconds'),
    ),
  );
  errs.push(...validateLabels(n.labels, path.child('labels')));
  errs.push(...validateAnnotations(n.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(n.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateManagedFields(n.managedFields, path.child('managedFields')));
  return errs;
}

/** A port's name (IANA_SVC_NAME): messages, empty when valid. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLength(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) {
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  }
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) {
    errs.push('must not begin or end with a hyphen');
  }
  return errs;
}

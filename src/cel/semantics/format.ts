// The value semantics of upstream's CEL format library: the named formats reached as
// `format.<name>()` or `format.named(name)`, and `<format>.validate(s)`, which upstream answers
// with optional.none when s is valid and otherwise a list of messages. validate here returns
// the list (empty when valid); the binding turns it into the optional. Name rules come from
// machinery's validation; the OpenAPI formats are kube-openapi's strfmt checks.

import {
  isQualifiedName,
  isValidLabelValue,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
} from '../../machinery/validation/names.ts';
import { requestURIError } from './url.ts';

export interface Format {
  /** The key in `format.<key>()`. */
  readonly key: string;
  /** Upstream's Name; CEL equality of two formats compares it. */
  readonly name: string;
  /** Upstream's regex-size estimate, which its cost model charges validate() by. */
  readonly maxRegexSize: number;
  readonly validate: (s: string) => string[];
}

// kube-openapi's strfmt checks, the ones upstream's uuid/byte/date/datetime formats call.
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
// Go's regexp `.` is any character but a newline.
const TIME_OF_DAY = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u;

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Go's time.Parse("2006-01-02", s) succeeding: four-digit year, real month and day. */
export function isDate(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12) return false;
  const days = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day >= 1 && day <= days;
}

/**
 * strfmt's date-time check: lower-cased, split at every `t`, the first piece a date and the
 * second a time of day with an offset; pieces after the second are not looked at.
 */
export function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = TIME_OF_DAY.exec(parts[1]);
  return m !== null && m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

const check = (ok: (s: string) => boolean, msg: string) => (s: string) => (ok(s) ? [] : [msg]);

const FORMATS: Format[] = [
  { key: 'dns1123Label', name: 'DNS1123Label', maxRegexSize: 30, validate: (s) => nameIsDNSLabel(s, false) },
  {
    key: 'dns1123Subdomain',
    name: 'DNS1123Subdomain',
    maxRegexSize: 60,
    validate: (s) => nameIsDNSSubdomain(s, false),
  },
  {
    key: 'dns1035Label',
    name: 'DNS1035Label',
    maxRegexSize: 30,
    validate: (s) => nameIsDNS1035Label(s, false),
  },
  { key: 'qualifiedName', name: 'QualifiedName', maxRegexSize: 60, validate: isQualifiedName },
  {
    key: 'dns1123LabelPrefix',
    name: 'DNS1123LabelPrefix',
    maxRegexSize: 30,
    validate: (s) => nameIsDNSLabel(s, true),
  },
  {
    key: 'dns1123SubdomainPrefix',
    name: 'DNS1123SubdomainPrefix',
    maxRegexSize: 60,
    validate: (s) => nameIsDNSSubdomain(s, true),
  },
  {
    key: 'dns1035LabelPrefix',
    name: 'DNS1035LabelPrefix',
    maxRegexSize: 30,
    validate: (s) => nameIsDNS1035Label(s, true),
  },
  { key: 'labelValue', name: 'LabelValue', maxRegexSize: 40, validate: isValidLabelValue },
  {
    key: 'uri',
    name: 'URI',
    maxRegexSize: 1103,
    validate: (s) => {
      const err = requestURIError(s);
      return err === undefined ? [] : [err];
    },
  },
  {
    key: 'uuid',
    name: 'uuid',
    maxRegexSize: 70,
    validate: check((s) => UUID.test(s), 'does not match the UUID format'),
  },
  { key: 'byte', name: 'byte', maxRegexSize: 84, validate: check((s) => BASE64.test(s), 'invalid base64') },
  { key: 'date', name: 'date', maxRegexSize: 71, validate: check(isDate, 'invalid date') },
  { key: 'datetime', name: 'datetime', maxRegexSize: 71, validate: check(isDateTime, 'invalid datetime') },
];

/** Every named format by its `format.<key>()` key. */
export const NAMED_FORMATS: ReadonlyMap<string, Format> = new Map(FORMATS.map((f) => [f.key, f]));

/** format.named(name): the format, or undefined where upstream answers optional.none. */
export function namedFormat(key: string): Format | undefined {
  return NAMED_FORMATS.get(key);
}

/** <format>.validate(s): the messages, empty when s is valid. */
export function formatValidate(f: Format, s: string): string[] {
  return f.validate(s);
}

/** CEL equality of formats. */
export function formatEquals(a: Format, b: Format): boolean {
  return a.name === b.name;
}

// Secret: base64 data, write-only stringData merged into data, a type that decides which keys are
// required and that never changes, optionally immutable.

import { type FieldError, invalid, newPath, required } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { validateBootstrapTokenSecret } from '../../machinery/validation/bootstrap-token.ts';
import { bootstrapTokenSecretType } from '../../naming/bootstrap-tokens.ts';
import { labelKey, type NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { NAMESPACED_DEFAULTS } from '../strategy-defaults.ts';
import { validateImmutableData, validateSecretData } from './data-keys.ts';

type Data = Record<string, string>;

const DATA_DESCRIPTION =
  "The secret values, by key; each value is arbitrary bytes, written as base64 in JSON and YAML. Keys use only letters, digits, '-', '_' and '.'.";
const TYPE_DESCRIPTION = 'A label for the kind of secret held, so programs know how to treat the data.';

const schema = compileKindSchema({
  group: '',
  version: 'v1',
  kind: 'Secret',
  description:
    'Stores sensitive values of some type. The values in data together must stay under MaxSecretSize bytes.',
  properties: {
    data: {
      type: 'object',
      description: DATA_DESCRIPTION,
      additionalProperties: { type: 'string', format: 'byte' },
      proto: 2,
    },
    stringData: {
      type: 'object',
      description:
        'A write-only convenience for giving text values as plain strings. On write each entry is copied into data, replacing any value under the same key; reads never return this field.',
      additionalProperties: { type: 'string', default: '' },
      proto: 4,
    },
    type: {
      type: 'string',
      goType: 'v1.SecretType',
      description: TYPE_DESCRIPTION,
      proto: 3,
    },
    immutable: {
      type: 'boolean',
      description:
        'When true, the data of the Secret is frozen and only its metadata may still change. While not true, this setting itself may be changed at any time. Unset by default.',
      proto: 5,
      protoPointer: true,
    },
  },
});

const REDACTED = '<secret contents redacted>';

/**
 * Why `text` is not a JSON object, in the words of Go's decoder for the common cases; null when it
 * is one. Upstream decodes these keys into a map, so any other JSON value fails too.
 */
function jsonObjectProblem(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const trimmed = text.trim();
    if (trimmed === '') return 'unexpected end of JSON input';
    return `invalid character ${goCharQuote(trimmed[0])} looking for beginning of value`;
  }
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    const word = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    return `json: cannot unmarshal ${word} into Go value of type map[string]interface {}`;
  }
  return null;
}

/** A character as Go's %q prints a byte in decoder errors: 'x'. */
function goCharQuote(c: string): string {
  return c === "'" ? "'\\''" : `'${c}'`;
}

/** Moves stringData into data (base64), as the write-only field promises. */
function mergeStringData(obj: ApiObject): void {
  const stringData = obj.stringData as Data | undefined;
  if (stringData !== undefined && stringData !== null) {
    const data = { ...((obj.data as Data | undefined) ?? {}) };
    for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v)).toString('base64');
    obj.data = data;
  }
  delete obj.stringData;
}

export function secretKind(profile: NamingProfile): KindDefinition {
  const typeName = (t: string) => labelKey(profile, t);
  const SA_NAME = labelKey(profile, 'service-account.name');
  const bootstrapTokenType = bootstrapTokenSecretType(profile);
  const requiredKeys: Record<string, string[]> = {
    [typeName('dockercfg')]: ['.dockercfg'],
    [typeName('dockerconfigjson')]: ['.dockerconfigjson'],
    [typeName('ssh-auth')]: ['ssh-privatekey'],
    [typeName('tls')]: ['tls.crt', 'tls.key'],
  };

  const jsonKeys: Record<string, string> = {
    [typeName('dockercfg')]: '.dockercfg',
    [typeName('dockerconfigjson')]: '.dockerconfigjson',
  };

  const validateType = (obj: ApiObject): FieldError[] => {
    const type = String(obj.type ?? '');
    const data = (obj.data as Data | undefined) ?? {};
    const errs: FieldError[] = [];
    for (const k of requiredKeys[type] ?? []) {
      if (data[k] === undefined) errs.push(required(newPath('data').key(k), ''));
    }
    // Docker configurations must at least be JSON objects; their contents stay unquoted in errors.
    const jsonKey = jsonKeys[type];
    if (jsonKey !== undefined && typeof data[jsonKey] === 'string') {
      const problem = jsonObjectProblem(Buffer.from(data[jsonKey], 'base64').toString('utf8'));
      if (problem !== null) errs.push(invalid(newPath('data').key(jsonKey), REDACTED, problem));
    }
    if (type === typeName('service-account-token') && !obj.metadata?.annotations?.[SA_NAME]) {
      errs.push(required(newPath('metadata', 'annotations').key(SA_NAME), ''));
    }
    if (type === bootstrapTokenType) {
      errs.push(...validateBootstrapTokenSecret(String(obj.metadata?.name ?? ''), data));
    }
    if (type === typeName('basic-auth') && data.username === undefined && data.password === undefined) {
      errs.push(required(newPath('data').key('username'), ''), required(newPath('data').key('password'), ''));
    }
    return errs;
  };

  return {
    resource: {
      group: '',
      version: 'v1',
      resource: 'secrets',
      singular: 'secret',
      kind: 'Secret',
      listKind: 'SecretList',
      namespaced: true,
      verbs: STANDARD_VERBS,
      subresources: {},
    },
    schema,
    strategy: {
      ...NAMESPACED_DEFAULTS,
      selectableFields: { type: (obj) => String(obj.type ?? '') },
      prepareForCreate: mergeStringData,
      prepareForUpdate: (obj) => mergeStringData(obj),
      applyDefaults(obj) {
        if (obj.type === undefined || obj.type === '') obj.type = 'Opaque';
      },
      validate: (obj) => [
        ...schema.validate(obj),
        ...validateSecretData(obj.data as Data | undefined),
        ...validateType(obj),
      ],
      validateUpdate(obj, old) {
        const errs = validateImmutableData(obj, old, ['data']);
        if (obj.type !== old.type) errs.push(invalid(newPath('type'), obj.type, 'field is immutable'));
        return errs;
      },
    },
    table: [
      NAME_COLUMN,
      { name: 'Type', type: 'string', description: TYPE_DESCRIPTION, cell: (obj) => obj.type ?? '' },
      {
        name: 'Data',
        type: 'string',
        description: DATA_DESCRIPTION,
        cell: (obj) => Object.keys((obj.data as object) ?? {}).length,
      },
      AGE_COLUMN,
    ],
  };
}

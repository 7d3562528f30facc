// The strict decoding both of the server's configuration files share (AuthenticationConfiguration,
// authn/authentication-config.ts; AuthorizationConfiguration, authz/authorization-config.ts): YAML
// or JSON text with repeated keys refused, an object whose apiVersion names the file's group at a
// version upstream reads (under a profile that renames groups, the upstream-named group too) and
// whose kind is the file's, then a shape check that reports unknown fields and wrong types as
// upstream's strict decoder does. Imports naming/ only.

import { parseDocument } from 'yaml';
import { type NamingProfile, sameGroup } from '../naming/index.ts';

export class ConfigDecodeError extends Error {
  override name = 'ConfigDecodeError';
}

export type Shape = 'string' | 'bool' | { list: Shape } | { fields: Record<string, Shape> };

export interface ConfigFileKind {
  /** The profile's name of the file's group. */
  group: string;
  profile: NamingProfile;
  kind: string;
  versions: readonly string[];
  /** The whole object's shape, apiVersion and kind included. */
  shape: Shape;
}

/** The file's object, checked; throws ConfigDecodeError with upstream's message otherwise. */
export function decodeConfigFile(text: string, file: ConfigFileKind): Record<string, unknown> {
  if (text.length === 0) throw new ConfigDecodeError('empty config data');
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ConfigDecodeError(`yaml: ${doc.errors.map((e) => e.message).join('; ')}`);
  }
  const raw: unknown = doc.toJS();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigDecodeError("couldn't get version/kind; json parse error: not an object");
  }
  const obj = raw as Record<string, unknown>;
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  if (kind === '') throw new ConfigDecodeError(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const known = sameGroup(file.profile, group, file.group) && file.versions.includes(version);
  if (!known || kind !== file.kind) {
    throw new ConfigDecodeError(
      `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`,
    );
  }
  const errs: string[] = [];
  check(raw, file.shape, '', errs);
  if (errs.length > 0) throw new ConfigDecodeError(errs.join(', '));
  return obj;
}

/** Checks `v` against the shape; unknown fields and wrong types are reported as the strict decoder does. */
function check(v: unknown, shape: Shape, path: string, errs: string[]): void {
  if (v === null || v === undefined) return;
  if (shape === 'string') {
    if (typeof v !== 'string')
      errs.push(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${path} of type string`);
    return;
  }
  if (shape === 'bool') {
    if (typeof v !== 'boolean')
      errs.push(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${path} of type bool`);
    return;
  }
  if ('list' in shape) {
    if (!Array.isArray(v)) {
      errs.push(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${path} of type []`);
      return;
    }
    for (const [i, x] of v.entries()) check(x, shape.list, `${path}[${i}]`, errs);
    return;
  }
  if (typeof v !== 'object' || Array.isArray(v)) {
    errs.push(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${path || 'root'} of type object`);
    return;
  }
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const sub = shape.fields[k];
    const p = path === '' ? k : `${path}.${k}`;
    if (sub === undefined) errs.push(`strict decoding error: unknown field ${JSON.stringify(p)}`);
    else check(x, sub, p, errs);
  }
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

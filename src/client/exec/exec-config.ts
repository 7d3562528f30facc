// The `exec` stanza of a platconfig user: decoded, checked with upstream's validation messages,
// defaulted as upstream defaults it, and with a relative command path anchored at the directory of
// the file that named it, so a plugin shipped beside its config runs whatever the working directory.

import * as path from 'node:path';
import {
  clientAuthenticationGroup,
  EXEC_CREDENTIAL_VERSIONS,
  execClusterExtensionNames,
  type NamingProfile,
  namingProfile,
  upstreamGroupAlias,
} from '../../naming/index.ts';

/** How the plugin relates to standard input. */
export type ExecInteractiveMode = 'Never' | 'IfAvailable' | 'Always';

const INTERACTIVE_MODES: readonly string[] = ['Never', 'IfAvailable', 'Always'];

export interface ExecEnvVar {
  name: string;
  value: string;
}

export interface ExecConfig {
  /**
   * An absolute path when the file named a path (relative ones resolved against the file's
   * directory); a bare name is looked up on PATH when the plugin runs.
   */
  command: string;
  args: string[];
  /** Set over the process environment, later entries over earlier ones. */
  env: ExecEnvVar[];
  /** The ExecCredential apiVersion the plugin is spoken to in, as the file wrote it. */
  apiVersion: string;
  /** Shown when the command is not found; '' when none. */
  installHint: string;
  provideClusterInfo: boolean;
  /** Defaulted to IfAvailable for v1beta1; v1 must say. */
  interactiveMode: ExecInteractiveMode;
}

/** Every problem of one exec stanza; the message is upstream's aggregate of them. */
export class ExecConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.length === 1 ? (problems[0] as string) : `[${problems.join(', ')}]`);
    this.name = 'ExecConfigError';
    this.problems = problems;
  }
}

export interface ParseExecConfigOptions {
  /** The user's name in the file, which upstream's messages mention. */
  userName?: string;
  /** Where the stanza sits, for type errors (`users[0].user.exec`); default `exec`. */
  fieldPath?: string;
  /** Decides the profile's ExecCredential group; default the spec profile. */
  profile?: NamingProfile;
}

/**
 * The apiVersions a plugin may be configured with: the profile's group and, when the profile
 * renames it, upstream's, which stock plugins are written against (each in v1 and v1beta1).
 */
export function execCredentialApiVersions(profile: NamingProfile = namingProfile('spec')): string[] {
  const own = clientAuthenticationGroup(profile);
  const groups = [own];
  const alias = upstreamGroupAlias(profile, own);
  if (alias !== undefined) groups.push(alias);
  return groups.flatMap((g) => EXEC_CREDENTIAL_VERSIONS.map((v) => `${g}/${v}`));
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Decodes and validates one exec stanza; throws ExecConfigError listing every problem found. */
export function parseExecConfig(
  raw: unknown,
  configFileDir: string,
  opts: ParseExecConfigOptions = {},
): ExecConfig {
  const at = opts.fieldPath ?? 'exec';
  const who = opts.userName ?? 'the user';
  const profile = opts.profile ?? namingProfile('spec');
  if (!isObject(raw)) throw new ExecConfigError([`${at}: must be an object, got ${typeName(raw)}`]);
  const problems: string[] = [];

  const str = (key: string): string => {
    const v = raw[key];
    if (v === undefined || v === null) return '';
    if (typeof v === 'string') return v;
    problems.push(`${at}.${key}: must be a string, got ${typeName(v)}`);
    return '';
  };

  const command = str('command');
  const apiVersion = str('apiVersion');
  const installHint = str('installHint');
  const mode = str('interactiveMode');

  const args: string[] = [];
  if (raw.args !== undefined && raw.args !== null) {
    if (!Array.isArray(raw.args))
      problems.push(`${at}.args: must be a list of strings, got ${typeName(raw.args)}`);
    else
      raw.args.forEach((a, i) => {
        if (typeof a === 'string') args.push(a);
        else problems.push(`${at}.args[${i}]: must be a string, got ${typeName(a)}`);
      });
  }

  const env: ExecEnvVar[] = [];
  if (raw.env !== undefined && raw.env !== null) {
    if (!Array.isArray(raw.env))
      problems.push(`${at}.env: must be a list of name/value pairs, got ${typeName(raw.env)}`);
    else
      raw.env.forEach((e, i) => {
        if (!isObject(e)) {
          problems.push(`${at}.env[${i}]: must be an object with name and value, got ${typeName(e)}`);
          return;
        }
        const name = e.name ?? '';
        const value = e.value ?? '';
        if (typeof name !== 'string')
          problems.push(`${at}.env[${i}].name: must be a string, got ${typeName(name)}`);
        if (typeof value !== 'string')
          problems.push(`${at}.env[${i}].value: must be a string, got ${typeName(value)}`);
        if (typeof name === 'string' && typeof value === 'string') env.push({ name, value });
      });
  }

  let provideClusterInfo = false;
  const pci = raw.provideClusterInfo;
  if (typeof pci === 'boolean') provideClusterInfo = pci;
  else if (pci !== undefined && pci !== null)
    problems.push(`${at}.provideClusterInfo: must be a boolean, got ${typeName(pci)}`);

  // Upstream's validation, in its order and words.
  if (command === '') problems.push(`command must be specified for ${who} to use exec authentication plugin`);
  if (apiVersion === '')
    problems.push(`apiVersion must be specified for ${who} to use exec authentication plugin`);
  else if (!execCredentialApiVersions(profile).includes(apiVersion))
    problems.push(`exec plugin: invalid apiVersion ${JSON.stringify(apiVersion)}`);
  for (const e of env)
    if (e.name === '')
      problems.push(`env variable name must be specified for ${who} to use exec authentication plugin`);

  // v1beta1 predates the field and keeps its old behaviour; v1 makes the plugin say.
  const interactiveMode = mode === '' && apiVersion.endsWith('/v1beta1') ? 'IfAvailable' : mode;
  if (interactiveMode === '')
    problems.push(`interactiveMode must be specified for ${who} to use exec authentication plugin`);
  else if (!INTERACTIVE_MODES.includes(interactiveMode))
    problems.push(`invalid interactiveMode for ${who}: ${JSON.stringify(interactiveMode)}`);

  if (problems.length > 0) throw new ExecConfigError(problems);
  return {
    command: resolveCommand(command, configFileDir),
    args,
    env,
    apiVersion,
    installHint,
    provideClusterInfo,
    interactiveMode: interactiveMode as ExecInteractiveMode,
  };
}

/**
 * A command holding a path separator is a path: relative ones are anchored at the config file's
 * directory. A bare name stays as written, for PATH to find when the plugin runs.
 */
export function resolveCommand(command: string, configFileDir: string): string {
  if (!command.includes(path.sep)) return command;
  return path.isAbsolute(command) ? path.normalize(command) : path.resolve(configFileDir, command);
}

/**
 * The per-cluster plugin configuration: the `extension` of the cluster's extension named
 * `client.authentication.<domain>/exec` (the profile's name first, then upstream's), or undefined.
 * `extensions` is the cluster's `extensions` list as the file holds it ({name, extension} items).
 */
export function findExecClusterConfig(
  extensions: unknown,
  profile: NamingProfile = namingProfile('spec'),
): unknown {
  if (!Array.isArray(extensions)) return undefined;
  for (const name of execClusterExtensionNames(profile)) {
    const hit = extensions.find((e) => isObject(e) && e.name === name);
    if (isObject(hit) && hit.extension !== undefined) return hit.extension;
  }
  return undefined;
}

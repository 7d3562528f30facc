// A small command-line parser with the Go pflag conventions kube-apiserver's users know:
// `--name=value` or `--name value`, one-letter shorthands (`-v 3`, `-v=3`, `-v3`), booleans as
// `--name` or `--name=false` (never a separate word), `--help`, and usage that shows each flag's
// default as pflag does. A table of flags with converters replaces a general library: the program
// holds a parser for as long as it runs, and this one costs a fraction of the memory.

import { goQuote } from '../machinery/field-errors.ts';
import { duration } from './flag-values.ts';

export class FlagError extends Error {
  override name = 'FlagError';
}

/** Thrown for `--help`/`-h` after printing usage: the caller exits 0. */
export class HelpRequested extends Error {
  override name = 'HelpRequested';
}

/**
 * Thrown once the command line parsed and asked for `--version` (or `--version=raw`): the caller
 * prints the version and exits 0. Every program takes the flag, as upstream's verflag adds it.
 */
export class VersionRequested extends Error {
  override name = 'VersionRequested';
  constructor(readonly raw: boolean) {
    super(raw ? 'raw version requested' : 'version requested');
  }
}

/** pflag's booleans as strconv.ParseBool reads them. */
const TRUE_WORDS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** `--version[=value]`: 'raw', true, false; a FlagError for anything else. */
function versionFlagValue(text: string): 'raw' | boolean {
  if (text === 'raw') return 'raw';
  if (TRUE_WORDS.has(text)) return true;
  if (FALSE_WORDS.has(text)) return false;
  // Upstream's `--version=vX.Y.Z` overrides the reported version; ours names a fixed API level.
  const why = text.startsWith('v') ? 'setting the reported version is not supported' : 'parse error';
  throw new FlagError(`invalid argument ${JSON.stringify(text)} for "--version" flag: ${why}`);
}

export interface FlagSpec<T = unknown> {
  /** Without the leading dashes: `secure-port`. */
  name: string;
  /** One letter also taking the flag as `-x value`, `-x=value` or `-xvalue` (pflag's shorthand). */
  shorthand?: string;
  /** Shown in usage as the value's placeholder; absent for booleans. */
  arg?: string;
  description: string;
  boolean?: boolean;
  /**
   * Given more than once, the values add up (pflag's stringArray and stringSlice): the first
   * occurrence replaces the default, later ones append (lists) or merge (key=value maps).
   */
  repeatable?: boolean;
  /** Turns the text into the value; throws with what is wrong. */
  parse(text: string): T;
  default: T;
  /** The value as Go's flag.Value String() prints it (FLAG lines, usage defaults); see valueText. */
  show?: (value: T) => string;
}

export type FlagValues = Record<string, unknown>;

/** A flag spec whose converter's result type is checked against its default. */
export function flag<T>(spec: FlagSpec<T>): FlagSpec {
  return spec as FlagSpec;
}

/** Go's time.Duration String() of whole milliseconds. */
function durationText(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = `${rest / 1000}s`;
  return sign + (h > 0 ? `${h}h${m}m${s}` : m > 0 ? `${m}m${s}` : s);
}

/**
 * A flag's value as its Go flag.Value prints it: text as is, lists `[a,b]`, maps `k=v,...`
 * sorted, durations `5m0s`, nothing as ''. The table's duration flags are recognised by their
 * converter, so they need no `show` of their own.
 */
export function valueText(spec: FlagSpec, value: unknown): string {
  if (spec.show !== undefined) return spec.show(value);
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' && spec.parse === duration) return durationText(value);
  if (Array.isArray(value)) return `[${value.join(',')}]`;
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => `${k}=${String(v)}`)
      .sort()
      .join(',');
  }
  return String(value);
}

/** pflag's `(default X)`: absent for a zero value, quoted for text; absent where the description says it. */
function defaultNote(spec: FlagSpec): string {
  if (spec.description.includes('(default')) return '';
  const text = valueText(spec, spec.default);
  if (text === '' || text === '0' || text === 'false' || text === '[]' || text === '0s') return '';
  return typeof spec.default === 'string' && spec.show === undefined
    ? ` (default ${goQuote(text)})`
    : ` (default ${text})`;
}

export function usage(command: string, description: string, flags: readonly FlagSpec[]): string {
  const rows = flags.map(
    (f) =>
      [
        `${f.shorthand ? `-${f.shorthand}, ` : ''}--${f.name}${f.arg ? ` ${f.arg}` : ''}`,
        `${f.description}${defaultNote(f)}`,
      ] as const,
  );
  const width = Math.max(...rows.map(([left]) => left.length));
  const lines = rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
  const pad = (left: string) => `  ${left.padEnd(width)}  `;
  return (
    `${description}\n\nUsage:\n  ${command} [flags]\n\nFlags:\n${lines.join('\n')}\n` +
    `${pad('-h, --help')}show this help\n` +
    `${pad('--version')}--version, --version=raw print version information and quit\n`
  );
}

/** A repeated flag's values together: lists append, key=value maps merge (later keys win). */
function accumulate(before: unknown, value: unknown): unknown {
  if (Array.isArray(before) && Array.isArray(value)) return [...before, ...value];
  if (typeof before === 'object' && before !== null && typeof value === 'object' && value !== null)
    return { ...before, ...value };
  return value;
}

/**
 * Values of every flag (defaults for the ones not given), keyed by flag name. FlagError for an
 * unknown flag, a missing or malformed value, or a positional argument.
 */
export function parseFlags(argv: readonly string[], command: string, flags: readonly FlagSpec[]): FlagValues {
  return parseFlagsGiven(argv, command, flags).values;
}

/**
 * As parseFlags, also telling which flags the command line gave (pflag's `Changed`): some rules
 * depend on a flag being set at all, whatever its value (e.g. any --oidc-* flag).
 */
export function parseFlagsGiven(
  argv: readonly string[],
  command: string,
  flags: readonly FlagSpec[],
): { values: FlagValues; given: ReadonlySet<string> } {
  const byName = new Map(flags.map((f) => [f.name, f]));
  const byShorthand = new Map(flags.filter((f) => f.shorthand).map((f) => [f.shorthand as string, f]));
  const values: FlagValues = Object.fromEntries(flags.map((f) => [f.name, f.default]));
  const positional: string[] = [];
  const given = new Set<string>();
  let version: 'raw' | boolean = false;
  const set = (spec: FlagSpec, text: string) => {
    try {
      const value = spec.parse(text);
      const before = values[spec.name];
      values[spec.name] = spec.repeatable && given.has(spec.name) ? accumulate(before, value) : value;
      given.add(spec.name);
    } catch (err) {
      // pflag names a flag with a shorthand by both spellings.
      const name = spec.shorthand ? `-${spec.shorthand}, --${spec.name}` : `--${spec.name}`;
      throw new FlagError(
        `invalid argument ${JSON.stringify(text)} for ${JSON.stringify(name)} flag: ${(err as Error).message}`,
      );
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') throw new HelpRequested();
    // A bool-like flag: a bare `--version` never takes the next word as its value.
    if (arg === '--version' || arg.startsWith('--version=')) {
      version = arg === '--version' ? true : versionFlagValue(arg.slice('--version='.length));
      continue;
    }
    // One-letter spellings, as pflag reads them: `-v 3`, `-v=3`, `-v3`.
    if (arg.length > 1 && arg[0] === '-' && arg[1] !== '-') {
      const letter = arg[1];
      const spec = byShorthand.get(letter);
      if (spec === undefined) throw new FlagError(`unknown shorthand flag: '${letter}' in ${arg}`);
      let text: string;
      if (arg.length > 2) text = arg[2] === '=' ? arg.slice(3) : arg.slice(2);
      else if (spec.boolean) text = 'true';
      else {
        if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: '${letter}' in -${letter}`);
        text = argv[++i];
      }
      set(spec, text);
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = byName.get(name);
    if (spec === undefined) throw new FlagError(`unknown flag: --${name}`);
    let text: string;
    if (eq !== -1) text = arg.slice(eq + 1);
    else if (spec.boolean) text = 'true';
    else {
      if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: --${name}`);
      text = argv[++i];
    }
    set(spec, text);
  }
  if (positional.length > 0) {
    throw new FlagError(
      `${JSON.stringify(command)} does not take any arguments, got ${JSON.stringify(positional)}`,
    );
  }
  if (version !== false) throw new VersionRequested(version === 'raw');
  return { values, given };
}

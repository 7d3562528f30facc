// A small command-line parser with the Go pflag conventions kube-apiserver's users know:
// `--name=value` or `--name value`, booleans as `--name` or `--name=false` (never a separate
// word), `--help`. A table of flags with converters replaces a general library: the program holds
// a parser for as long as it runs, and this one costs a fraction of the memory.

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
}

export type FlagValues = Record<string, unknown>;

/** A flag spec whose converter's result type is checked against its default. */
export function flag<T>(spec: FlagSpec<T>): FlagSpec {
  return spec as FlagSpec;
}

export function usage(command: string, description: string, flags: readonly FlagSpec[]): string {
  const rows = flags.map((f) => [`--${f.name}${f.arg ? ` ${f.arg}` : ''}`, f.description] as const);
  const width = Math.max(...rows.map(([left]) => left.length));
  const lines = rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
  const pad = (left: string) => `  ${left.padEnd(width)}  `;
  return (
    `${description}\n\nUsage:\n  ${command} [flags]\n\nFlags:\n${lines.join('\n')}\n` +
    `${pad('--help')}show this help\n` +
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
  const values: FlagValues = Object.fromEntries(flags.map((f) => [f.name, f.default]));
  const positional: string[] = [];
  const given = new Set<string>();
  let version: 'raw' | boolean = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') throw new HelpRequested();
    // A bool-like flag: a bare `--version` never takes the next word as its value.
    if (arg === '--version' || arg.startsWith('--version=')) {
      version = arg === '--version' ? true : versionFlagValue(arg.slice('--version='.length));
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
    try {
      const value = spec.parse(text);
      const before = values[name];
      values[name] = spec.repeatable && given.has(name) ? accumulate(before, value) : value;
      given.add(name);
    } catch (err) {
      throw new FlagError(
        `invalid argument ${JSON.stringify(text)} for "--${name}" flag: ${(err as Error).message}`,
      );
    }
  }
  if (positional.length > 0) {
    throw new FlagError(
      `${JSON.stringify(command)} does not take any arguments, got ${JSON.stringify(positional)}`,
    );
  }
  if (version !== false) throw new VersionRequested(version === 'raw');
  return { values, given };
}

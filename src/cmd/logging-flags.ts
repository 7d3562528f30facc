// The logging flags every program takes, as component-base's logs/api/v1 adds them to upstream's:
// --logging-format, -v/--v, --vmodule and --log-flush-frequency, with its validation messages. A
// program parses them with the rest, applies them before anything else runs (so start-up is
// logged as configured), then prints every flag at V(1) as upstream's cli/flag PrintFlags does.

import {
  configureLogging,
  DEFAULT_LOGGING,
  type LogFormat,
  type Logger,
  quote,
  type VModuleItem,
} from '../machinery/logging/index.ts';
import { FlagError, type FlagSpec, type FlagValues, flag, valueText } from './flag-parser.ts';
import { duration } from './flag-values.ts';

/** The formats this build writes, sorted and quoted as upstream's registry lists them. */
const FORMATS: readonly LogFormat[] = ['json', 'text'];

/** strconv.ParseUint(value, 10, 31)'s messages: klog's levels fit an int32. */
function level(v: string): number {
  if (!/^[0-9]+$/.test(v)) throw new Error(`strconv.ParseUint: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = Number(v);
  if (n > 2 ** 31 - 1) throw new Error(`strconv.ParseUint: parsing ${JSON.stringify(v)}: value out of range`);
  return n;
}

/** `pattern=N,...`, with component-base's messages; empty items (a trailing comma) are skipped. */
function vmodule(v: string): VModuleItem[] {
  const items: VModuleItem[] = [];
  for (const pat of v.split(',')) {
    if (pat === '') continue;
    const parts = pat.split('=');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') {
      throw new Error(`${JSON.stringify(pat)} does not have the pattern=N format`);
    }
    try {
      items.push({ pattern: parts[0], verbosity: level(parts[1]) });
    } catch (err) {
      throw new Error(`parsing verbosity in ${JSON.stringify(pat)}: ${(err as Error).message}`);
    }
  }
  return items;
}

export const LOGGING_FLAGS: readonly FlagSpec[] = [
  flag<string>({
    name: 'logging-format',
    arg: '<format>',
    description: `how log lines are written, one of ${FORMATS.map((f) => `"${f}"`).join(', ')}`,
    parse: (v) => v,
    default: DEFAULT_LOGGING.format,
  }),
  flag<number>({
    name: 'log-flush-frequency',
    arg: '<duration>',
    description:
      'longest time between log flushes (lines are written as they come; accepted for compatibility)',
    parse: duration,
    default: 5000,
  }),
  flag<number>({
    name: 'v',
    shorthand: 'v',
    arg: '<level>',
    description: 'verbosity of the logs: the higher, the more detail',
    parse: level,
    default: DEFAULT_LOGGING.verbosity,
  }),
  flag<VModuleItem[]>({
    name: 'vmodule',
    arg: '<pattern=N,...>',
    description:
      'comma-separated pattern=N: verbosity N for modules matching the pattern, named as the log lines name them (text format only)',
    parse: vmodule,
    repeatable: true,
    default: [],
    show: (items) => items.map((i) => `${i.pattern}=${i.verbosity}`).join(','),
  }),
];

/** A program's flag list with the logging flags, unless it has them already. */
export function withLoggingFlags(flags: readonly FlagSpec[]): FlagSpec[] {
  return flags.some((f) => f.name === 'v') ? [...flags] : [...flags, ...LOGGING_FLAGS];
}

export interface LoggingFlagValues {
  format: LogFormat;
  verbosity: number;
  vmodule: VModuleItem[];
}

/**
 * The logging configuration the parsed flags ask for; a FlagError with component-base's
 * validation messages (`format: Invalid value: "xml": Unsupported log format`) otherwise.
 */
export function loggingConfigFrom(values: FlagValues): LoggingFlagValues {
  const format = values['logging-format'] as string;
  const items = values.vmodule as VModuleItem[];
  const flush = values['log-flush-frequency'] as number;
  const errs: string[] = [];
  if (flush <= 0)
    errs.push(
      `flushFrequency: Invalid value: "${valueText(LOGGING_FLAGS[1], flush)}": Must be greater than zero`,
    );
  if (!(FORMATS as readonly string[]).includes(format)) {
    errs.push(`format: Invalid value: ${JSON.stringify(format)}: Unsupported log format`);
  }
  if (items.length > 0 && format !== 'text')
    errs.push('vmodule: Forbidden: Only supported for text log format');
  // One error alone, several as upstream's aggregate prints them.
  if (errs.length === 1) throw new FlagError(errs[0]);
  if (errs.length > 1) throw new FlagError(`[${errs.join(', ')}]`);
  return { format: format as LogFormat, verbosity: values.v as number, vmodule: items };
}

/**
 * Every flag and its value at V(1), sorted by name, as upstream's PrintFlags: `FLAG: --v="2"`.
 * `--help` and `--version` are listed too, as upstream's command has them.
 */
export function printFlags(log: Logger, flags: readonly FlagSpec[], values: FlagValues): void {
  const v = log.v(1);
  if (!v.enabled) return;
  const rows = flags.map((f) => [f.name, valueText(f, values[f.name])] as const);
  rows.push(['help', 'false'], ['version', 'false']);
  rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, text] of rows) v.infoText(`FLAG: --${name}=${quote(text)}`);
}

/**
 * What each program does first once its command line parsed: the logging flags applied
 * process-wide (FlagError with upstream's message for bad ones), then every flag at V(1).
 */
export function applyLoggingFlags(log: Logger, flags: readonly FlagSpec[], values: FlagValues): void {
  configureLogging(loggingConfigFrom(values));
  printFlags(log, flags, values);
}

const isPlain = (v: unknown) => v === null || (typeof v !== 'object' && typeof v !== 'function');

/**
 * The plain fields of an options object, for a V(1) line: values, lists and flat maps (feature
 * gates); nested structures (authentication, the manager's whole configuration) left out.
 */
export function configurationFields(options: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) {
    if (v === undefined) continue;
    if (isPlain(v) || (Array.isArray(v) && v.every(isPlain))) out[k] = v;
    else if (typeof v === 'object' && Object.values(v).every(isPlain)) out[k] = v;
  }
  return out;
}

// The shape of one configuration flag: a spec src/cmd/flag-parser.ts can parse (the same fields,
// so the program hands these to its parser as they are) plus the configuration field it sets.

import {
  parseBool,
  parseFloat32,
  parseGoDuration,
  parseInt32,
  parseString,
  parseStringSlice,
} from './flag-values.ts';
import type { PlatControllerManagerConfiguration } from './types-controllers.ts';

export interface ConfigFlag {
  /** Without dashes. */
  readonly name: string;
  readonly arg?: string;
  readonly description: string;
  readonly boolean?: boolean;
  /** Lists: given again, the values add up (pflag's stringSlice). */
  readonly repeatable?: boolean;
  parse(text: string): unknown;
  /** Undefined: a flag not given changes nothing. */
  readonly default: unknown;
  /** The canonical path of the field it sets; absent for flags the program reads itself. */
  readonly field?: readonly string[];
  /** Sets something other than one field (two fields, or a derived value). */
  apply?(config: PlatControllerManagerConfiguration, value: unknown): void;
}

/** What src/cmd/flag-parser.ts's parseFlagsGiven returns. */
export interface ParsedFlags {
  readonly values: Readonly<Record<string, unknown>>;
  readonly given: ReadonlySet<string>;
}

export type FlagKind = 'int32' | 'float32' | 'duration' | 'bool' | 'string' | 'list';

const PARSERS: Record<FlagKind, (v: string) => unknown> = {
  int32: parseInt32,
  float32: parseFloat32,
  duration: parseGoDuration,
  bool: parseBool,
  string: parseString,
  list: parseStringSlice,
};

const ARGS: Record<FlagKind, string | undefined> = {
  int32: '<int32>',
  float32: '<float32>',
  duration: '<duration>',
  bool: undefined,
  string: '<string>',
  list: '<strings>',
};

/** A flag that sets the field at `field` (dotted canonical path). */
export function configFlag(name: string, kind: FlagKind, field: string, description: string): ConfigFlag {
  return {
    name,
    arg: ARGS[kind],
    description,
    boolean: kind === 'bool',
    repeatable: kind === 'list',
    parse: PARSERS[kind],
    default: undefined,
    field: field.split('.'),
  };
}

/** A flag from a table row `name kind Field.path: description`. */
export function flagFromRow(row: string): ConfigFlag {
  const m = /^(\S+) (\S+) (\S+): (.*)$/.exec(row);
  if (m === null) throw new Error(`malformed flag row ${JSON.stringify(row)}`);
  return configFlag(m[1], m[2] as FlagKind, m[3], m[4]);
}

// The logger every part of the process writes through: klog's levels (an info line at V(n) goes
// out when -v is n or more; errors always), its text and component-base's JSON formats, and one
// process-wide configuration the programs set from their flags. Loggers read that configuration
// at each call, so a module may create its logger at load time and still honour the flags; a test
// captures lines by installing a configuration and restoring the previous one afterwards, and a
// test that wants no shared state at all creates a logger with its own sink.

import { encodeJson, encodeText, type LogRecord, type Pairs, type Severity } from './encode.ts';

export type LogFormat = 'text' | 'json';

/** `--vmodule`: a pattern over module names and the verbosity for the modules it matches. */
export interface VModuleItem {
  pattern: string;
  verbosity: number;
}

export interface LoggingConfiguration {
  format: LogFormat;
  /** `-v`: info lines at this level or below are written. */
  verbosity: number;
  vmodule: readonly VModuleItem[];
}

export const DEFAULT_LOGGING: LoggingConfiguration = { format: 'text', verbosity: 0, vmodule: [] };

export interface SinkOptions extends Partial<LoggingConfiguration> {
  /** Where lines go (each ends in a newline); stderr by default, as upstream writes both formats. */
  write?: (line: string) => void;
  /** Milliseconds since the epoch; tests fix it. */
  now?: () => number;
  pid?: number;
}

/** A configured destination: format, levels, output and clock. */
export class LogSink {
  readonly config: LoggingConfiguration;
  private readonly write: (line: string) => void;
  private readonly now: () => number;
  private readonly pid: number;
  private readonly encode: (r: LogRecord) => string;
  /** Per-module verbosity under --vmodule, worked out once per module. */
  private readonly moduleLevels = new Map<string, number>();

  constructor(options: SinkOptions = {}) {
    this.config = {
      format: options.format ?? DEFAULT_LOGGING.format,
      verbosity: options.verbosity ?? DEFAULT_LOGGING.verbosity,
      vmodule: options.vmodule ?? DEFAULT_LOGGING.vmodule,
    };
    this.write = options.write ?? ((line) => process.stderr.write(line));
    this.now = options.now ?? (() => performance.timeOrigin + performance.now());
    this.pid = options.pid ?? process.pid;
    this.encode = this.config.format === 'json' ? encodeJson : encodeText;
  }

  /** The verbosity that applies to a module: the first --vmodule pattern matching it, else -v. */
  verbosityFor(caller: string): number {
    if (this.config.vmodule.length === 0) return this.config.verbosity;
    let level = this.moduleLevels.get(caller);
    if (level === undefined) {
      level = this.config.verbosity;
      for (const item of this.config.vmodule) {
        if (vmoduleMatches(item.pattern, caller)) {
          level = item.verbosity;
          break;
        }
      }
      this.moduleLevels.set(caller, level);
    }
    return level;
  }

  emit(record: Omit<LogRecord, 'time' | 'pid'>): void {
    this.write(this.encode({ ...record, time: this.now(), pid: this.pid }));
  }
}

/**
 * klog's vmodule rule on our module names: a pattern without a slash matches the last segment
 * (`httplog` for `server/httplog`), one with a slash the whole name; `*` and `?` are globs.
 */
export function vmoduleMatches(pattern: string, caller: string): boolean {
  const subject = pattern.includes('/') ? caller : caller.slice(caller.lastIndexOf('/') + 1);
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return re.test(subject);
}

let processSink = new LogSink();

/** The process-wide sink loggers without their own write to. */
export function currentSink(): LogSink {
  return processSink;
}

/** Sets the process-wide configuration (the programs do, from their flags); returns the one replaced. */
export function configureLogging(options: SinkOptions | LogSink): LogSink {
  const before = processSink;
  processSink = options instanceof LogSink ? options : new LogSink(options);
  return before;
}

/** Back to the defaults: text on stderr at -v=0. */
export function resetLogging(): void {
  processSink = new LogSink();
}

export interface CapturedLogs {
  /** Every line written since capture began, newline included. */
  readonly lines: string[];
  /** Puts back the configuration that was in place before. */
  restore(): void;
}

/** For tests: process-wide lines go to an array (text at -v=0 unless told) until restore(). */
export function captureLogs(options: Omit<SinkOptions, 'write'> = {}): CapturedLogs {
  const lines: string[] = [];
  const before = configureLogging({ ...options, write: (line) => lines.push(line) });
  return { lines, restore: () => configureLogging(before) };
}

/** Key/value pairs as callers give them: an object whose keys keep their order. */
export type KeyValues = Readonly<Record<string, unknown>>;

function pairsOf(kv: KeyValues | undefined): Pairs {
  return kv === undefined ? [] : Object.entries(kv);
}

/** What `logger.v(n)` returns: info lines at level n, written only when n is enabled. */
export interface VerboseLogger {
  readonly enabled: boolean;
  info(msg: string, kv?: KeyValues): void;
  /** klog's Infof: the text as it is, not quoted, no pairs. */
  infoText(text: string): void;
}

const DISABLED: VerboseLogger = {
  enabled: false,
  info() {},
  infoText() {},
};

export class Logger {
  /**
   * @param caller the module's name, shown where klog shows the source file (`server/httplog`).
   * @param sink a fixed destination; undefined follows the process-wide configuration.
   */
  constructor(
    readonly caller: string,
    private readonly sink?: LogSink,
    private readonly name = '',
    private readonly values: Pairs = [],
  ) {}

  private target(): LogSink {
    return this.sink ?? processSink;
  }

  /** Whether info lines at this level go out: one comparison, for callers guarding costly fields. */
  enabled(level: number): boolean {
    return this.target().verbosityFor(this.caller) >= level;
  }

  v(level: number): VerboseLogger {
    const sink = this.target();
    if (sink.verbosityFor(this.caller) < level) return DISABLED;
    return {
      enabled: true,
      info: (msg, kv) => this.write(sink, 'I', level, msg, kv),
      infoText: (text) => this.write(sink, 'I', level, text, undefined, undefined, true),
    };
  }

  info(msg: string, kv?: KeyValues): void {
    this.write(this.target(), 'I', 0, msg, kv);
  }

  /** klog's Infof at level 0. */
  infoText(text: string): void {
    this.write(this.target(), 'I', 0, text, undefined, undefined, true);
  }

  /** klog's Warning: written at any level, `W` in text. */
  warning(msg: string, kv?: KeyValues): void {
    this.write(this.target(), 'W', undefined, msg, kv);
  }

  /** logr's Error: written at any level; `err` undefined or null for none (ErrorS(nil, ...)). */
  error(err: unknown, msg: string, kv?: KeyValues): void {
    this.write(this.target(), 'E', undefined, msg, kv, err ?? undefined);
  }

  /** logr's WithName: names join with dots and go out as `logger`. */
  withName(name: string): Logger {
    return new Logger(this.caller, this.sink, this.name === '' ? name : `${this.name}.${name}`, this.values);
  }

  /** logr's WithValues: pairs on every line, before the call's own. */
  withValues(kv: KeyValues): Logger {
    return new Logger(this.caller, this.sink, this.name, [...this.values, ...pairsOf(kv)]);
  }

  private write(
    sink: LogSink,
    severity: Severity,
    level: number | undefined,
    msg: string,
    kv: KeyValues | undefined,
    err?: unknown,
    plain?: boolean,
  ): void {
    sink.emit({
      severity,
      level,
      caller: this.caller,
      name: this.name,
      msg,
      plain,
      err,
      values: this.values,
      pairs: pairsOf(kv),
    });
  }
}

/** A module's logger on the process-wide configuration: `const log = loggerFor('server/httplog')`. */
export function loggerFor(caller: string): Logger {
  return new Logger(caller);
}

// fixes/: where the engine (@marcbachmann/cel-js 8.0.0) departs from the CEL specification and
// from cel-go, corrected in the wrapper, never in node_modules (bench/cel/ENGINE.md lists what the
// conformance data showed; the conformance test, bench/cel/conformance.test.ts, keeps it fixed).
// FixedEngineEnvironment is the engine environment every Environment is built on: it declares the
// overloads the engine lacks (int(uint), int/string(timestamp), string(duration), the identity
// conversions, bytes ordering) and wraps parse() so that each expression goes through
//   source.ts  literal syntax the engine's lexer gets wrong (raw bytes, UTF-8 in bytes, `.5`),
//   ast.ts     fixes to the parsed AST before checking, then, once checked,
//   operators.ts  run-time replacements on the nodes that need them (equality, ordering, `in`,
//              indexing, int64 edges, conversions, timestamps with nanoseconds and durations).
// May import: ../engine.ts only (and each other).

import { EngineEnvironment } from '../engine.ts';
import { FixError, fixParsed } from './ast.ts';
import { intFromUint } from './conversions.ts';
import { fixChecked } from './operators.ts';
import { originalOffset, preprocess } from './source.ts';
import { formatDuration, formatTimestamp, timestampParts } from './time.ts';
import { celCompare } from './values.ts';

export {
  durationFromNanos,
  durationNanos,
  timestampFromNanos,
  timestampNanos,
  timestampParts,
} from './time.ts';
export { celCompare, celEquals, mapFromEntries, mapGet } from './values.ts';

const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';

type EngineOptions = ConstructorParameters<typeof EngineEnvironment>[0];
type ParseResult = ReturnType<EngineEnvironment['parse']>;

/** The engine's evaluator of map literals, as a parsed literal carries it. */
const ENGINE_MAP_EVALUATE = (
  new EngineEnvironment({}).parse('{1: 1}').ast as unknown as { meta: { evaluate: unknown } }
).meta.evaluate;

export class FixedEngineEnvironment extends EngineEnvironment {
  constructor(options?: EngineOptions) {
    super(options);
    // The engine's environment is frozen after construction: no fields here, only declarations.
    this.registerFunction(`int(uint): int`, intFromUint);
    this.registerFunction(`int(${TS}): int`, (d: Date) => timestampParts(d).seconds);
    this.registerFunction(`string(${TS}): string`, formatTimestamp);
    this.registerFunction(`string(${DUR}): string`, formatDuration);
    this.registerFunction(`timestamp(${TS}): ${TS}`, (d: Date) => d);
    this.registerFunction(`duration(${DUR}): ${DUR}`, (d: unknown) => d);
    for (const [op, test] of [
      ['<', (c: number) => c < 0],
      ['<=', (c: number) => c <= 0],
      ['>', (c: number) => c > 0],
      ['>=', (c: number) => c >= 0],
    ] as const) {
      this.registerOperator(`bytes ${op} bytes`, (a: Uint8Array, b: Uint8Array) =>
        test(celCompare(a, b) as number),
      );
    }
  }

  override parse(expression: string): ParseResult {
    const source = preprocess(expression);
    let parsed: ParseResult;
    try {
      parsed = super.parse(source.text);
    } catch (err) {
      throw source.inserted.length > 0 ? shifted(err, source) : err;
    }
    fixParsed(parsed.ast, source);
    const check = parsed.check;
    parsed.check = () => {
      const result = check();
      if (result.valid) fixChecked(parsed.ast, ENGINE_MAP_EVALUATE);
      return result;
    };
    return parsed;
  }
}

function shifted(err: unknown, source: ReturnType<typeof preprocess>): unknown {
  const e = err as Error & { code?: string; summary?: string; range?: { start: number; end: number } };
  if (!(err instanceof Error) || e.range === undefined) return err;
  return new FixError(e.code ?? 'parse_error', e.summary ?? e.message, {
    start: originalOffset(source, e.range.start),
    end: originalOffset(source, e.range.end),
  });
}

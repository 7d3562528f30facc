// The sortBy macro of cel-go's list extension: `l.sortBy(e, key)` orders the list by the key each
// element gives. It expands as cel-go's does, into engine nodes the cost tracker and the estimator
// already understand: a binding of the target (shaped as the engine's cel.bind, so the target is
// evaluated once) whose result is `@in.@sortByAssociatedKeys(@in.map(e, key))`, the engine's own
// map macro for the keys and a library function for the ordering (cost-table.ts prices it by name).

import type { EngineEnvironment } from '../engine.ts';
import {
  type AstNode,
  checkConcrete,
  type EngineChecker,
  type EngineEvaluator,
  type EngineScope,
  type EngineType,
  identName,
  type MacroCall,
  MacroError,
  type OpDef,
} from './optionals-engine.ts';

/** cel-go's name for the bound target; `@` keeps it apart from every name an expression can use. */
const INPUT = '@__sortBy_input__';

/** The engine's macro table, as the parser hands it to a macro (only what the expansion needs). */
interface MacroParser {
  registry: {
    findMacro(
      name: string,
      receiver: boolean,
      argc: number,
    ): { handler(call: unknown): { callAst?: AstNode } } | undefined;
  };
}

/** A binding in the engine's cel.bind shape (`var`, `val`, `exp`): cost-instrument.ts and estimate.ts read it so. */
interface SortByBinding {
  ast: AstNode;
  var: string;
  val: AstNode;
  exp: AstNode;
  bindCtx: EngineScope | undefined;
  async: false;
  typeCheck(chk: EngineChecker, m: SortByBinding, scope: EngineScope): EngineType;
  evaluate(ev: EngineEvaluator, m: SortByBinding, scope: EngineScope): unknown;
}

const opOf = (n: AstNode): OpDef => ({ name: n.op, check: n.meta.check, evaluate: n.meta.evaluate });

function expand(call: MacroCall & { parser: MacroParser }): SortByBinding {
  const target = call.receiver;
  if (target === null) throw new Error('sortBy() needs a receiver');
  // cel-go accepts a list, an identifier, a comprehension, a call (operators are calls) or a
  // selection; a literal or a map would never sort.
  if (target.op === 'value' || target.op === 'map') {
    throw new MacroError(
      'sortBy can only be applied to a list, identifier, comprehension, call or select expression',
      target,
    );
  }
  const [variable, key] = call.args;
  identName(variable, 'argument is not an identifier');
  const input = (): AstNode => variable.clone(opOf(variable), INPUT);
  const rcall = opOf(call.ast);
  const keysOf = input();
  const mapCall = call.ast.clone(rcall, ['map', keysOf, [variable, key]]);
  const mapMacro = call.parser.registry.findMacro('map', true, 2);
  const expansion = mapMacro?.handler({
    ast: mapCall,
    args: [variable, key],
    receiver: keysOf,
    methodName: 'map',
    parser: call.parser,
  });
  if (expansion?.callAst === undefined) throw new Error('the engine has no map macro');
  mapCall.setMeta('alternate', expansion.callAst);
  const exp = call.ast.clone(rcall, ['@sortByAssociatedKeys', input(), [mapCall]]);
  return {
    ast: call.ast,
    var: INPUT,
    val: target,
    exp,
    bindCtx: undefined,
    async: false,
    typeCheck,
    evaluate,
  };
}

function typeCheck(chk: EngineChecker, m: SortByBinding, scope: EngineScope): EngineType {
  m.bindCtx = scope.forkWithVariable(m.var, checkConcrete(chk, m.val, scope));
  return chk.check(m.exp, m.bindCtx);
}

function evaluate(ev: EngineEvaluator, m: SortByBinding, scope: EngineScope): unknown {
  const bound = (m.bindCtx as EngineScope).reuse(scope).setIterValue(ev.run(m.val, scope), ev);
  return ev.run(m.exp, bound);
}

/**
 * Declares the macro and `@sortByAssociatedKeys` (one overload per comparable key type, ids
 * `list_<type>_sortByAssociatedKeys`), by declaration object: the engine's signature strings do
 * not take the `@` that keeps the function out of reach of expressions.
 */
export function sortByMacro(
  engine: EngineEnvironment,
  keyTypes: readonly (readonly [string, string])[],
  sort: (list: readonly unknown[], keys: readonly unknown[]) => readonly unknown[],
): void {
  for (const [, keyType] of keyTypes) {
    engine.registerFunction({
      name: '@sortByAssociatedKeys',
      receiverType: 'list<T>',
      params: [{ name: 'keys', type: `list<${keyType}>` }],
      returnType: 'list<T>',
      handler: sort,
    });
  }
  engine.registerFunction('dyn.sortBy(ast, ast): dyn', (call: MacroCall & { parser: MacroParser }) =>
    expand(call),
  );
}

// Qualified variable names: a variable declared with dots in its name (`authorizer.requestResource`,
// which admission declares beside `authorizer`) is what `a.b.c` refers to, the longest declared
// name winning, as in cel-go. The engine parses `authorizer.requestResource` as a field selection
// on `authorizer`; before checking, such a selection chain whose dotted spelling is a declared
// variable is given an identifier node of that name to check and evaluate instead.

import type { CelLibrary } from '../environment.ts';
import { type AstNode, type OpDef, walkAst } from './optionals-engine.ts';

/** `a.b.c` for a chain of plain selections rooted at an identifier, else undefined. */
function dottedName(node: AstNode): { name: string; root: AstNode } | undefined {
  const parts: string[] = [];
  let n = node;
  while (n.op === '.') {
    const [operand, field] = n.args as [AstNode, string];
    parts.push(field);
    n = operand;
  }
  if (n.op !== 'id' || typeof n.args !== 'string') return undefined;
  parts.push(n.args);
  return { name: parts.reverse().join('.'), root: n };
}

export function resolveQualifiedNames(root: unknown, declared: ReadonlySet<string>): void {
  if (declared.size === 0) return;
  walkAst(root, (node) => {
    if (node.op !== '.' || node.meta.alternate !== undefined) return;
    const d = dottedName(node);
    if (d === undefined || !declared.has(d.name)) return;
    const idOp: OpDef = { name: 'id', check: d.root.meta.check, evaluate: d.root.meta.evaluate };
    node.setMeta('alternate', node.clone(idOp, d.name));
  });
}

export const qualifiedNamesLibrary: CelLibrary = {
  name: 'qualified-names',
  functions: [],
  language: {
    prepare(ast, _expression, env) {
      const dotted = new Set(Object.keys(env.variables).filter((k) => k.includes('.')));
      resolveQualifiedNames(ast, dotted);
    },
  },
};

/**
 * How deeply statements and expressions may nest. Every tree walk over the
 * AST (the static checks, the code generator, the JavaScript the generator
 * writes) recurses once per level; a limit on the level keeps them all far
 * from the stack's end without making each one iterative. `parse` refuses
 * deeper programs (`SCRIPT_NESTING_TOO_DEEP`) and `validateProgram` refuses
 * deeper hand-built ASTs, so nothing downstream ever sees one.
 *
 * The level of a node is the number of statements and expressions on its
 * path from the root, itself included: `emit 1` in a command block is level
 * 2 (the statement, the number). Each enclosing `if`/`while`/`for each`/`on`
 * block, list, map, call, index and operator adds one. The other nodes
 * (map entries, lvalues, accessors, interpolation parts, callees) add
 * nothing, and never two of them follow each other, so a walk's recursion is
 * at most about twice the limit in nodes.
 */
import { forEachChild, reverseFrom } from './children.ts';
import type { Node, NodeType } from './node.ts';

/** Deepest statement/expression nesting a program may have (the reference's canonical JSON depth limit, §1.11). */
export const MAX_NESTING_DEPTH = 100;

/** The node kinds that count as a nesting level: every statement and expression. */
export const NESTING_NODE_TYPES: ReadonlySet<NodeType> = new Set<NodeType>([
  'SetStatement', 'CallStatement', 'ReturnStatement', 'EmitStatement', 'WhisperStatement', 'MustStatement', 'FailStatement',
  'ClearErrorStatement', 'ClearEventStatement', 'AskStatement', 'PromptUserStatement', 'BreakStatement', 'ContinueStatement',
  'IfStatement', 'WhileStatement', 'ForEachStatement', 'OnErrorStatement', 'OnEventStatement',
  'NumberLiteral', 'StringLiteral', 'InterpolatedString', 'BooleanLiteral', 'NilLiteral', 'ListLiteral', 'MapLiteral', 'Identifier',
  'Placeholder', 'LastExpression', 'EvalExpression', 'BinaryExpression', 'UnaryExpression', 'IndexExpression', 'CallExpression',
]);

/** The first node (depth-first, source order) whose nesting level exceeds `limit`, with its level; undefined when none does. */
export function findTooDeep(root: Node, limit: number = MAX_NESTING_DEPTH): { readonly node: Node; readonly depth: number } | undefined {
  // Iterative on purpose: it must survive trees of any depth (the builder can
  // make a 500,000-level chain out of `1+1+…`, iteratively too). Two parallel
  // stacks, so a visited node costs no allocation.
  const nodes: Node[] = [root];
  const levels: number[] = [0];
  let level = 0;
  const push = (child: Node): void => {
    nodes.push(child);
    levels.push(level);
  };
  while (nodes.length > 0) {
    const node = nodes.pop() as Node;
    const above = levels.pop() as number;
    level = NESTING_NODE_TYPES.has(node.type) ? above + 1 : above;
    if (level > limit) return { node, depth: level };
    const first = nodes.length;
    forEachChild(node, push);
    // Children were pushed in source order; popped in source order (the levels pushed are all the same).
    reverseFrom(nodes, first);
  }
  return undefined;
}

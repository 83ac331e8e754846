/**
 * Generic traversal: the direct children of a node in source order. The
 * static checks use it to visit every expression position (map keys, lvalue
 * indexes, interpolation holes, handlers…) without a per-check switch.
 */
import type { Node } from './node.ts';

/**
 * Calls `visit` with each direct child of `node`, in source order, without
 * building a list: the checks walk every node of every program, and a list
 * per node was most of what a walk allocated.
 */
export function forEachChild(node: Node, visit: (child: Node) => void): void {
  switch (node.type) {
    case 'Program':
      // Only here do the parts interleave in the source; sorted once per program.
      for (const child of [...node.metadata, ...node.functions, ...node.eventHandlers, ...node.commands].sort(bySourcePosition)) visit(child);
      return;
    case 'FunctionDefinition':
    case 'CommandBlock':
      for (const child of node.metadata) visit(child);
      for (const child of node.body) visit(child);
      return;
    case 'SetStatement':
      for (const child of node.targets) visit(child);
      visit(node.value);
      return;
    case 'CallStatement':
      visit(node.call);
      return;
    case 'ReturnStatement':
      for (const child of node.values) visit(child);
      return;
    case 'EmitStatement':
      visit(node.value);
      return;
    case 'WhisperStatement':
      visit(node.handle);
      visit(node.value);
      return;
    case 'MustStatement':
      visit(node.condition);
      return;
    case 'FailStatement':
      if (node.message) visit(node.message);
      return;
    case 'ClearEventStatement':
      if (node.event) visit(node.event);
      return;
    case 'AskStatement':
      visit(node.agent);
      visit(node.prompt);
      if (node.options) visit(node.options);
      if (node.into) visit(node.into);
      return;
    case 'PromptUserStatement':
      visit(node.prompt);
      visit(node.into);
      return;
    case 'IfStatement':
      visit(node.condition);
      for (const child of node.consequent) visit(child);
      if (node.alternate) for (const child of node.alternate) visit(child);
      return;
    case 'WhileStatement':
      visit(node.condition);
      for (const child of node.body) visit(child);
      return;
    case 'ForEachStatement':
      visit(node.collection);
      for (const child of node.body) visit(child);
      return;
    case 'OnErrorStatement':
      for (const child of node.body) visit(child);
      return;
    case 'OnEventStatement':
      visit(node.event);
      for (const child of node.body) visit(child);
      return;
    case 'LValue':
      for (const child of node.accessors) visit(child);
      return;
    case 'IndexAccessor':
      visit(node.index);
      return;
    case 'InterpolatedString':
      for (const child of node.parts) visit(child);
      return;
    case 'InterpolationPart':
      visit(node.expression);
      return;
    case 'ListLiteral':
      for (const child of node.elements) visit(child);
      return;
    case 'MapLiteral':
      for (const child of node.entries) visit(child);
      return;
    case 'MapEntry':
      visit(node.key);
      visit(node.value);
      return;
    case 'EvalExpression':
      visit(node.argument);
      return;
    case 'BinaryExpression':
      visit(node.left);
      visit(node.right);
      return;
    case 'UnaryExpression':
      visit(node.argument);
      return;
    case 'IndexExpression':
      visit(node.object);
      visit(node.index);
      return;
    case 'CallExpression':
      visit(node.callee);
      for (const child of node.arguments) visit(child);
      return;
    default:
      return;
  }
}

/** Returns the direct child nodes of `node`, in source order (a list of what {@link forEachChild} visits). */
export function childrenOf(node: Node): Node[] {
  const children: Node[] = [];
  forEachChild(node, (child) => {
    children.push(child);
  });
  return children;
}

function bySourcePosition(a: Node, b: Node): number {
  return a.line - b.line || a.column - b.column;
}

/** Marks, in `walk`'s pending list, where a node's children end. */
const LEAVE = Symbol('leave');

/** Reverses `items[from..]` in place (children pushed in source order, to be popped in source order). */
export function reverseFrom<T>(items: T[], from: number): void {
  for (let low = from, high = items.length - 1; low < high; low += 1, high -= 1) {
    const item = items[low] as T;
    items[low] = items[high] as T;
    items[high] = item;
  }
}

/**
 * Visits `node` and every descendant depth-first in source order. Return
 * `false` from `visit` to skip a node's children. `ancestors` lists the
 * path from the root (outermost first), excluding the node itself.
 * Iterative, so it survives a hand-built tree of any depth.
 */
export function walk(node: Node, visit: (node: Node, ancestors: readonly Node[]) => boolean | void): void {
  const ancestors: Node[] = [];
  // Nodes still to visit, last first; LEAVE marks where a node's children end and it leaves the path.
  const pending: (Node | typeof LEAVE)[] = [node];
  const push = (child: Node): void => {
    pending.push(child);
  };
  while (pending.length > 0) {
    const current = pending.pop() as Node | typeof LEAVE;
    if (current === LEAVE) {
      ancestors.pop();
      continue;
    }
    if (visit(current, ancestors) === false) continue;
    ancestors.push(current);
    pending.push(LEAVE);
    const first = pending.length;
    forEachChild(current, push);
    reverseFrom(pending, first);
  }
}

/**
 * Generic traversal: the direct children of a node in source order. The
 * static checks use it to visit every expression position (map keys, lvalue
 * indexes, interpolation holes, handlers…) without a per-check switch.
 */
import type { Node } from './node.ts';

/** Returns the direct child nodes of `node`, in source order. */
export function childrenOf(node: Node): Node[] {
  switch (node.type) {
    case 'Program':
      return [...node.metadata, ...node.functions, ...node.eventHandlers, ...node.commands].sort(bySourcePosition);
    case 'FunctionDefinition':
    case 'CommandBlock':
      return [...node.metadata, ...node.body];
    case 'SetStatement':
      return [...node.targets, node.value];
    case 'CallStatement':
      return [node.call];
    case 'ReturnStatement':
      return [...node.values];
    case 'EmitStatement':
      return [node.value];
    case 'WhisperStatement':
      return [node.handle, node.value];
    case 'MustStatement':
      return [node.condition];
    case 'FailStatement':
      return node.message ? [node.message] : [];
    case 'ClearEventStatement':
      return node.event ? [node.event] : [];
    case 'AskStatement':
      return [node.agent, node.prompt, ...(node.options ? [node.options] : []), ...(node.into ? [node.into] : [])];
    case 'PromptUserStatement':
      return [node.prompt, node.into];
    case 'IfStatement':
      return [node.condition, ...node.consequent, ...(node.alternate ?? [])];
    case 'WhileStatement':
      return [node.condition, ...node.body];
    case 'ForEachStatement':
      return [node.collection, ...node.body];
    case 'OnErrorStatement':
      return [...node.body];
    case 'OnEventStatement':
      return [node.event, ...node.body];
    case 'LValue':
      return [...node.accessors];
    case 'IndexAccessor':
      return [node.index];
    case 'InterpolatedString':
      return [...node.parts];
    case 'InterpolationPart':
      return [node.expression];
    case 'ListLiteral':
      return [...node.elements];
    case 'MapLiteral':
      return [...node.entries];
    case 'MapEntry':
      return [node.key, node.value];
    case 'EvalExpression':
      return [node.argument];
    case 'BinaryExpression':
      return [node.left, node.right];
    case 'UnaryExpression':
      return [node.argument];
    case 'IndexExpression':
      return [node.object, node.index];
    case 'CallExpression':
      return [node.callee, ...node.arguments];
    default:
      return [];
  }
}

function bySourcePosition(a: Node, b: Node): number {
  return a.line - b.line || a.column - b.column;
}

/**
 * Visits `node` and every descendant depth-first in source order. Return
 * `false` from `visit` to skip a node's children. `ancestors` lists the
 * path from the root (outermost first), excluding the node itself.
 * Iterative, so it survives a hand-built tree of any depth.
 */
export function walk(node: Node, visit: (node: Node, ancestors: readonly Node[]) => boolean | void): void {
  const ancestors: Node[] = [];
  // One frame per entered node: its children and the next one to visit.
  const frames: { children: Node[]; next: number }[] = [];
  const enter = (current: Node): void => {
    if (visit(current, ancestors) === false) return;
    ancestors.push(current);
    frames.push({ children: childrenOf(current), next: 0 });
  };
  enter(node);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as { children: Node[]; next: number };
    if (frame.next < frame.children.length) {
      enter(frame.children[frame.next] as Node);
      frame.next += 1;
    } else {
      frames.pop();
      ancestors.pop();
    }
  }
}

import { describe, expect, it } from 'vitest';
import { parse } from '../parse/parse.ts';
import type { Node, NodeType } from './index.ts';
import { childrenOf, forEachChild, walk } from './index.ts';

const LIBRARY = `:: title: every node
func f(needs a optional b returns c) means
:: about: all statements
  set a, m.k[0] = [1, 2]
  call tool.str.ToUpper("x")
  emit {"k": nil, 2: true}
  whisper self, 'w'
  must not (a < 1 ** 2)
  fail
  fail "x"
  clear event named "n"
  clear event "e"
  ask "agent", "q" with {} into r
  promptuser "p" into answer[1]
  on error do
    clear_error
  endon
  if typeof a == "number"
    while a
      break
    endwhile
  else
    for each v in '''raw'''
      continue
    endfor
  endif
  on event "inner" do
    emit last
  endon
  return eval("1"), {{holder}}, len(a), [[t {{a}}]], x[0]
endfunc

on event "e" named "n" as v do
  emit v
endon
`;

describe('walk', () => {
  it('reaches every node kind in source order, with plain-data nodes', () => {
    const result = parse(LIBRARY);
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const seen = new Set<NodeType>();
    let previous = { line: 0, column: 0 };
    walk(result.program, (node: Node, ancestors) => {
      seen.add(node.type);
      expect(node.line).toBeGreaterThanOrEqual(1);
      expect(node.column).toBeGreaterThanOrEqual(1);
      if (ancestors.length === 1) {
        expect(node.line > previous.line || (node.line === previous.line && node.column >= previous.column)).toBe(true);
        previous = node;
      }
    });
    const expected: NodeType[] = [
      'Program', 'MetadataEntry', 'FunctionDefinition', 'SetStatement', 'LValue', 'FieldAccessor', 'IndexAccessor', 'CallStatement',
      'CallExpression', 'ToolReference', 'FunctionReference', 'EmitStatement', 'MapLiteral', 'MapEntry', 'NilLiteral', 'BooleanLiteral',
      'WhisperStatement', 'Identifier', 'StringLiteral', 'MustStatement', 'UnaryExpression', 'BinaryExpression', 'NumberLiteral',
      'FailStatement', 'ClearEventStatement', 'AskStatement', 'PromptUserStatement', 'OnErrorStatement', 'ClearErrorStatement',
      'IfStatement', 'WhileStatement', 'BreakStatement', 'ForEachStatement', 'ContinueStatement', 'OnEventStatement', 'LastExpression',
      'ReturnStatement', 'EvalExpression', 'Placeholder', 'InterpolatedString', 'TextPart', 'InterpolationPart', 'IndexExpression', 'ListLiteral',
    ];
    expect([...seen].sort()).toEqual([...expected].sort());
  });

  it('skips children when the visitor returns false', () => {
    const result = parse('command\n  emit [1, [2]]\nendcommand\n');
    if (!result.ok) throw new Error('parse failed');
    const types: string[] = [];
    walk(result.program, (node) => {
      types.push(node.type);
      return node.type !== 'ListLiteral';
    });
    expect(types).toEqual(['Program', 'CommandBlock', 'EmitStatement', 'ListLiteral']);
  });
});

/** The child nodes found by looking at every field (no per-kind knowledge), in source order: an independent reference. */
function reflectedChildren(node: Node): Node[] {
  const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && typeof (value as { line?: unknown }).line === 'number';
  const found: Node[] = [];
  for (const value of Object.values(node)) {
    if (isNode(value)) found.push(value);
    else if (Array.isArray(value)) for (const item of value) if (isNode(item)) found.push(item);
  }
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}

describe('forEachChild', () => {
  it.each([['a library of every node kind', LIBRARY], ['a command block', ':: title: c\ncommand\n  :: about: x\n  set a = [1, {"k": a}]\n  emit a[0] + 1\nendcommand\n']])('visits exactly the child nodes every field holds, in source order, and walk visits depth-first with the path: %s', (_name, source) => {
    const result = parse(source);
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const expected: { node: Node; path: Node[] }[] = [];
    const preorder = (node: Node, path: Node[]): void => {
      expected.push({ node, path });
      const visited: Node[] = [];
      forEachChild(node, (child) => {
        visited.push(child);
      });
      expect(visited).toEqual(reflectedChildren(node));
      expect(childrenOf(node)).toEqual(visited);
      for (const child of reflectedChildren(node)) preorder(child, [...path, node]);
    };
    preorder(result.program, []);
    const walked: { node: Node; path: Node[] }[] = [];
    walk(result.program, (node, ancestors) => {
      walked.push({ node, path: [...ancestors] });
    });
    expect(walked.length).toBe(expected.length);
    walked.forEach((entry, index) => {
      expect(entry.node).toBe(expected[index]?.node);
      expect(entry.path).toEqual(expected[index]?.path);
    });
  });
});

/**
 * Shape validation of a `Program` handed to the run API as an object (not
 * source): every node must carry a known `type`, every field the kind the AST
 * types declare (strings are strings, lists are arrays, positions are finite
 * numbers, operators are known operators). The static checks and the code
 * generator both trust the shape; a node relabelled with an unknown `type`
 * would otherwise hide what it contains from the checks while the generator
 * still compiles it.
 */
import { MAX_NESTING_DEPTH, NESTING_NODE_TYPES } from './nesting-depth.ts';
import type { NodeType } from './node.ts';
import type { Program } from './program.ts';

type Group = readonly string[];

/** What one field must hold. */
type FieldSpec =
  | 'string'
  | 'finite'
  | 'boolean'
  | 'string?'
  | 'strings'
  | { readonly oneOf: readonly string[] }
  | { readonly node: Group; readonly nullable?: boolean }
  | { readonly nodes: Group; readonly nullable?: boolean };

const EXPRESSION: Group = [
  'NumberLiteral', 'StringLiteral', 'InterpolatedString', 'BooleanLiteral', 'NilLiteral', 'ListLiteral', 'MapLiteral', 'Identifier',
  'Placeholder', 'LastExpression', 'EvalExpression', 'BinaryExpression', 'UnaryExpression', 'IndexExpression', 'CallExpression',
];
const STATEMENT: Group = [
  'SetStatement', 'CallStatement', 'ReturnStatement', 'EmitStatement', 'WhisperStatement', 'MustStatement', 'FailStatement',
  'ClearErrorStatement', 'ClearEventStatement', 'AskStatement', 'PromptUserStatement', 'BreakStatement', 'ContinueStatement',
  'IfStatement', 'WhileStatement', 'ForEachStatement', 'OnErrorStatement', 'OnEventStatement',
];
const BINARY_OPERATORS = ['or', 'and', '|', '^', '&', '==', '!=', '<', '>', '<=', '>=', '+', '-', '*', '/', '%', '**'];
const UNARY_OPERATORS = ['-', 'not', 'no', 'some', '~', 'typeof'];

const expression = { node: EXPRESSION } as const;
const optionalExpression = { node: EXPRESSION, nullable: true } as const;
const statements = { nodes: STATEMENT } as const;
const lvalue = { node: ['LValue'] } as const;
const metadata = { nodes: ['MetadataEntry'] } as const;

/** The fields of every node type (besides `type`, `line` and `column`). */
const SHAPES: Readonly<Record<string, Readonly<Record<string, FieldSpec>>>> = {
  Program: { kind: { oneOf: ['library', 'command', 'empty'] }, metadata, functions: { nodes: ['FunctionDefinition'] }, eventHandlers: { nodes: ['OnEventStatement'] }, commands: { nodes: ['CommandBlock'] } },
  MetadataEntry: { key: 'string', value: 'string' },
  FunctionDefinition: { name: 'string', required: 'strings', optional: 'strings', returns: 'strings', metadata, body: statements },
  CommandBlock: { metadata, body: statements },
  SetStatement: { targets: { nodes: ['LValue'] }, value: expression },
  CallStatement: { call: { node: ['CallExpression'] } },
  ReturnStatement: { values: { nodes: EXPRESSION } },
  EmitStatement: { value: expression },
  WhisperStatement: { handle: expression, value: expression },
  MustStatement: { condition: expression },
  FailStatement: { message: optionalExpression },
  ClearErrorStatement: {},
  ClearEventStatement: { event: optionalExpression, handlerName: 'string?' },
  AskStatement: { agent: expression, prompt: expression, options: optionalExpression, into: { node: ['LValue'], nullable: true } },
  PromptUserStatement: { prompt: expression, into: lvalue },
  BreakStatement: {},
  ContinueStatement: {},
  IfStatement: { condition: expression, consequent: statements, alternate: { nodes: STATEMENT, nullable: true } },
  WhileStatement: { condition: expression, body: statements },
  ForEachStatement: { variable: 'string', collection: expression, body: statements },
  OnErrorStatement: { body: statements },
  OnEventStatement: { event: expression, handlerName: 'string?', binding: 'string?', body: statements },
  LValue: { name: 'string', accessors: { nodes: ['IndexAccessor', 'FieldAccessor'] } },
  IndexAccessor: { index: expression },
  FieldAccessor: { name: 'string' },
  NumberLiteral: { value: 'finite', raw: 'string' },
  StringLiteral: { value: 'string', style: { oneOf: ['double', 'single', 'tripleSingle'] } },
  InterpolatedString: { style: { oneOf: ['tripleBacktick', 'doubleBracket'] }, parts: { nodes: ['TextPart', 'InterpolationPart'] } },
  TextPart: { value: 'string' },
  InterpolationPart: { expression },
  BooleanLiteral: { value: 'boolean' },
  NilLiteral: {},
  ListLiteral: { elements: { nodes: EXPRESSION } },
  MapLiteral: { entries: { nodes: ['MapEntry'] } },
  MapEntry: { key: expression, value: expression },
  Identifier: { name: 'string' },
  Placeholder: { name: 'string' },
  LastExpression: {},
  EvalExpression: { argument: expression },
  BinaryExpression: { operator: { oneOf: BINARY_OPERATORS }, left: expression, right: expression },
  UnaryExpression: { operator: { oneOf: UNARY_OPERATORS }, argument: expression },
  IndexExpression: { object: expression, index: expression },
  ToolReference: { name: 'string', canonicalName: 'string' },
  FunctionReference: { name: 'string', builtin: 'boolean' },
  CallExpression: { callee: { node: ['ToolReference', 'FunctionReference'] }, arguments: { nodes: EXPRESSION } },
};

/** The outcome of `validateProgram`. */
export type ProgramValidation =
  | { readonly ok: true; readonly program: Program }
  /**
   * `path` names the offending field (`commands[0].body[2].value.type`);
   * `line`/`column` are those of the nearest node that has them, else 1/1.
   * `code` is `SCRIPT_NESTING_TOO_DEEP` when statements and expressions nest
   * deeper than `MAX_NESTING_DEPTH`, else `SCRIPT_INVALID_PROGRAM`.
   */
  | {
      readonly ok: false;
      readonly code: 'SCRIPT_INVALID_PROGRAM' | 'SCRIPT_NESTING_TOO_DEEP';
      readonly path: string;
      readonly message: string;
      readonly line: number;
      readonly column: number;
    };

class ShapeError {
  readonly path: string;
  readonly message: string;
  readonly code: 'SCRIPT_INVALID_PROGRAM' | 'SCRIPT_NESTING_TOO_DEEP';
  constructor(path: string, message: string, code: 'SCRIPT_INVALID_PROGRAM' | 'SCRIPT_NESTING_TOO_DEEP' = 'SCRIPT_INVALID_PROGRAM') {
    this.path = path;
    this.message = message;
    this.code = code;
  }
}

/** A value as a message names what was given instead: `null`, `a list`, `an object`, a quoted string (cut at 40), `a function`, `number NaN`. */
export function describeGiven(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'function') return 'a function';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Walk {
  /** Position of the innermost node with a valid position, for the diagnostic. */
  line: number;
  column: number;
}

/** `depth` is the nesting level of the enclosing node (see `nesting-depth.ts`); it bounds this recursion. */
function checkNode(value: unknown, allowed: Group, path: string, walk: Walk, depth: number): void {
  if (!isRecord(value)) throw new ShapeError(path, `expected a node (${allowed.join(' | ')}), found ${describeGiven(value)}`);
  const type = value['type'];
  if (typeof type !== 'string' || !allowed.includes(type) || !Object.hasOwn(SHAPES, type)) {
    throw new ShapeError(`${path}.type`, `expected ${allowed.join(' | ')}, found ${describeGiven(type)}`);
  }
  for (const field of ['line', 'column'] as const) {
    const position = value[field];
    if (typeof position !== 'number' || !Number.isInteger(position) || position < 0) {
      throw new ShapeError(`${path}.${field}`, `expected a whole number, found ${describeGiven(position)}`);
    }
  }
  walk.line = value['line'] as number;
  walk.column = value['column'] as number;
  const level = NESTING_NODE_TYPES.has(type as NodeType) ? depth + 1 : depth;
  if (level > MAX_NESTING_DEPTH) {
    throw new ShapeError(path, `statements and expressions nest ${level} levels deep here; the limit is ${MAX_NESTING_DEPTH}`, 'SCRIPT_NESTING_TOO_DEEP');
  }
  const shape = SHAPES[type] as Readonly<Record<string, FieldSpec>>;
  for (const [field, spec] of Object.entries(shape)) checkField(value[field], spec, `${path}.${field}`, walk, level);
  if (type === 'Program' && value['fileName'] !== undefined && typeof value['fileName'] !== 'string') {
    throw new ShapeError(`${path}.fileName`, `expected a string, found ${describeGiven(value['fileName'])}`);
  }
  if (type === 'ToolReference' && value['canonicalName'] !== `tool.${(value['name'] as string).toLowerCase()}`) {
    throw new ShapeError(`${path}.canonicalName`, `expected ${JSON.stringify(`tool.${(value['name'] as string).toLowerCase()}`)} (from name), found ${describeGiven(value['canonicalName'])}`);
  }
}

function checkField(value: unknown, spec: FieldSpec, path: string, walk: Walk, depth: number): void {
  const fail = (expected: string): never => {
    throw new ShapeError(path, `expected ${expected}, found ${describeGiven(value)}`);
  };
  if (spec === 'string') {
    if (typeof value !== 'string') fail('a string');
  } else if (spec === 'finite') {
    if (typeof value !== 'number' || !Number.isFinite(value)) fail('a finite number');
  } else if (spec === 'boolean') {
    if (typeof value !== 'boolean') fail('a boolean');
  } else if (spec === 'string?') {
    if (value !== null && typeof value !== 'string') fail('a string or null');
  } else if (spec === 'strings') {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) fail('a list of strings');
  } else if ('oneOf' in spec) {
    if (typeof value !== 'string' || !spec.oneOf.includes(value)) fail(spec.oneOf.map((option) => JSON.stringify(option)).join(' | '));
  } else if (value === null && spec.nullable === true) {
    return;
  } else if ('node' in spec) {
    const { line, column } = walk;
    checkNode(value, spec.node, path, walk, depth);
    walk.line = line;
    walk.column = column;
  } else {
    if (!Array.isArray(value)) return fail(`a list of ${spec.nodes.join(' | ')}`);
    const { line, column } = walk;
    value.forEach((item, index) => {
      checkNode(item, spec.nodes, `${path}[${index}]`, walk, depth);
      walk.line = line;
      walk.column = column;
    });
  }
}

/**
 * Checks that `value` has the shape of a `Program` AST (see the module
 * comment). Validate a JSON copy (`JSON.parse(JSON.stringify(x))`) when the
 * object may have getters or a prototype chain: what is validated must be what
 * runs.
 */
export function validateProgram(value: unknown): ProgramValidation {
  const walk: Walk = { line: 1, column: 1 };
  try {
    checkNode(value, ['Program'], 'program', walk, 0);
    return { ok: true, program: value as Program };
  } catch (error) {
    if (error instanceof ShapeError) return { ok: false, code: error.code, path: error.path, message: `${error.path}: ${error.message}`, line: walk.line, column: walk.column };
    throw error;
  }
}

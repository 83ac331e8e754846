/**
 * The NeuroScript AST: plain, JSON-copyable objects discriminated on `type`,
 * every node with a 1-based `line` and `column`. Produced by `parse`, read by
 * the static checks and the evaluator; never contains Ohm objects.
 */
export type { NodeBase } from './node-base.ts';
export type {
  BinaryExpression,
  BinaryOperator,
  BooleanLiteral,
  CallExpression,
  EvalExpression,
  Expression,
  FunctionReference,
  Identifier,
  IndexExpression,
  InterpolatedString,
  InterpolatedStringStyle,
  InterpolationPart,
  LastExpression,
  ListLiteral,
  MapEntry,
  MapLiteral,
  NilLiteral,
  NumberLiteral,
  Placeholder,
  StringLiteral,
  StringStyle,
  TextPart,
  ToolReference,
  UnaryExpression,
  UnaryOperator,
} from './expressions.ts';
export type {
  AskStatement,
  BreakStatement,
  CallStatement,
  ClearErrorStatement,
  ClearEventStatement,
  ContinueStatement,
  EmitStatement,
  FailStatement,
  FieldAccessor,
  ForEachStatement,
  IfStatement,
  IndexAccessor,
  LValue,
  MustStatement,
  OnErrorStatement,
  OnEventStatement,
  PromptUserStatement,
  ReturnStatement,
  SetStatement,
  Statement,
  WhileStatement,
  WhisperStatement,
} from './statements.ts';
export type { CommandBlock, FunctionDefinition, MetadataEntry, Program, ProgramKind } from './program.ts';
export type { Node, NodeType } from './node.ts';
export { childrenOf, forEachChild, walk } from './children.ts';
export { validateProgram, type ProgramValidation } from './validate-program.ts';
export { findTooDeep, MAX_NESTING_DEPTH, NESTING_NODE_TYPES } from './nesting-depth.ts';

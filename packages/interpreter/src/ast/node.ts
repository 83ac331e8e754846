/** The union of every AST node, discriminated on `type`. */
import type { Expression, InterpolationPart, MapEntry, TextPart, ToolReference, FunctionReference } from './expressions.ts';
import type { CommandBlock, FunctionDefinition, MetadataEntry, Program } from './program.ts';
import type { FieldAccessor, IndexAccessor, LValue, Statement } from './statements.ts';

/** Any node of a NeuroScript AST. */
export type Node =
  | Program
  | MetadataEntry
  | FunctionDefinition
  | CommandBlock
  | Statement
  | LValue
  | IndexAccessor
  | FieldAccessor
  | Expression
  | MapEntry
  | TextPart
  | InterpolationPart
  | ToolReference
  | FunctionReference;

/** Every value of `Node['type']`. */
export type NodeType = Node['type'];

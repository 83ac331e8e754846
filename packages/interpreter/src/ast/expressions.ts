/**
 * Expression nodes (reference §1.3 `expr` … `primary`, §1.4). Plain data only:
 * every node is JSON-copyable and discriminated by `type`.
 */
import type { NodeBase } from './node-base.ts';

/** A number literal. All NeuroScript numbers are float64 (reference §1.2). */
export interface NumberLiteral extends NodeBase {
  readonly type: 'NumberLiteral';
  readonly value: number;
  /** The literal as written, e.g. `1e3`. */
  readonly raw: string;
}

/** How a plain (non-interpolating) string literal was written. */
export type StringStyle = 'double' | 'single' | 'tripleSingle';

/**
 * A string with no interpolation: `"…"` and `'…'` (escapes decoded) or
 * `'''…'''` (raw). `value` is the decoded text.
 */
export interface StringLiteral extends NodeBase {
  readonly type: 'StringLiteral';
  readonly value: string;
  readonly style: StringStyle;
}

/** How an interpolating string was written. */
export type InterpolatedStringStyle = 'tripleBacktick' | 'doubleBracket';

/** Literal text inside an interpolated string (`{{@nl}}`-style symbols are already resolved into it). */
export interface TextPart extends NodeBase {
  readonly type: 'TextPart';
  readonly value: string;
}

/**
 * A `{{…}}` hole in an interpolated string. `expression` is usually an
 * `Identifier`; `{{LAST}}` gives a `LastExpression`; any other expression is
 * accepted too (see docs/deviations). At run time the value is rendered as a
 * string, nil as "".
 */
export interface InterpolationPart extends NodeBase {
  readonly type: 'InterpolationPart';
  readonly expression: Expression;
}

/** A ```` ```…``` ```` or `[[…]]` string: raw, multi-line, with `{{…}}` interpolation. */
export interface InterpolatedString extends NodeBase {
  readonly type: 'InterpolatedString';
  readonly style: InterpolatedStringStyle;
  readonly parts: readonly (TextPart | InterpolationPart)[];
}

/** `true` or `false`. */
export interface BooleanLiteral extends NodeBase {
  readonly type: 'BooleanLiteral';
  readonly value: boolean;
}

/** `nil`. */
export interface NilLiteral extends NodeBase {
  readonly type: 'NilLiteral';
}

/** `[a, b, c]`. */
export interface ListLiteral extends NodeBase {
  readonly type: 'ListLiteral';
  readonly elements: readonly Expression[];
}

/** One `key: value` pair of a map literal; the key is any expression (reference §1.3). */
export interface MapEntry extends NodeBase {
  readonly type: 'MapEntry';
  readonly key: Expression;
  readonly value: Expression;
}

/** `{k: v, …}`. Entries keep source order. */
export interface MapLiteral extends NodeBase {
  readonly type: 'MapLiteral';
  readonly entries: readonly MapEntry[];
}

/** A variable reference. */
export interface Identifier extends NodeBase {
  readonly type: 'Identifier';
  readonly name: string;
}

/** The expression-level placeholder `{{name}}` (reference §1.2; the Go evaluator returns the literal text `{{name}}`). */
export interface Placeholder extends NodeBase {
  readonly type: 'Placeholder';
  readonly name: string;
}

/** `last`: the result of the last statement that produced one (reference §1.12). */
export interface LastExpression extends NodeBase {
  readonly type: 'LastExpression';
}

/** `eval(expr)` (reference §1.12). */
export interface EvalExpression extends NodeBase {
  readonly type: 'EvalExpression';
  readonly argument: Expression;
}

/** Binary operators, loosest first (reference §1.3 precedence). */
export type BinaryOperator =
  | 'or'
  | 'and'
  | '|'
  | '^'
  | '&'
  | '=='
  | '!='
  | '<'
  | '>'
  | '<='
  | '>='
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '**';

/** `left op right`. Left-associative except `**`, which is right-associative. */
export interface BinaryExpression extends NodeBase {
  readonly type: 'BinaryExpression';
  readonly operator: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
}

/** Prefix operators. `typeof x` is the unary form of `typeof(x)`. */
export type UnaryOperator = '-' | 'not' | 'no' | 'some' | '~' | 'typeof';

/** `op argument`. */
export interface UnaryExpression extends NodeBase {
  readonly type: 'UnaryExpression';
  readonly operator: UnaryOperator;
  readonly argument: Expression;
}

/** `object[index]`: list index or map key (there is no `.field` read in expressions). */
export interface IndexExpression extends NodeBase {
  readonly type: 'IndexExpression';
  readonly object: Expression;
  readonly index: Expression;
}

/**
 * A tool name in call position: `tool.str.ToUpper`. `name` is the text after
 * `tool.` with its case preserved (`str.ToUpper`, as reference §1.4);
 * `canonicalName` is `tool.` + lower-cased name (`tool.str.toupper`, §2.1).
 */
export interface ToolReference extends NodeBase {
  readonly type: 'ToolReference';
  readonly name: string;
  readonly canonicalName: string;
}

/**
 * A non-tool callee. `builtin` is true for the keyword built-ins
 * `len ln log sin cos tan asin acos atan`; other names (`char`, `ord`,
 * `is_string`, user functions…) are resolved at run time (built-ins first,
 * case-insensitively, then procedures — reference §1.7).
 */
export interface FunctionReference extends NodeBase {
  readonly type: 'FunctionReference';
  readonly name: string;
  readonly builtin: boolean;
}

/** `callee(arg, …)`. Arguments are positional; there is no keyword-argument syntax. */
export interface CallExpression extends NodeBase {
  readonly type: 'CallExpression';
  readonly callee: ToolReference | FunctionReference;
  readonly arguments: readonly Expression[];
}

/** Every expression node. */
export type Expression =
  | NumberLiteral
  | StringLiteral
  | InterpolatedString
  | BooleanLiteral
  | NilLiteral
  | ListLiteral
  | MapLiteral
  | Identifier
  | Placeholder
  | LastExpression
  | EvalExpression
  | BinaryExpression
  | UnaryExpression
  | IndexExpression
  | CallExpression;

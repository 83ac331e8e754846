/**
 * Statement nodes (reference §1.3 `statement`, §1.8). Plain data only.
 * `on error` handlers stay in the body at the position they were written
 * (the Go builder moves them out; the evaluator decides which one applies).
 */
import type { CallExpression, Expression } from './expressions.ts';
import type { NodeBase } from './node-base.ts';

/** `[expr]` step of an lvalue. */
export interface IndexAccessor extends NodeBase {
  readonly type: 'IndexAccessor';
  readonly index: Expression;
}

/** `.field` step of an lvalue (only lvalues have dot access). */
export interface FieldAccessor extends NodeBase {
  readonly type: 'FieldAccessor';
  readonly name: string;
}

/** An assignment target: `name`, `name[0].field["k"]`. */
export interface LValue extends NodeBase {
  readonly type: 'LValue';
  readonly name: string;
  readonly accessors: readonly (IndexAccessor | FieldAccessor)[];
}

/** `set a = e` or `set a, b = e` (multi-assign: `e` must be a list at run time). */
export interface SetStatement extends NodeBase {
  readonly type: 'SetStatement';
  readonly targets: readonly LValue[];
  readonly value: Expression;
}

/** `call f(…)` / `call tool.g.n(…)`: evaluates and discards the value. */
export interface CallStatement extends NodeBase {
  readonly type: 'CallStatement';
  readonly call: CallExpression;
}

/** `return` or `return a, b` (several values return a list). */
export interface ReturnStatement extends NodeBase {
  readonly type: 'ReturnStatement';
  readonly values: readonly Expression[];
}

/** `emit e`. */
export interface EmitStatement extends NodeBase {
  readonly type: 'EmitStatement';
  readonly value: Expression;
}

/** `whisper handle, value`. */
export interface WhisperStatement extends NodeBase {
  readonly type: 'WhisperStatement';
  readonly handle: Expression;
  readonly value: Expression;
}

/** `must e`. */
export interface MustStatement extends NodeBase {
  readonly type: 'MustStatement';
  readonly condition: Expression;
}

/** `fail` or `fail e`. */
export interface FailStatement extends NodeBase {
  readonly type: 'FailStatement';
  readonly message: Expression | null;
}

/** `clear_error` (only inside an `on error` handler). */
export interface ClearErrorStatement extends NodeBase {
  readonly type: 'ClearErrorStatement';
}

/** `clear event <expr>` or `clear event named "x"`: removes event handlers. */
export interface ClearEventStatement extends NodeBase {
  readonly type: 'ClearEventStatement';
  /** The event name expression, or null when `named` is used. */
  readonly event: Expression | null;
  /** The handler name after `named`, or null. */
  readonly handlerName: string | null;
}

/** `ask agent, prompt [with options] [into target]`. */
export interface AskStatement extends NodeBase {
  readonly type: 'AskStatement';
  readonly agent: Expression;
  readonly prompt: Expression;
  readonly options: Expression | null;
  readonly into: LValue | null;
}

/** `promptuser prompt into target`. */
export interface PromptUserStatement extends NodeBase {
  readonly type: 'PromptUserStatement';
  readonly prompt: Expression;
  readonly into: LValue;
}

/** `break`. */
export interface BreakStatement extends NodeBase {
  readonly type: 'BreakStatement';
}

/** `continue`. */
export interface ContinueStatement extends NodeBase {
  readonly type: 'ContinueStatement';
}

/** `if cond … [else …] endif` (no `else if`; nest an `if` inside `else`). */
export interface IfStatement extends NodeBase {
  readonly type: 'IfStatement';
  readonly condition: Expression;
  readonly consequent: readonly Statement[];
  /** The `else` body, or null when there is no `else`. */
  readonly alternate: readonly Statement[] | null;
}

/** `while cond … endwhile`. */
export interface WhileStatement extends NodeBase {
  readonly type: 'WhileStatement';
  readonly condition: Expression;
  readonly body: readonly Statement[];
}

/** `for each v in coll … endfor`. */
export interface ForEachStatement extends NodeBase {
  readonly type: 'ForEachStatement';
  readonly variable: string;
  readonly collection: Expression;
  readonly body: readonly Statement[];
}

/** `on error do … endon`. */
export interface OnErrorStatement extends NodeBase {
  readonly type: 'OnErrorStatement';
  readonly body: readonly Statement[];
}

/**
 * `on event <expr> [named "n"] [as v] do … endon`. Appears at the top level of
 * a library script (in `Program.eventHandlers`) and, as the grammar allows,
 * inside a function body.
 */
export interface OnEventStatement extends NodeBase {
  readonly type: 'OnEventStatement';
  readonly event: Expression;
  readonly handlerName: string | null;
  /** The variable after `as`, bound to the event, or null. */
  readonly binding: string | null;
  readonly body: readonly Statement[];
}

/** Every statement node. */
export type Statement =
  | SetStatement
  | CallStatement
  | ReturnStatement
  | EmitStatement
  | WhisperStatement
  | MustStatement
  | FailStatement
  | ClearErrorStatement
  | ClearEventStatement
  | AskStatement
  | PromptUserStatement
  | BreakStatement
  | ContinueStatement
  | IfStatement
  | WhileStatement
  | ForEachStatement
  | OnErrorStatement
  | OnEventStatement;

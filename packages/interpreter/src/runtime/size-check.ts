/** Guards on the size of strings, lists and maps the interpreter builds (`SCRIPT_VALUE_TOO_LARGE`). */
import type { RunLimits } from './limits.ts';
import { fail, type Position } from './script-error.ts';

/**
 * How deeply lists and maps may nest when a value is walked (rendered,
 * compared, converted to or from JSON). Deeper values can be built one level at
 * a time, but walking them would exhaust the stack.
 */
export const MAX_VALUE_DEPTH = 100;

/**
 * The longest string V8 can build (2^29 - 24 UTF-16 units on 64-bit). Past it
 * the engine throws a `RangeError` ("Invalid string length"), which would be
 * reported as a stack overflow at no position; with `stringLength` at
 * `Infinity` this is the bound that applies.
 */
export const MAX_ENGINE_STRING_LENGTH = 2 ** 29 - 24;

/** Throws unless a string of `length` characters fits the limit (and the engine). */
export function checkStringLength(length: number, limits: Pick<RunLimits, 'stringLength'>, where: Position | null): void {
  if (length > limits.stringLength) {
    fail('SCRIPT_VALUE_TOO_LARGE', `A string of ${length} characters exceeds the limit of ${limits.stringLength} (limit: stringLength).`, where);
  }
  if (length > MAX_ENGINE_STRING_LENGTH) {
    fail('SCRIPT_VALUE_TOO_LARGE', `A string of ${length} characters exceeds the longest string the engine can hold, ${MAX_ENGINE_STRING_LENGTH} (limit: stringLength).`, where);
  }
}

/** Whether a `RangeError` is V8's stack overflow rather than a value past the engine's size limits ("Invalid string length"). */
export function isStackOverflow(error: RangeError): boolean {
  return error.message.includes('call stack');
}

/** Throws unless a list or map of `size` items fits the limit. */
export function checkCollectionSize(size: number, limits: Pick<RunLimits, 'collectionSize'>, where: Position | null): void {
  if (size > limits.collectionSize) {
    fail('SCRIPT_VALUE_TOO_LARGE', `A list or map of ${size} items exceeds the limit of ${limits.collectionSize} (limit: collectionSize).`, where);
  }
}

/** Throws when a walk reaches a list or map nested more than `MAX_VALUE_DEPTH` levels deep. */
export function checkValueDepth(depth: number, where: Position | null): void {
  if (depth > MAX_VALUE_DEPTH) {
    fail('SCRIPT_VALUE_TOO_LARGE', `A value is nested more than ${MAX_VALUE_DEPTH} levels deep (lists or maps inside each other); keep values flatter.`, where);
  }
}

/** A count of the items one walk over a value may still visit (`valueItems`). */
export interface ItemBudget {
  left: number;
  readonly limit: number;
  readonly what: string;
  readonly where: Position | null;
  /** Characters of text (strings and map keys) the walk may still visit; Infinity when only items are bounded. */
  charsLeft: number;
  readonly charLimit: number;
}

/** A fresh item budget for one walk; `maxChars` also bounds the text it visits. */
export function itemBudget(limits: Pick<RunLimits, 'valueItems'>, what: string, where: Position | null, maxChars = Infinity): ItemBudget {
  return { left: limits.valueItems, limit: limits.valueItems, what, where, charsLeft: maxChars, charLimit: maxChars };
}

/**
 * The text a tool call's arguments (or an `ask`'s options) may hold, in `stringLength`s: room for one longest
 * string and more beside it, while a list holding one 1 MiB string a hundred times (one value in the isolate, a
 * hundred copies as JSON in the host) is refused before the host builds it.
 */
export const ARGUMENT_CHARS_PER_STRING_LENGTH = 4;

/** Spends `count` characters of text of a budget; throws when it runs out. */
export function spendChars(budget: ItemBudget, count: number): void {
  budget.charsLeft -= count;
  if (budget.charsLeft < 0) {
    fail(
      'SCRIPT_VALUE_TOO_LARGE',
      `${budget.what} would hold more than ${budget.charLimit} characters of text, in all its strings and keys (${ARGUMENT_CHARS_PER_STRING_LENGTH} × stringLength); pass less text per call, or split it over several calls.`,
      budget.where,
    );
  }
}

/** Spends `count` items of a budget; throws when it runs out. */
export function spendItems(budget: ItemBudget, count: number): void {
  budget.left -= count;
  if (budget.left < 0) {
    fail(
      'SCRIPT_VALUE_TOO_LARGE',
      `${budget.what} would visit more than ${budget.limit} list items and map entries, nested ones included (limit: valueItems); use smaller values.`,
      budget.where,
    );
  }
}

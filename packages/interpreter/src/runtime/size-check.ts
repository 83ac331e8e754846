/** Guards on the size of strings, lists and maps the interpreter builds (`SCRIPT_VALUE_TOO_LARGE`). */
import type { RunLimits } from './limits.ts';
import { fail, type Position } from './script-error.ts';

/** Throws unless a string of `length` characters fits the limit. */
export function checkStringLength(length: number, limits: RunLimits, where: Position | null): void {
  if (length > limits.stringLength) {
    fail('SCRIPT_VALUE_TOO_LARGE', `A string of ${length} characters exceeds the limit of ${limits.stringLength} (limit: stringLength).`, where);
  }
}

/** Throws unless a list or map of `size` items fits the limit. */
export function checkCollectionSize(size: number, limits: RunLimits, where: Position | null): void {
  if (size > limits.collectionSize) {
    fail('SCRIPT_VALUE_TOO_LARGE', `A list or map of ${size} items exceeds the limit of ${limits.collectionSize} (limit: collectionSize).`, where);
  }
}

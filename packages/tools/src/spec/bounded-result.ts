/**
 * The host's copy of a tool's result, bounded by the run's value-size limits
 * as it is made. A list's length and a map's key count are checked before a
 * single item is copied, and the text is counted as it is copied, so an
 * oversized result fails at the first limit it crosses — a map of 5 million
 * keys once blocked the host for 36 s (copied in full, then measured) before
 * failing, with a message naming the character limit rather than the item one.
 */
import { ToolError } from '../errors/tool-error.ts';
import { ensureResultItems } from './result-size.ts';
import { shownPath, toToolValue, type ToolValue, type ToolValueChecks } from './tool-value.ts';

/** The limits one result is held to, and the tool it comes from (named in the error). */
export interface ResultBounds {
  /** The tool's name as the script writes it. */
  readonly tool: string;
  /** The most items one list or map may hold: the run's `collectionSize` (`maxResultItems`). */
  readonly maxItems: number;
  /** The most characters all strings and map keys together may hold: the run's `stringLength` (`maxResultLength`). */
  readonly maxLength: number;
}

/**
 * {@link toToolValue} of a tool's result, refusing it with
 * `TOOL_RESULT_TOO_LARGE` as soon as a list or map holds more than
 * `maxItems` items or its strings and keys add up to more than `maxLength`
 * characters. The message names the tool, the limit crossed, its value and
 * where in the result; nothing past that point is walked. (Counting a huge
 * map's keys is itself one pass over them: V8 gives no cheaper count.)
 */
export function toBoundedToolValue(value: unknown, bounds: ResultBounds): ToolValue {
  const { tool, maxItems, maxLength } = bounds;
  let characters = 0;
  const checks: ToolValueChecks = {
    collection(count, kind, path) {
      ensureResultItems(tool, count, maxItems, { kind, path: shownPath(path) });
    },
    text(length, path) {
      characters += length;
      if (characters > maxLength) {
        throw new ToolError(
          'TOOL_RESULT_TOO_LARGE',
          `${tool} would return at least ${characters} characters (strings and map keys; the limit is crossed at ${shownPath(path)}); the run's limit is ${maxLength} (maxResultLength, the interpreter's stringLength) — call it on smaller values`,
          { tool },
        );
      }
    },
  };
  return toToolValue(value, '$', new Set(), checks);
}

/**
 * Result sizes computed before anything is allocated. A tool that can make
 * its result much larger than its arguments (Replace, Join, base64, JSON
 * with a prefix…) asks these helpers for the exact length first and refuses
 * with `TOOL_RESULT_TOO_LARGE` when it exceeds the run's limit: a 1 MB
 * Replace with a 512-character replacement once drove the host to 3–5 GB.
 */
import { ToolError } from '../errors/tool-error.ts';
import type { ToolValue } from './tool-value.ts';

/** The default of `maxResultLength`: the interpreter's default `stringLength` (1 MiB characters; `DEFAULT_LIMITS` in @askloop/interpreter). */
export const DEFAULT_MAX_RESULT_LENGTH = 1024 * 1024;

/** The default of `maxResultItems`: the interpreter's default `collectionSize` (100,000 items; `DEFAULT_LIMITS` in @askloop/interpreter). */
export const DEFAULT_MAX_RESULT_ITEMS = 100_000;

/**
 * Throws `TOOL_RESULT_TOO_LARGE` when a result would hold a list or map of
 * `count` items, more than `limit`. `where`, when known, says which (e.g.
 * `{ kind: 'map', path: '$.rows' }`) and goes into the message.
 */
export function ensureResultItems(toolName: string, count: number, limit: number, where?: { readonly kind: 'list' | 'map'; readonly path: string }): void {
  if (count > limit) {
    const what = where === undefined ? 'a list or map' : `a ${where.kind}`;
    const at = where === undefined ? '' : ` at ${where.path}`;
    throw new ToolError(
      'TOOL_RESULT_TOO_LARGE',
      `${toolName} would return ${what} of ${count} items${at}; the run's limit is ${limit} items per list or map (maxResultItems, the interpreter's collectionSize) — call it on smaller values`,
      { tool: toolName },
    );
  }
}

/** Throws `TOOL_RESULT_TOO_LARGE` when a result of `length` characters would exceed `limit`. */
export function ensureResultLength(toolName: string, length: number, limit: number): void {
  if (length > limit) {
    throw new ToolError(
      'TOOL_RESULT_TOO_LARGE',
      `${toolName} would return ${length > Number.MAX_SAFE_INTEGER ? 'more than 2^53' : length} characters; the run's limit is ${limit} (maxResultLength, the interpreter's stringLength) — call it on smaller values`,
      { tool: toolName },
    );
  }
}

/** Characters `JSON.stringify` writes for the string `text`, quotes included; stops counting past `budget`. */
export function jsonStringLength(text: string, budget = Infinity): number {
  let length = 2;
  for (let index = 0; index < text.length && length <= budget; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x0c || code === 0x0a || code === 0x0d || code === 0x09) length += 2;
    else if (code < 0x20) length += 6;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 2;
        index += 1;
      } else length += 6;
    } else if (code >= 0xdc00 && code <= 0xdfff) length += 6;
    else length += 1;
  }
  return length;
}

/**
 * The exact length of `JSON.stringify(value, null, indent)` (compact when
 * `indent` is undefined or empty) with `prefix` after every newline, without
 * building it. Returns early with some number above `budget` once that is exceeded.
 */
export function jsonTextLength(value: ToolValue, indent: string | undefined, prefix = '', budget = Infinity): number {
  const step = indent ?? '';
  const state = { length: 0 };
  const newline = (depth: number): void => {
    state.length += 1 + prefix.length + step.length * depth;
  };
  const visit = (item: ToolValue, depth: number): void => {
    if (state.length > budget) return;
    if (item === null) state.length += 4;
    else if (typeof item === 'string') state.length += jsonStringLength(item, budget - state.length);
    else if (typeof item === 'number' || typeof item === 'boolean') state.length += JSON.stringify(item).length;
    else {
      const isList = Array.isArray(item);
      const keys = isList ? undefined : Object.keys(item);
      const count = isList ? item.length : (keys as string[]).length;
      state.length += 2;
      if (count === 0) return;
      for (let index = 0; index < count && state.length <= budget; index += 1) {
        if (index > 0) state.length += 1;
        if (step !== '') newline(depth + 1);
        if (isList) visit(item[index] as ToolValue, depth + 1);
        else {
          const key = (keys as string[])[index] as string;
          state.length += jsonStringLength(key, budget - state.length) + (step === '' ? 1 : 2);
          visit((item as Record<string, ToolValue>)[key] as ToolValue, depth + 1);
        }
      }
      if (step !== '') newline(depth);
    }
  };
  visit(value, 0);
  return state.length;
}

/**
 * `tool.str.*`: pure string tools with the reference's names and argument
 * order (reference §2.7, `pkg/tool/strtools`). Lengths and indexes count
 * Unicode code points (Go counts runes). Regex, ANSI colour, compression and
 * bytes tools are not included.
 */
import { ToolError } from '../errors/tool-error.ts';
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { canonicalJson, compareUtf8 } from '../spec/canonical-json.ts';
import { ensureResultItems, ensureResultLength, jsonTextLength } from '../spec/result-size.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { toLowerSimple, toUpperSimple } from '../text/simple-case.ts';
import { markWorkerLocal } from '../local/worker-local.ts';

const chars = (text: string): string[] => Array.from(text);
const input = { name: 'input_string', type: 'string', description: 'The text to work on.' } as const;

/**
 * A number as the interpreter renders it (`formatNumber` of
 * `@askloop/interpreter`, which this package does not load at run time), so
 * a value reads the same in a tool's result as in an emit: Go's
 * `strconv.FormatFloat(v, 'f', -1, 64)` — the shortest digits that read back
 * as the same number, never an exponent (`1e21` is
 * `1000000000000000000000`, `1e-7` is `0.0000001`) — with `0` for negative
 * zero, and `NaN`, `+Inf`, `-Inf`. A property test holds the two equal.
 */
export function numberText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  // JavaScript's shortest round-trip digits (and "0" for -0); only an exponent needs rewriting.
  const text = String(value);
  const e = text.indexOf('e');
  if (e < 0) return text;
  // Move the mantissa's decimal point by the exponent: 1.5e-7 → 0.00000015, 1e+21 → 1 and 21 zeros.
  const negative = text.startsWith('-');
  const mantissa = text.slice(negative ? 1 : 0, e);
  const dot = mantissa.indexOf('.');
  const digits = mantissa.replace('.', '');
  const pointAt = (dot < 0 ? mantissa.length : dot) + Number(text.slice(e + 1));
  let unsigned: string;
  if (pointAt <= 0) unsigned = `0.${'0'.repeat(-pointAt)}${digits}`;
  else if (pointAt >= digits.length) unsigned = digits + '0'.repeat(pointAt - digits.length);
  else unsigned = `${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  return negative ? `-${unsigned}` : unsigned;
}

/** An item of a Join/Concat list as text: strings as they are, numbers as the interpreter renders them, booleans as `true`/`false`, nil as "", lists and maps as canonical JSON. */
function itemText(item: ToolValue): string {
  if (typeof item === 'string') return item;
  if (item === null) return '';
  if (typeof item === 'number') return numberText(item);
  if (typeof item === 'boolean') return String(item);
  return canonicalJson(item);
}

/** The items of a Join/Concat list as text, refusing (before building anything) a joined result over `limit`. */
function joinableTexts(toolName: string, value: ToolValue, argument: string, separator: string, limit: number): string[] {
  if (!Array.isArray(value)) throw new ToolError('TOOL_ARGUMENT_INVALID', `argument '${argument}' expects a list`, { argument });
  const list = value as readonly ToolValue[];
  let length = separator.length * Math.max(0, list.length - 1);
  ensureResultLength(toolName, length, limit);
  for (const item of list) {
    length += typeof item === 'string' ? item.length : item !== null && typeof item === 'object' ? jsonTextLength(item, undefined, '', limit - length) : itemText(item).length;
    ensureResultLength(toolName, length, limit);
  }
  return list.map(itemText);
}

/** Indented JSON with keys in UTF-8 order (`JSON.stringify` would put integer-like keys first), `prefix` after each newline. */
function prettyJson(value: ToolValue, indent: string, prefix: string, depth: number, parts: string[]): void {
  if (value === null || typeof value !== 'object') {
    parts.push(JSON.stringify(value));
    return;
  }
  const isList = Array.isArray(value);
  const keys = isList ? [] : Object.keys(value).sort(compareUtf8);
  const count = isList ? (value as readonly ToolValue[]).length : keys.length;
  if (count === 0) {
    parts.push(isList ? '[]' : '{}');
    return;
  }
  parts.push(isList ? '[' : '{');
  const inner = `\n${prefix}${indent.repeat(depth + 1)}`;
  for (let index = 0; index < count; index += 1) {
    parts.push(index === 0 ? inner : `,${inner}`);
    if (isList) prettyJson((value as readonly ToolValue[])[index] as ToolValue, indent, prefix, depth + 1, parts);
    else {
      const key = keys[index] as string;
      parts.push(`${JSON.stringify(key)}: `);
      prettyJson((value as Record<string, ToolValue>)[key] as ToolValue, indent, prefix, depth + 1, parts);
    }
  }
  parts.push(`\n${prefix}${indent.repeat(depth)}`, isList ? ']' : '}');
}

/**
 * The JSON text of `value` with sorted keys (stable), optionally indented
 * with `prefix` after each newline. Refuses with `TOOL_RESULT_TOO_LARGE`
 * before building a text longer than `limit` (a large prefix on a value of
 * many lines multiplies its size).
 */
export function stringifyValue(value: ToolValue, indent: string | undefined, prefix = '', limit = Infinity, toolName = 'tool.json.Stringify'): string {
  const pretty = indent !== undefined && indent !== '';
  ensureResultLength(toolName, jsonTextLength(value, pretty ? indent : undefined, pretty ? prefix : '', limit), limit);
  if (!pretty) return canonicalJson(value);
  const parts: string[] = [];
  prettyJson(value, indent, prefix, 0, parts);
  return parts.join('');
}

/** True when `value` holds a non-finite number anywhere (walked without recursion: parsed JSON may nest deeply). */
function holdsNonFinite(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'number' && !Number.isFinite(item)) return true;
    // A loop, not push(...items): a spread of a huge list overflows the call's argument limit.
    if (typeof item === 'object' && item !== null) for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push(child);
  }
  return false;
}

/** Strict UTF-8: decoded bytes that are not text are refused rather than turned into U+FFFD without a word. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `bytes` as text, or `TOOL_VALUE_INVALID` naming `argument` when they are not UTF-8 (binary data, another encoding). */
function utf8Text(bytes: Uint8Array, argument: string, encoding: string): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new ToolError('TOOL_VALUE_INVALID', `${argument} is valid ${encoding}, but its bytes are not UTF-8 text (binary data, or another encoding); these tools decode text only`, { argument });
  }
}

/**
 * Parses JSON text (the tool's argument `argument`), raising
 * `TOOL_VALUE_INVALID` naming the argument with the parser's reason — also
 * for a number beyond the double range (`1e400`), which `JSON.parse` turns into
 * Infinity: that is bad input, not a tool returning a bad result.
 */
export function parseJsonValue(text: string, argument = 'text'): ToolValue {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ToolError('TOOL_VALUE_INVALID', `${argument} is not valid JSON: ${(error as Error).message}`, { argument });
  }
  if (holdsNonFinite(value)) {
    throw new ToolError('TOOL_VALUE_INVALID', `${argument} holds a number out of range: JSON numbers must lie between about -1.8e308 and 1.8e308 (a double); write larger values as strings`, { argument });
  }
  return value as ToolValue;
}

/** Code points in `text`, counted without building an array. */
function codePointCount(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    count += 1;
  }
  return count;
}

/** Non-overlapping occurrences of a non-empty `part` in `text` (as `split` finds them). */
function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count += 1;
  return count;
}

/** The length of Replace's result, counted without building it (occurrences × the length change). */
function replacedLength(text: string, old: string, replacement: string, count: number): number {
  if (old === '') {
    // Go inserts the replacement before every character and at the end.
    const slots = chars(text).length + 1;
    return text.length + replacement.length * (count < 0 ? slots : Math.min(count, slots));
  }
  let occurrences = 0;
  for (let at = text.indexOf(old); at >= 0 && (count < 0 || occurrences < count); at = text.indexOf(old, at + old.length)) occurrences += 1;
  return text.length + occurrences * (replacement.length - old.length);
}

/** Creates the `str` pack. */
export function createStringTools(): ToolPack {
  return markWorkerLocal(defineToolPack('str', [
    defineTool({ name: 'tool.str.Length', description: 'Number of characters (code points) in the string.', args: [input], returns: 'int' }, (args) => chars(args.input_string as string).length),
    defineTool(
      {
        name: 'tool.str.Substring',
        description: 'The part of the string starting at start_index with at most length characters.',
        args: [input, { name: 'start_index', type: 'int', description: 'First character, from 0.' }, { name: 'length', type: 'int', description: 'Maximum number of characters.' }],
        returns: 'string',
      },
      (args) => {
        const list = chars(args.input_string as string);
        const start = args.start_index as number;
        const length = args.length as number;
        if (start < 0 || length < 0) {
          throw new ToolError('TOOL_VALUE_BOUNDS', `start_index ${start} and length ${length} must not be negative`);
        }
        // Like the Go original, a start past the end clamps to the empty string.
        return list.slice(start, start + length).join('');
      },
    ),
    defineTool({ name: 'tool.str.ToUpper', description: 'The string in upper case.', args: [input], returns: 'string' }, (args) => toUpperSimple(args.input_string as string)),
    defineTool({ name: 'tool.str.ToLower', description: 'The string in lower case.', args: [input], returns: 'string' }, (args) => toLowerSimple(args.input_string as string)),
    defineTool({ name: 'tool.str.TrimSpace', description: 'The string without leading and trailing white space.', args: [input], returns: 'string' }, (args) => (args.input_string as string).trim()),
    defineTool(
      { name: 'tool.str.TrimPrefix', description: 'The string without the prefix, if it starts with it.', args: [input, { name: 'prefix', type: 'string' }], returns: 'string' },
      (args) => {
        const text = args.input_string as string;
        const prefix = args.prefix as string;
        return text.startsWith(prefix) ? text.slice(prefix.length) : text;
      },
    ),
    defineTool(
      { name: 'tool.str.TrimSuffix', description: 'The string without the suffix, if it ends with it.', args: [input, { name: 'suffix', type: 'string' }], returns: 'string' },
      (args) => {
        const text = args.input_string as string;
        const suffix = args.suffix as string;
        return suffix !== '' && text.endsWith(suffix) ? text.slice(0, text.length - suffix.length) : text;
      },
    ),
    defineTool(
      { name: 'tool.str.Split', description: 'The parts of the string between delimiters (an empty delimiter splits into characters).', args: [input, { name: 'delimiter', type: 'string' }], returns: 'list' },
      (args, context) => {
        const text = args.input_string as string;
        const delimiter = args.delimiter as string;
        ensureResultItems('tool.str.Split', delimiter === '' ? codePointCount(text) : occurrences(text, delimiter) + 1, context.maxResultItems);
        return delimiter === '' ? chars(text) : text.split(delimiter);
      },
    ),
    defineTool({ name: 'tool.str.SplitWords', description: 'The words of the string, split on white space.', args: [input], returns: 'list' }, (args, context) => {
      const trimmed = (args.input_string as string).trim();
      if (trimmed === '') return [];
      // Counted first: a megabyte of "a " would otherwise become half a million strings before the run's limit refused them.
      let words = 1;
      for (const _gap of trimmed.matchAll(/\s+/gu)) words += 1;
      ensureResultItems('tool.str.SplitWords', words, context.maxResultItems);
      return trimmed.split(/\s+/u);
    }),
    defineTool(
      { name: 'tool.str.Join', description: 'The strings of the list joined with the separator.', args: [{ name: 'string_list', type: 'any' }, { name: 'separator', type: 'string' }], returns: 'string' },
      (args, context) => joinableTexts('tool.str.Join', args.string_list as ToolValue, 'string_list', args.separator as string, context.maxResultLength).join(args.separator as string),
    ),
    defineTool({ name: 'tool.str.Concat', description: 'The items of the list as text, joined together.', args: [{ name: 'strings_list', type: 'any' }], returns: 'string' }, (args, context) =>
      joinableTexts('tool.str.Concat', args.strings_list as ToolValue, 'strings_list', '', context.maxResultLength).join(''),
    ),
    defineTool(
      {
        name: 'tool.str.Replace',
        description: 'The string with the first count occurrences of old_substring replaced (count < 0: all).',
        args: [input, { name: 'old_substring', type: 'string' }, { name: 'new_substring', type: 'string' }, { name: 'count', type: 'int' }],
        returns: 'string',
      },
      (args, context) => {
        const text = args.input_string as string;
        const old = args.old_substring as string;
        const replacement = args.new_substring as string;
        let remaining = args.count as number;
        ensureResultLength('tool.str.Replace', replacedLength(text, old, replacement, remaining), context.maxResultLength);
        if (old === '') {
          // Go inserts the replacement before every character and at the end.
          const list = chars(text);
          const limit = remaining < 0 ? list.length + 1 : remaining;
          let output = '';
          for (let index = 0; index <= list.length; index += 1) {
            if (index < limit) output += replacement;
            if (index < list.length) output += list[index] as string;
          }
          return output;
        }
        if (remaining < 0) return text.split(old).join(replacement);
        const parts = text.split(old);
        let result = parts[0] as string;
        for (let index = 1; index < parts.length; index += 1) {
          result += (remaining > 0 ? replacement : old) + (parts[index] as string);
          remaining -= 1;
        }
        return result;
      },
    ),
    defineTool({ name: 'tool.str.Contains', description: 'True when the string contains the substring.', args: [input, { name: 'substring', type: 'string' }], returns: 'bool' }, (args) =>
      (args.input_string as string).includes(args.substring as string),
    ),
    defineTool({ name: 'tool.str.HasPrefix', description: 'True when the string starts with the prefix.', args: [input, { name: 'prefix', type: 'string' }], returns: 'bool' }, (args) =>
      (args.input_string as string).startsWith(args.prefix as string),
    ),
    defineTool({ name: 'tool.str.HasSuffix', description: 'True when the string ends with the suffix.', args: [input, { name: 'suffix', type: 'string' }], returns: 'bool' }, (args) =>
      (args.input_string as string).endsWith(args.suffix as string),
    ),
    defineTool({ name: 'tool.str.LineCount', description: 'Number of lines (a trailing newline does not start a new line).', args: [input], returns: 'int' }, (args) => {
      const text = args.input_string as string;
      if (text === '') return 0;
      const lines = text.split('\n');
      return text.endsWith('\n') ? lines.length - 1 : lines.length;
    }),
    defineTool({ name: 'tool.str.ToBase64', description: 'Standard base64 of the UTF-8 bytes of the string.', args: [input], returns: 'string' }, (args, context) => {
      ensureResultLength('tool.str.ToBase64', Math.ceil(Buffer.byteLength(args.input_string as string, 'utf8') / 3) * 4, context.maxResultLength);
      return Buffer.from(args.input_string as string, 'utf8').toString('base64');
    }),
    defineTool({ name: 'tool.str.FromBase64', description: 'The UTF-8 text encoded by standard base64.', args: [{ name: 'encoded_string', type: 'string' }], returns: 'string' }, (args) => {
      const encoded = (args.encoded_string as string).trim();
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) throw new ToolError('TOOL_VALUE_INVALID', 'encoded_string is not valid standard base64', { argument: 'encoded_string' });
      return utf8Text(Buffer.from(encoded, 'base64'), 'encoded_string', 'base64');
    }),
    defineTool({ name: 'tool.str.ToHex', description: 'Lower-case hex of the UTF-8 bytes of the string.', args: [input], returns: 'string' }, (args, context) => {
      ensureResultLength('tool.str.ToHex', Buffer.byteLength(args.input_string as string, 'utf8') * 2, context.maxResultLength);
      return Buffer.from(args.input_string as string, 'utf8').toString('hex');
    }),
    defineTool({ name: 'tool.str.FromHex', description: 'The UTF-8 text encoded as hex.', args: [{ name: 'encoded_string', type: 'string' }], returns: 'string' }, (args) => {
      const encoded = (args.encoded_string as string).trim();
      if (!/^([0-9a-fA-F]{2})*$/.test(encoded)) throw new ToolError('TOOL_VALUE_INVALID', 'encoded_string is not valid hex (pairs of 0-9, a-f)', { argument: 'encoded_string' });
      return utf8Text(Buffer.from(encoded, 'hex'), 'encoded_string', 'hex');
    }),
    defineTool({ name: 'tool.str.ParseJsonString', description: 'The value encoded by the JSON text.', args: [{ name: 'json_string', type: 'string' }], returns: 'any' }, (args) =>
      parseJsonValue(args.json_string as string, 'json_string'),
    ),
    defineTool(
      {
        name: 'tool.str.ToJsonString',
        description: 'The value as JSON text with sorted keys; pretty_print indents it.',
        args: [
          { name: 'value', type: 'any' },
          { name: 'pretty_print', type: 'bool', default: false },
          { name: 'prefix', type: 'string', default: '' },
          { name: 'indent', type: 'string', default: '  ' },
        ],
        returns: 'string',
      },
      (args, context) =>
        stringifyValue(args.value as ToolValue, args.pretty_print === true ? (args.indent as string) : undefined, args.prefix as string, context.maxResultLength, 'tool.str.ToJsonString'),
    ),
  ], { pure: true }));
}

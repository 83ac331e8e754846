/**
 * What NeuroScript has instead of a function other languages build in
 * (`range`, `str`, `append`, `keys`, `split`, …), for the message of a call
 * of a function nothing defines. A model writes these by habit, and an agent's
 * program cannot define functions, so "define it" is no fix there: the message
 * names the built-in, the tool or the statement that does the same. Only
 * equivalents that exist are listed: the built-ins of `runtime/builtins.ts`,
 * the tools of `@askloop/tools`' default packs, and the language's statements.
 */
import type { ToolCatalog } from '../tool-signature.ts';

/** The NeuroScript way to do what a missing function does: `advice` to write, and the tool it calls, if any. */
interface Equivalent {
  /** The tool the advice calls: it is given only when the program's catalogue (when known) has it and allows it. */
  readonly tool?: string;
  readonly advice: string;
}

const LENGTH: Equivalent = { advice: 'the length of a string, list or map is the built-in len(x)' };
const TEXT: Equivalent = { advice: '+ joins text and any value ("n = " + 3), so the text of a value x is "" + x' };
const NUMBER: Equivalent = { advice: 'a numeric string already counts as a number in arithmetic and comparisons ("2" + 3 is 5), and x + 0 turns one into a number' };
const PRINT: Equivalent = { advice: "to print, write the statement 'emit value'" };
const APPEND: Equivalent = { tool: 'tool.list.Append', advice: "to add an item, make the list anew: 'set xs = tool.list.Append(xs, item)'" };
const SORT: Equivalent = { tool: 'tool.list.Sort', advice: "'set xs = tool.list.Sort(xs)' sorts a list of only numbers or only strings" };
const REVERSE: Equivalent = { tool: 'tool.list.Reverse', advice: "'set xs = tool.list.Reverse(xs)' reverses a list" };
const UPPER: Equivalent = { tool: 'tool.str.ToUpper', advice: 'write tool.str.ToUpper(text)' };
const LOWER: Equivalent = { tool: 'tool.str.ToLower', advice: 'write tool.str.ToLower(text)' };
const TRIM: Equivalent = { tool: 'tool.str.TrimSpace', advice: 'write tool.str.TrimSpace(text)' };
const STARTS: Equivalent = { tool: 'tool.str.HasPrefix', advice: 'write tool.str.HasPrefix(text, prefix)' };
const ENDS: Equivalent = { tool: 'tool.str.HasSuffix', advice: 'write tool.str.HasSuffix(text, suffix)' };
const SUBSTRING: Equivalent = { tool: 'tool.str.Substring', advice: 'write tool.str.Substring(text, start, length)' };

/** Keyed by the lower-case name, as a call may spell it in any case (`toUpperCase`, `ToUpper`). */
const EQUIVALENTS: Readonly<Record<string, Equivalent>> = {
  range: { advice: "count with a while loop instead: 'set i = 0', then 'while i < n' … 'set i = i + 1' … 'endwhile'" },
  print: PRINT,
  println: PRINT,
  echo: PRINT,
  str: TEXT,
  string: TEXT,
  tostring: TEXT,
  int: NUMBER,
  float: NUMBER,
  number: NUMBER,
  parseint: NUMBER,
  parsefloat: NUMBER,
  length: LENGTH,
  size: LENGTH,
  count: LENGTH,
  type: { advice: "a value's type name is the built-in typeof(x)" },
  sum: { advice: "add in a loop instead: 'set total = 0', then 'for each n in xs' … 'set total = total + n' … 'endfor'" },
  append: APPEND,
  push: APPEND,
  keys: { tool: 'tool.map.Keys', advice: "a map's keys, sorted, are tool.map.Keys(m): 'for each k in tool.map.Keys(m)' (a for each over a map gives its values)" },
  values: { tool: 'tool.map.Values', advice: "a map's values are tool.map.Values(m), or 'for each v in m'" },
  get: { tool: 'tool.map.Get', advice: 'write tool.map.Get(m, key, default) for a key that may be absent' },
  has: { tool: 'tool.map.Has', advice: 'write tool.map.Has(m, key)' },
  sort: SORT,
  sorted: SORT,
  reverse: REVERSE,
  reversed: REVERSE,
  split: { tool: 'tool.str.Split', advice: 'write tool.str.Split(text, ","), or tool.str.SplitWords(text) for the words' },
  join: { tool: 'tool.str.Join', advice: 'write tool.str.Join(list, ", ")' },
  upper: UPPER,
  toupper: UPPER,
  touppercase: UPPER,
  lower: LOWER,
  tolower: LOWER,
  tolowercase: LOWER,
  strip: TRIM,
  trim: TRIM,
  replace: { tool: 'tool.str.Replace', advice: 'write tool.str.Replace(text, old, new, -1) (-1 replaces every one)' },
  startswith: STARTS,
  endswith: ENDS,
  contains: { tool: 'tool.str.Contains', advice: 'write tool.str.Contains(text, part), or tool.list.Contains(list, item) for a list' },
  includes: { tool: 'tool.str.Contains', advice: 'write tool.str.Contains(text, part), or tool.list.Contains(list, item) for a list' },
  substring: SUBSTRING,
  substr: SUBSTRING,
  now: { tool: 'tool.time.Now', advice: 'the current time is tool.time.Now()' },
};

/**
 * The NeuroScript way to do what the missing function `name` does, or
 * undefined when there is none or its tool is not one the program may call
 * (not in `tools`, or refused by its policy).
 */
export function functionEquivalent(name: string, tools?: ToolCatalog): string | undefined {
  const key = name.toLowerCase();
  if (!Object.hasOwn(EQUIVALENTS, key)) return undefined;
  const equivalent = EQUIVALENTS[key] as Equivalent;
  // The catalogue is asked by canonical (lower-case) name, as the tool check asks it.
  const tool = equivalent.tool?.toLowerCase();
  if (tool !== undefined && tools !== undefined && (tools.get(tool) === undefined || tools.check?.(tool) !== undefined)) return undefined;
  return equivalent.advice;
}

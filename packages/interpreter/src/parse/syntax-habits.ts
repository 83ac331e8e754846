/**
 * Syntax messages for habits of other languages and of the loop's protocol
 * that the grammar alone reports as "unexpected …": compound assignment
 * (`n += 1`, `counts[w] += 1`, `n++`), Python's f-strings, and the loop's
 * `<<<LOOP:DONE>>>` marker written as a statement instead of emitted. Each
 * message spells out the NeuroScript line to write, built from the model's
 * own line, so the next turn can copy it.
 */

/** A `set` target as written: a name with bracket or dot accessors (`counts[w]`, `m.total`). */
const TARGET = String.raw`[A-Za-z_][A-Za-z0-9_]*(?:\s*(?:\[[^\]\n]*\]|\.[A-Za-z_][A-Za-z0-9_]*))*`;

/** `target += value` (any of `+ - * / %`), or `target++` / `target--`. */
const COMPOUND = new RegExp(String.raw`^(${TARGET})\s*(?:([-+*/%])=(?!=)\s*(.*)|(\+\+|--)\s*$)`);

/** A value that needs no parentheses after an operator: a literal, a name, an index chain or a simple call. */
const SIMPLE_VALUE = /^(-?\d+(\.\d+)?|"[^"]*"|'[^']*'|[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])*|[A-Za-z_][\w.]*\([^()]*\))$/;

/**
 * The message for a compound assignment in `line` (`counts[w] += 1`,
 * `n++`), or undefined when `line` is none. `withSet`: the line already
 * starts with `set` (`line` is what follows it), so only the operator is
 * wrong.
 */
export function compoundAssignmentProblem(line: string, withSet: boolean): string | undefined {
  const match = COMPOUND.exec(line.trim());
  if (match === null) return undefined;
  const target = (match[1] as string).replace(/\s+/g, '');
  const step = match[4];
  const operator = step === undefined ? (match[2] as string) : (step[0] as string);
  const raw = step === undefined ? (match[3] as string).trim() : '1';
  const value = raw === '' ? '…' : SIMPLE_VALUE.test(raw) ? raw : `(${raw})`;
  const written = step ?? `${operator}=`;
  // `--` starts a comment, so `n--` reads as `n`: say so, or the fix looks arbitrary.
  const why = step === '--' ? " ('--' starts a comment)" : '';
  const needsSet = withSet ? '' : "An assignment needs 'set', and ";
  const there = withSet ? 'There' : 'there';
  return `${needsSet}${there} is no '${written}'${why}: write 'set ${target} = ${target} ${operator} ${value}'.`;
}

/**
 * `f"count: {n}"`: `before` ends with the `f` (read as a name) and `rest`
 * starts at its quote. The message shows the same text joined with `+`, or
 * undefined when this is no f-string.
 */
export function fStringProblem(before: string, rest: string): string | undefined {
  if (!/(^|[^A-Za-z0-9_])[fF]$/.test(before) || !/^["']/.test(rest)) return undefined;
  const joined = joinFString(rest);
  if (joined === undefined) return 'There are no f-strings: join text and values with +, as in "count: " + n.';
  const statement = before.slice(0, -1).trim();
  const line = `${statement === '' ? '' : `${statement} `}${joined.expression}${joined.after === '' ? '' : ` ${joined.after}`}`;
  return `There are no f-strings: join text and values with +, as in '${line}'.`;
}

/** A piece of an f-string: text between holes, or a hole's expression. */
type FStringPart = { readonly text: string } | { readonly value: string };

/** `rest`'s f-string as a `+` expression of its text and values, and what follows it on the line; undefined when it is not simple. */
function joinFString(rest: string): { expression: string; after: string } | undefined {
  const quote = rest[0] as string;
  let end = 1;
  while (end < rest.length && rest[end] !== quote) end += rest[end] === '\\' ? 2 : 1;
  if (end >= rest.length) return undefined;
  const content = rest.slice(1, end);
  const parts: FStringPart[] = [];
  let text = '';
  for (let index = 0; index < content.length; index += 1) {
    const character = content[index] as string;
    if ((character === '{' || character === '}') && content[index + 1] === character) {
      text += character;
      index += 1;
    } else if (character === '{') {
      const close = content.indexOf('}', index + 1);
      const value = close === -1 ? undefined : fStringValue(content.slice(index + 1, close));
      if (value === undefined) return undefined;
      if (text !== '') parts.push({ text });
      text = '';
      parts.push({ value });
      index = close;
    } else if (character === '}') {
      return undefined;
    } else {
      text += character;
    }
  }
  if (text !== '') parts.push({ text });
  // Double quotes, as the guide writes strings, unless the text holds one.
  const q = quote === "'" && !content.includes('"') ? '"' : quote;
  const pieces = parts.map((part) => ('text' in part ? `${q}${part.text}${q}` : part.value));
  // `+` adds two numbers: unless text comes first or second, start with empty text so every `+` joins.
  const [first, second] = parts;
  if (!(first !== undefined && 'text' in first) && !(second !== undefined && 'text' in second)) pieces.unshift(`${q}${q}`);
  return { expression: pieces.join(' + '), after: rest.slice(end + 1).trim() };
}

/** The expression of one `{…}` of an f-string, without a format spec (`{x:.2f}` → `x`); undefined when unclear. */
function fStringValue(inside: string): string | undefined {
  const expression = inside.trim();
  if (expression === '' || expression.includes('{')) return undefined;
  if (!/[:!]/.test(expression)) return expression;
  const name = expression.slice(0, expression.search(/[:!]/)).trim();
  return /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])*$/.test(name) ? name : undefined;
}

/**
 * Text that starts with `<<<` (the loop's `<<<LOOP:DONE>>>` marker, written as
 * if it were a statement or a value): the program must emit it as text.
 * `place`: outside any block (`top`, or `after-command` when a command block
 * came before it), as a statement, or where a value was expected (`before`
 * is the line before it).
 */
export function markerProblem(rest: string, place: 'top' | 'after-command' | 'statement' | 'value', before = ''): string | undefined {
  const line = rest.trim();
  if (!line.startsWith('<<<')) return undefined;
  const marker = /^<<<[^>\n]{0,40}>>>/.exec(line)?.[0] ?? '<<<';
  // The model's own line, quoted, when it is short enough to copy; else the marker and a placeholder.
  const quoted = JSON.stringify(line.length <= 120 ? line : `${marker} your result`);
  if (place === 'value') return `'${marker}' is text: write it in quotes, '${before.trim()} ${quoted}'.`;
  const emit = `emit ${quoted}`;
  if (place === 'statement') return `'${marker}' is not a statement: the program writes it to OUTPUT, so emit it in quotes: '${emit}'.`;
  const intro = `'${marker}' is not a statement: ACTIONS holds only the program, which writes the marker to OUTPUT.`;
  if (place === 'after-command') return `${intro} Move it into the command block as '${emit}', before 'endcommand'.`;
  return `${intro} Write 'command', then '${emit}', then 'endcommand', each on its own line.`;
}

/** A hole written as a template language's dotted path: a name, then fields and indexes, at least one field (`user.name`, `items[0].id`). */
const DOTTED_HOLE = /^[A-Za-z_][A-Za-z0-9_]*(?:\s*(?:\[[^\]\n]*\]|\.[A-Za-z_][A-Za-z0-9_]*))*$/;

/**
 * `{{user.name}}`, the habit of Jinja, Handlebars and Mustache: the message
 * with the hole NeuroScript reads (`{{user["name"]}}`), or undefined when
 * `text` (the hole's trimmed inside) has no dotted field.
 */
export function dottedHoleProblem(text: string): string | undefined {
  if (!DOTTED_HOLE.test(text) || !/^[^[]*\.|\]\s*\./.test(text)) return undefined;
  // Only the fields outside brackets are rewritten: `m[a.b]` keeps its index as written.
  const bracketed = text.replace(/\s+/g, '').replace(/\[[^\]\n]*\]|\.([A-Za-z_][A-Za-z0-9_]*)/g, (part, field: string | undefined) => (field === undefined ? part : `["${field}"]`));
  return `Cannot read {{${text}}} in a string: map fields are read with brackets, so write {{${bracketed}}}. Dot access only works on the left of 'set'.`;
}

/** A callee just before an argument list's `(`: a tool (`tool.str.ToUpper`) or a function name. */
const CALLEE = /(tool(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)+|[A-Za-z_][A-Za-z0-9_]*)\s*$/;

/** One argument written as a keyword argument: `name=value` or `name: value`. */
const KEYWORD_ARGUMENT = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:=(?!=)|:)\s*(\S[\s\S]*?)\s*$/;

/**
 * `tool.str.ToUpper(input_string="x")` or `f(name: "x")`, Python's and
 * Kotlin's keyword arguments: the message with the call written as
 * NeuroScript takes named arguments, one map (`{"input_string": "x"}`), or
 * undefined when this is none. `line` is the failing line, `paren` the
 * offset in it of the call's `(` and `at` that of the `=` or `:`;
 * `reserved`: the keywords, whose parentheses are no call's.
 */
export function keywordArgumentProblem(line: string, paren: number, at: number, reserved: ReadonlySet<string>): string | undefined {
  // A definition's parameter list is no call (`func f(needs a=1)`): its own messages say what it takes.
  if (/^\s*func\b/.test(line)) return undefined;
  const callee = CALLEE.exec(line.slice(0, paren))?.[1];
  // A keyword's parentheses (`if (x = 1)`, `len(x = 1)`) hold an expression, not a tool's or function's arguments.
  if (callee !== undefined && reserved.has(callee)) return undefined;
  const argument = line.slice(paren + 1, at);
  if (callee === undefined || !/(^|,)\s*[A-Za-z_][A-Za-z0-9_]*\s*$/.test(argument) || !/^(=(?!=)|:)/.test(line.slice(at))) return undefined;
  const name = callee.replace(/\s+/g, '');
  const pairs = (argumentsOf(line, paren) ?? []).map((part) => KEYWORD_ARGUMENT.exec(part));
  // Every argument a keyword argument: the map to write; else a sketch of one (positional ones have no name here).
  const map = pairs.length > 0 && pairs.every((pair) => pair !== null)
    ? `{${pairs.map((pair) => `"${(pair as RegExpExecArray)[1]}": ${(pair as RegExpExecArray)[2]}`).join(', ')}}`
    : `{"${/([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(argument)?.[1] ?? 'name'}": …, …}`;
  return `Arguments are not named with '=' or ':': pass them in order, or name every one in one map, ${name}(${map}).`;
}

/**
 * The arguments of the call whose `(` is at `paren` in `line`, split at
 * commas outside brackets and quoted strings; undefined when the `)` is not
 * on the line. A rough scan, for a message.
 */
function argumentsOf(line: string, paren: number): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let from = paren + 1;
  for (let index = from; index < line.length; index += 1) {
    const character = line[index] as string;
    if (quote !== '') {
      if (character === '\\') index += 1;
      else if (character === quote) quote = '';
    } else if (character === '"' || character === "'") quote = character;
    else if ('([{'.includes(character)) depth += 1;
    else if (')]}'.includes(character) && depth > 0) depth -= 1;
    else if (character === ')') {
      parts.push(line.slice(from, index));
      return parts;
    } else if (character === ',' && depth === 0) {
      parts.push(line.slice(from, index));
      from = index + 1;
    }
  }
  return undefined;
}

/**
 * Generates `neuroscript-matcher.generated.js`: a recursive-descent matcher
 * compiled from the rule bodies of `neuroscript.ohm` (the grammar stays the
 * single source of truth), building the same concrete syntax tree Ohm 17
 * builds — `ctorName`, `children`, `childOffsets`, `matchLength` — for every
 * input Ohm accepts. The parser uses it on the happy path only: when it
 * fails, runs out of its work budget, or passes the nesting limit, the caller
 * matches again with Ohm, whose messages are unchanged (decision 0004).
 *
 * Each pexpr is compiled to the code of its `eval` in Ohm 17
 * (`ohm-js/src/pexprs-eval.js`, `MatchState.eval`): implicit space skipping
 * before an application, terminal or range in a syntactic rule; bindings
 * and their offsets relative to the enclosing application (Ohm's binding
 * stack; here locals in fixed slots, see `push`); iteration
 * columns with Ohm's offset and length arithmetic; lookahead keeping its
 * bindings and negation dropping them. Parameterised rules (`ListOf<…>`) get
 * one function per argument list, as Ohm substitutes parameters per
 * application. Every rule also gets a recogniser (no tree) for the places
 * whose nodes Ohm throws away: skipped spaces and the inside of `~x`.
 *
 * Unlike Ohm it does not memoize: the grammar applies a rule at one position
 * from several alternatives only for small tokens, so re-matching is cheaper
 * than a memo table. A work budget (proportional to the input: rule calls,
 * loop iterations and characters read) bounds the
 * worst case; past it the caller falls back to Ohm's linear-time packrat
 * matcher. Left recursion (which Ohm supports and this grammar avoids) would
 * exhaust the stack, which also falls back.
 *
 * Usage: node src/grammar/generate-matcher.ts [--check]
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as ohm from 'ohm-js';
import { NESTING_LEVEL_RULES } from '../parse/nesting-level-rules.ts';

/** The grammar source the matcher is generated from. */
export const GRAMMAR_FILE = fileURLToPath(new URL('./neuroscript.ohm', import.meta.url));
/** Where the generated module lives. */
export const GENERATED_FILE = fileURLToPath(new URL('./neuroscript-matcher.generated.js', import.meta.url));

/** The start rules the parser matches from. */
const START_RULES = ['Program', 'Interpolation', 'Line', 'Lines', 'StatementLine'];

// The pexpr classes of Ohm 17 (`ohm.pexprs`); typed loosely on purpose; the generator is their only reader.
type PExpr = any;
const P = (ohm as unknown as { pexprs: Record<string, PExpr> }).pexprs;

interface RuleInfo {
  readonly body: PExpr;
  readonly formals: readonly string[];
}

interface Context {
  /** Whether the enclosing application is a syntactic rule (implicit space skipping). */
  readonly syntactic: boolean;
  /** Whether bindings are built (false inside `~x` and for skipped spaces). */
  readonly build: boolean;
  /** The label to `break` to when the expression fails. */
  readonly fail: string;
  /** The local holding the enclosing application's start position (offsets are relative to it). */
  readonly start: string;
  /** The first binding slot this expression fills (locals `k<slot>` for the node, `o<slot>` for its offset). */
  readonly slot: number;
  /** The rule function being compiled: how many slots it declares. */
  readonly fn: { slots: number };
}

const isSyntactic = (ruleName: string): boolean => ruleName[0] === (ruleName[0] as string).toUpperCase();

/** Compiles the grammar to the matcher module's text. */
export function generateMatcherSource(grammarSource: string): string {
  const grammar = ohm.grammar(grammarSource) as unknown as { rules: Record<string, RuleInfo> };
  const functions = new Map<string, { name: string; app: PExpr; build: boolean }>();
  const emitted: string[] = [];
  const sharedEmpties: string[] = [];
  const pending: { name: string; app: PExpr; build: boolean }[] = [];
  let counter = 0;
  const fresh = (prefix: string): string => `${prefix}${(counter += 1)}`;

  /** The function name for an application (concrete: no parameters left) in build or recognise mode. */
  function functionFor(app: PExpr, build: boolean): string {
    const key = `${build ? 'r' : 's'}:${app.toMemoKey()}`;
    let entry = functions.get(key);
    if (entry === undefined) {
      const safe = String(app.ruleName).replace(/[^A-Za-z0-9_]/g, '_');
      entry = { name: `${build ? 'r' : 's'}${functions.size}_${safe}`, app, build };
      functions.set(key, entry);
      pending.push(entry);
    }
    return entry.name;
  }

  /** The shared node of an application whose body is an optional loop and matched nothing (created on first use). */
  const emptyNodes = new Map<string, string>();
  function emptyNodeFor(app: PExpr, body: PExpr): string {
    const key = app.toMemoKey() as string;
    let name = emptyNodes.get(key);
    if (name === undefined) {
      name = `Z${emptyNodes.size}`;
      const arity = body.getArity() as number;
      const empty = body instanceof P.Opt ? 'EMPTY_OPT' : 'EMPTY_ITER';
      sharedEmpties.push(`const ${name} = new N(${JSON.stringify(app.ruleName)}, [${Array(arity).fill(empty).join(', ')}], [${Array(arity).fill('0').join(', ')}], 0, false);`);
      emptyNodes.set(key, name);
    }
    return name;
  }

  /** For an application of a rule whose body is an optional loop (not a nesting level): the loop's first-character test on `c` and the shared empty node. */
  function emptyShortcut(app: PExpr): { guard: string; node: string } | undefined {
    const rule = grammar.rules[app.ruleName as string];
    if (rule === undefined || NESTING_LEVEL_RULES.includes(app.ruleName as string)) return undefined;
    const body = rule.body.substituteParams(app.args);
    if (!(body instanceof P.Iter) || (body.minNumMatches as number) !== 0) return undefined;
    const guard = firstTest(body.expr, isSyntactic(app.ruleName as string), 'c');
    return guard === undefined ? undefined : { guard, node: emptyNodeFor(app, body) };
  }

  /** One code unit per match and a one-unit terminal node: ranges inside U+FFFF and one-character terminals. */
  function charTest(expr: PExpr, c: string): string | undefined {
    if (expr instanceof P.Range && !expr.matchCodePoint) {
      const from = (expr.from as string).codePointAt(0) as number;
      const to = (expr.to as string).codePointAt(0) as number;
      return from === to ? `${c} === ${from}` : `(${c} >= ${from} && ${c} <= ${to})`;
    }
    if (expr instanceof P.Terminal && (expr.obj as string).length === 1) return `${c} === ${(expr.obj as string).charCodeAt(0)}`;
    if (expr instanceof P.Alt && !(expr instanceof P.Extend) && !(expr instanceof P.Splice)) {
      const tests = (expr.terms as PExpr[]).map((term) => charTest(term, c));
      if (tests.every((test) => test !== undefined)) return tests.join(' || ');
    }
    return undefined;
  }

  const skipsSpace = (expr: PExpr): boolean => expr === P.any || expr === P.end || expr instanceof P.Apply || expr instanceof P.Terminal || expr instanceof P.Range || expr instanceof P.UnicodeChar;

  // ---- first characters: an alternative or loop body that cannot start with the next code unit is not tried ----
  type Ranges = [number, number][];
  const ALL: Ranges = [[0, 0xffff]];
  const nullableMemo = new Map<string, boolean>();
  const firstMemo = new Map<string, Ranges>();

  /** Whether `expr` can succeed without consuming input (conservative: `true` when unsure). */
  function nullable(expr: PExpr): boolean {
    if (expr === P.any) return false;
    if (expr === P.end) return true;
    if (expr instanceof P.Terminal) return (expr.obj as string).length === 0;
    if (expr instanceof P.Range || expr instanceof P.UnicodeChar) return false;
    if (expr instanceof P.Apply) {
      const key = expr.toMemoKey() as string;
      const known = nullableMemo.get(key);
      if (known !== undefined) return known;
      nullableMemo.set(key, true);
      const rule = grammar.rules[expr.ruleName as string] as RuleInfo;
      const answer = nullable(rule.body.substituteParams(expr.args));
      nullableMemo.set(key, answer);
      return answer;
    }
    if (expr instanceof P.Lex) return nullable(expr.expr);
    if (expr instanceof P.Seq) return (expr.factors as PExpr[]).every((factor) => nullable(factor));
    if (expr instanceof P.Alt) return (expr.terms as PExpr[]).some((term) => nullable(term));
    if (expr instanceof P.Iter) return (expr.minNumMatches as number) === 0 || nullable(expr.expr);
    return true;
  }

  /**
   * The code units a successful, non-empty match of `expr` can start with (a superset: lookaheads are
   * ignored; implicitly skipped spaces are included in syntactic rules).
   */
  function first(expr: PExpr, syntactic: boolean): Ranges {
    const spaces = syntactic && skipsSpace(expr) ? first(new P.Apply('spaces'), false) : [];
    if (expr === P.any) return ALL;
    if (expr === P.end) return spaces;
    if (expr instanceof P.Terminal) {
      const text = expr.obj as string;
      return text.length === 0 ? spaces : [...spaces, [text.charCodeAt(0), text.charCodeAt(0)]];
    }
    if (expr instanceof P.Range) {
      const from = (expr.from as string).codePointAt(0) as number;
      const to = (expr.to as string).codePointAt(0) as number;
      const ranges: Ranges = [...spaces];
      if (from <= 0xffff) ranges.push([from, Math.min(to, 0xffff)]);
      if (to > 0xffff) ranges.push([0xd800, 0xdbff]);
      return ranges;
    }
    if (expr instanceof P.Apply) {
      const key = expr.toMemoKey() as string;
      let known = firstMemo.get(key);
      if (known === undefined) {
        // A rule reached again while its own set is computed (recursion): assume anything.
        firstMemo.set(key, ALL);
        const rule = grammar.rules[expr.ruleName as string] as RuleInfo;
        known = first(rule.body.substituteParams(expr.args), isSyntactic(expr.ruleName as string));
        firstMemo.set(key, known);
      }
      return [...spaces, ...known];
    }
    if (expr instanceof P.Lex) return first(expr.expr, false);
    if (expr instanceof P.Seq) {
      const ranges: Ranges = [];
      for (const factor of expr.factors as PExpr[]) {
        ranges.push(...first(factor, syntactic));
        if (!nullable(factor)) break;
      }
      return ranges;
    }
    if (expr instanceof P.Alt) return (expr.terms as PExpr[]).flatMap((term) => first(term, syntactic));
    if (expr instanceof P.Iter) return first(expr.expr, syntactic);
    if (expr instanceof P.Not || expr instanceof P.Lookahead) return [];
    return ALL;
  }

  /** A test of the code unit in `c` against the first characters of `expr`, or undefined when it would not pay. */
  function firstTest(expr: PExpr, syntactic: boolean, c: string): string | undefined {
    if (nullable(expr)) return undefined;
    const sorted = first(expr, syntactic).sort((a, b) => a[0] - b[0]);
    const merged: Ranges = [];
    for (const [from, to] of sorted) {
      const last = merged[merged.length - 1];
      if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
      else merged.push([from, to]);
    }
    const everything = merged.length === 1 && merged[0]?.[0] === 0 && merged[0]?.[1] === 0xffff;
    if (merged.length === 0 || merged.length > 6 || everything) return undefined;
    return merged.map(([from, to]) => (from === to ? `${c} === ${from}` : `(${c} >= ${from} && ${c} <= ${to})`)).join(' || ');
  }

  /**
   * Binds a node and its offset when building. Ohm keeps bindings on a stack; here each binding of a
   * rule body has a fixed place (its slot: the sum of the arities before it), so bindings are locals
   * and a failed alternative needs no unwinding — the next one overwrites the same slots.
   */
  const push = (ctx: Context, node: string, at: string): string => (ctx.build ? `k${ctx.slot} = ${node}; o${ctx.slot} = ${at} - ${ctx.start};` : '');

  /** The statements that match `expr` (concrete: parameters already substituted), breaking to `ctx.fail` on failure. */
  function compile(expr: PExpr, ctx: Context): string {
    const test = charTest(expr, 'c');
    // A class of characters written as alternatives skips spaces before each; skipping once is the same.
    const skip = ctx.syntactic && (skipsSpace(expr) || test !== undefined) ? 'skipSpaces();\n' : '';
    if (expr === P.any) {
      return `${skip}{ const cp = input.codePointAt(pos); if (cp === undefined) break ${ctx.fail}; const n = cp > 0xffff ? 2 : 1; ${push(ctx, 'T[n]', 'pos')} pos += n; }\n`;
    }
    if (expr === P.end) return `${skip}if (pos < input.length) break ${ctx.fail};\n${push(ctx, 'T[0]', 'pos')}\n`;
    if (test !== undefined) return `${skip}{ const c = input.charCodeAt(pos); if (!(${test})) break ${ctx.fail}; ${push(ctx, 'T[1]', 'pos')} pos += 1; }\n`;
    if (expr instanceof P.Terminal) {
      const text = expr.obj as string;
      const tests = [...text].map((_, index) => `input.charCodeAt(pos${index === 0 ? '' : ` + ${index}`}) !== ${text.charCodeAt(index)}`);
      if (text.length >= 64) throw new Error(`generate-matcher: terminal ${JSON.stringify(text)} is longer than the shared terminal nodes`);
      if (text.length === 0) return `${skip}${push(ctx, 'T[0]', 'pos')}\n`;
      return `${skip}if (${tests.join(' || ')}) break ${ctx.fail};\n${push(ctx, `T[${text.length}]`, 'pos')} pos += ${text.length};\n`;
    }
    if (expr instanceof P.Range) {
      // Code-point mode (a bound beyond U+FFFF).
      const from = (expr.from as string).codePointAt(0) as number;
      const to = (expr.to as string).codePointAt(0) as number;
      return `${skip}{ const cp = input.codePointAt(pos); if (cp === undefined || cp < ${from} || cp > ${to}) break ${ctx.fail}; const n = cp > 0xffff ? 2 : 1; ${push(ctx, 'T[n]', 'pos')} pos += n; }\n`;
    }
    if (expr instanceof P.Apply) {
      // A rule whose body is an optional loop matches nothing when the loop cannot start: decide that
      // here, without the call (most `sp` and `nls` applications).
      const shortcut = emptyShortcut(expr);
      if (ctx.build) {
        const p = fresh('p');
        const x = fresh('x');
        const call = `${functionFor(expr, true)}()`;
        const value = shortcut === undefined ? `${x} = ${call};` : `{ const c = input.charCodeAt(pos); ${x} = ${shortcut.guard} ? ${call} : ${shortcut.node}; }`;
        return `${skip}const ${p} = pos; let ${x}; ${value} if (${x} === null) break ${ctx.fail}; k${ctx.slot} = ${x}; o${ctx.slot} = ${p} - ${ctx.start};\n`;
      }
      if (shortcut !== undefined) return `${skip}{ const c = input.charCodeAt(pos); if ((${shortcut.guard}) && !${functionFor(expr, false)}()) break ${ctx.fail}; }\n`;
      return `${skip}if (!${functionFor(expr, false)}()) break ${ctx.fail};\n`;
    }
    if (expr instanceof P.Lex) return compile(expr.expr, { ...ctx, syntactic: false });
    if (expr instanceof P.Seq) {
      let slot = ctx.slot;
      return (expr.factors as PExpr[])
        .map((factor) => {
          const code = `{\n${compile(factor, { ...ctx, slot })}}\n`;
          slot += factor.getArity() as number;
          return code;
        })
        .join('');
    }
    if (expr instanceof P.Alt) {
      const done = fresh('alt');
      const p = fresh('p');
      const restore = `pos = ${p};\n`;
      const c = fresh('c');
      let out = `${done}: {\nconst ${p} = pos; const ${c} = input.charCodeAt(pos);\n`;
      for (const term of expr.terms as PExpr[]) {
        const label = fresh('t');
        const guard = firstTest(term, ctx.syntactic, c);
        const code = `${label}: {\n${compile(term, { ...ctx, fail: label })}break ${done};\n}\n${restore}`;
        out += guard === undefined ? code : `if (${guard}) {\n${code}}\n`;
      }
      return `${out}break ${ctx.fail};\n}\n`;
    }
    const loopTest = expr instanceof P.Iter && !ctx.syntactic ? charTest(expr.expr, 'c') : undefined;
    if (loopTest !== undefined) {
      // A loop over a class of characters: one test per character, and (when building) one lazy node
      // whose children Ohm would have made one terminal per character.
      const min = expr.minNumMatches as number;
      const max = expr.maxNumMatches as number;
      const p0 = fresh('p');
      let out = `{\nconst ${p0} = pos; let c = input.charCodeAt(pos);\n`;
      out += `while (${max === Infinity ? '' : `pos - ${p0} < ${max} && `}(${loopTest})) { pos += 1; c = input.charCodeAt(pos); }\n`;
      // Characters read count against the budget too: a loop re-read from many starting points
      // (an unclosed `[[` string tried at every `[[`) is the quadratic case, not the rule calls.
      out += `if ((fuel -= pos - ${p0}) < 0) throw BAIL;\n`;
      if (min > 0) out += `if (pos - ${p0} < ${min}) break ${ctx.fail};\n`;
      if (ctx.build) out += `k${ctx.slot} = pos === ${p0} ? ${expr instanceof P.Opt ? 'EMPTY_OPT' : 'EMPTY_ITER'} : new L(${p0} - ${ctx.start}, pos - ${p0}, ${expr instanceof P.Opt}); o${ctx.slot} = ${p0} - ${ctx.start};\n`;
      return `${out}}\n`;
    }
    if (expr instanceof P.Iter) {
      const arity = expr.getArity() as number;
      const min = expr.minNumMatches as number;
      const max = expr.maxNumMatches as number;
      const loop = fresh('loop');
      const body = fresh('it');
      const n = fresh('n');
      const p0 = fresh('p');
      const pi = fresh('p');
      // The body's bindings go to slots of their own, then into the columns.
      const bodySlot = ctx.fn.slots;
      if (ctx.build) ctx.fn.slots += arity;
      const columns = Array.from({ length: arity }, () => [fresh('c'), fresh('q')] as const);
      const guard = firstTest(expr.expr, ctx.syntactic, 'c');
      let out = `{\nconst ${p0} = pos; let ${n} = 0;${ctx.build ? columns.map(([c, q]) => ` let ${c} = NONE, ${q} = NONE;`).join('') : ''}\n`;
      out += `${loop}: while (${max === Infinity ? 'true' : `${n} < ${max}`}) {\n`;
      if (guard !== undefined) out += `{ const c = input.charCodeAt(pos); if (!(${guard})) break; }\n`;
      out += `if (--fuel < 0) throw BAIL;\nconst ${pi} = pos;\n`;
      out += `${body}: {\n${compile(expr.expr, { ...ctx, fail: body, slot: bodySlot })}`;
      // Ohm throws on an iteration that consumes nothing (the grammar check rules it out); hand it back to Ohm.
      out += `if (pos === ${pi}) throw BAIL;\n${n} += 1;\n`;
      if (ctx.build) {
        out += `if (${n} === 1) { ${columns.map(([c, q], index) => `${c} = [k${bodySlot + index}]; ${q} = [o${bodySlot + index}];`).join(' ')} } else { `;
        out += columns.map(([c, q], index) => `${c}.push(k${bodySlot + index}); ${q}.push(o${bodySlot + index});`).join(' ');
        out += ' }\n';
      }
      out += `continue ${loop};\n}\npos = ${pi};\nbreak;\n}\n`;
      if (min > 0) out += `if (${n} < ${min}) break ${ctx.fail};\n`;
      if (ctx.build && arity > 0) {
        const [, firstOffsets] = columns[0] as readonly [string, string];
        const [lastColumn, lastOffsets] = columns[arity - 1] as readonly [string, string];
        const offset = fresh('o');
        const length = fresh('l');
        out += `let ${offset} = ${p0} - ${ctx.start}, ${length} = 0;\n`;
        out += `if (${n} > 0) { ${offset} = ${firstOffsets}[0]; ${length} = ${lastOffsets}[${n} - 1] + ${lastColumn}[${n} - 1].matchLength - ${offset}; }\n`;
        // An empty iteration node is the same everywhere (its offset is on the stack): share one.
        const empty = expr instanceof P.Opt ? 'EMPTY_OPT' : 'EMPTY_ITER';
        columns.forEach(([c, q], index) => {
          out += `k${ctx.slot + index} = ${n} === 0 ? ${empty} : new N('_iter', ${c}, ${q}, ${length}, ${expr instanceof P.Opt}); o${ctx.slot + index} = ${offset};\n`;
        });
      }
      return `${out}}\n`;
    }
    if (expr instanceof P.Not) {
      const inner = fresh('not');
      const p = fresh('p');
      return `{\nconst ${p} = pos;\n${inner}: {\n${compile(expr.expr, { ...ctx, build: false, fail: inner })}pos = ${p}; break ${ctx.fail};\n}\npos = ${p};\n}\n`;
    }
    if (expr instanceof P.Lookahead) {
      const p = fresh('p');
      return `{\nconst ${p} = pos;\n${compile(expr.expr, ctx)}pos = ${p};\n}\n`;
    }
    throw new Error(`generate-matcher: unsupported parsing expression ${expr.constructor?.name ?? String(expr)} (${String(expr)})`);
  }

  function emitRule(entry: { name: string; app: PExpr; build: boolean }): void {
    const { name, app, build } = entry;
    const rule = grammar.rules[app.ruleName as string];
    if (rule === undefined) throw new Error(`generate-matcher: unknown rule ${app.ruleName}`);
    const body = rule.body.substituteParams(app.args);
    const level = NESTING_LEVEL_RULES.includes(app.ruleName as string);
    const arity = body.getArity() as number;
    const fn = { slots: build ? arity : 0 };
    const ctx: Context = { syntactic: isSyntactic(app.ruleName as string), build, fail: 'fail', start: 'start', slot: 0, fn };
    const code = compile(body, ctx);
    let out = `// ${app.toMemoKey()}${build ? '' : ' (recogniser)'}\nfunction ${name}() {\n`;
    out += `if (--fuel < 0) throw BAIL;\n`;
    if (level) out += `if (depth >= limit) throw BAIL;\ndepth += 1;\n`;
    out += 'const start = pos;\n';
    if (fn.slots > 0) out += `let ${Array.from({ length: fn.slots }, (_, index) => `k${index}, o${index}`).join(', ')};\n`;
    out += `fail: {\n${code}`;
    if (level) out += 'depth -= 1;\n';
    if (build) {
      if (body instanceof P.Iter && (body.minNumMatches as number) === 0) {
        // Matched nothing: the node is the same everywhere (empty iterations at offset 0); share one.
        out += `if (pos === start) return ${emptyNodeFor(app, body)};\n`;
      }
      const take = (prefix: string): string => `[${Array.from({ length: arity }, (_, index) => `${prefix}${index}`).join(', ')}]`;
      out += `return new N(${JSON.stringify(app.ruleName)}, ${take('k')}, ${take('o')}, pos - start, false);\n`;
    } else {
      out += 'return true;\n';
    }
    out += `}\npos = start;\n`;
    if (level) out += 'depth -= 1;\n';
    out += build ? 'return null;\n}\n' : 'return false;\n}\n';
    emitted.push(out);
  }

  const spaces = functionFor(new P.Apply('spaces'), false);
  const starts = START_RULES.map((rule) => [rule, functionFor(new P.Apply(rule), true)] as const);
  while (pending.length > 0) emitRule(pending.shift() as { name: string; app: PExpr; build: boolean });

  const hash = createHash('sha256').update(grammarSource).digest('hex');
  return `${[
    '// Generated by src/grammar/generate-matcher.ts from neuroscript.ohm. Do not edit.',
    '// Regenerate with `pnpm generate:matcher`; a test fails while this file is stale.',
    `// Grammar sha256: ${hash}`,
    '',
    '/** A concrete syntax tree node with the fields of an Ohm 17 node the AST builder reads. */',
    'class N {',
    '  constructor(ctorName, children, childOffsets, matchLength, optional) {',
    '    this.ctorName = ctorName;',
    '    this.children = children;',
    '    this.childOffsets = childOffsets;',
    '    this.matchLength = matchLength;',
    '    this.optional = optional;',
    '  }',
    '  isOptional() {',
    '    return this.optional;',
    '  }',
    '}',
    '/**',
    ' * An iteration over single characters (names, strings, comments): the same node as an `N` of',
    " * `count` one-character terminals, made only when read (the AST builder reads the text instead).",
    ' */',
    'class L {',
    '  constructor(offset, count, optional) {',
    "    this.ctorName = '_iter';",
    '    this.matchLength = count;',
    '    this.optional = optional;',
    '    this.offset = offset;',
    '  }',
    '  get children() {',
    '    return new Array(this.matchLength).fill(T[1]);',
    '  }',
    '  get childOffsets() {',
    '    return Array.from({ length: this.matchLength }, (_, index) => this.offset + index);',
    '  }',
    '  isOptional() {',
    '    return this.optional;',
    '  }',
    '}',
    'const NONE = [];',
    "const EMPTY_ITER = new N('_iter', NONE, NONE, 0, false);",
    "const EMPTY_OPT = new N('_iter', NONE, NONE, 0, true);",
    '/** Terminal nodes are immutable and differ only in length: one per length. */',
    'const T = Array.from({ length: 64 }, (_, length) => new N("_terminal", NONE, NONE, length, false));',
    '/** Thrown to stop matching and let the caller match with Ohm. */',
    'const BAIL = Object.freeze({ bail: true });',
    "let input = '';",
    'let pos = 0;',
    'let fuel = 0;',
    'let depth = 0;',
    'let limit = 0;',
    '',
    `function skipSpaces() {\n${spaces}();\n}`,
    '',
    '/** Rules whose body is an iteration match nothing in many places; each shares one node for that. */',
    ...sharedEmpties,
    '',
    ...emitted,
    '/**',
    ' * Matches `text` from `startRule` as Ohm 17 would. Returns the root node and its offset; `null` when',
    ' * the text does not match; or `undefined` when it gave up: more than `maxCalls` units of work (rule',
    ' * applications, loop iterations, characters read) were needed, or more than `nestingLimit` nesting',
    ' * levels were open at once. The caller then matches with Ohm.',
    ' */',
    'export function matchFast(text, startRule, nestingLimit, maxCalls) {',
    '  input = text; pos = 0; fuel = maxCalls; depth = 0; limit = nestingLimit;',
    '  try {',
    '    let root = null;',
    '    let offset = 0;',
    // Ohm matches \`startRule end\`, skipping spaces before both when the start rule is syntactic.
    ...starts.map(([rule, fn]) => {
      const skip = isSyntactic(rule) ? 'skipSpaces(); ' : '';
      return `    if (startRule === ${JSON.stringify(rule)}) { ${skip}offset = pos; root = ${fn}(); if (root === null) return null; ${skip}}`;
    }),
    '    if (root === null || pos < input.length) return null;',
    '    return { cst: root, offset };',
    '  } catch (error) {',
    '    if (error === BAIL) return undefined;',
    '    throw error;',
    '  } finally {',
    "    input = '';",
    '  }',
    '}',
    '',
    '/** The grammar text this matcher was generated from, as a sha256 hex digest. */',
    `export const GRAMMAR_SHA256 = ${JSON.stringify(hash)};`,
    '',
  ].join('\n')}`;
}

function main(): void {
  const text = generateMatcherSource(readFileSync(GRAMMAR_FILE, 'utf8'));
  if (process.argv.includes('--check')) {
    if (readFileSync(GENERATED_FILE, 'utf8') !== text) {
      console.error(`${GENERATED_FILE} is stale; run pnpm generate:matcher`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(GENERATED_FILE, text);
  console.log(`wrote ${GENERATED_FILE} (${text.length} characters)`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();

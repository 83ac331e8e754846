/**
 * Turns a match of the NeuroScript grammar into our plain AST by walking the
 * concrete syntax tree directly: Ohm 17's, or the generated matcher's, which
 * has the same shape (`match-fast.ts`). (Ohm's semantics wrappers allocate an
 * Interval per node, which cost about a quarter of the parse; the CST has the
 * same shape — `ctorName`, `children`, `childOffsets`, `matchLength` — and is
 * what `getCstRoot()` exposes in Ohm 18.) Nothing returned holds an Ohm object.
 * Child indexes below follow the rule bodies in `src/grammar/neuroscript.ohm`.
 */
import type {
  BinaryOperator,
  CommandBlock,
  Expression,
  FunctionDefinition,
  FunctionReference,
  IndexAccessor,
  FieldAccessor,
  InterpolationPart,
  LValue,
  MapEntry,
  MetadataEntry,
  OnEventStatement,
  Statement,
  TextPart,
  ToolReference,
  UnaryOperator,
} from '../ast/index.ts';
import { MAX_NESTING_DEPTH } from '../ast/index.ts';
import { climbPrecedence } from './climb-precedence.ts';
import type { LineIndex } from './line-index.ts';
import { matchFastOutcome } from './match-fast.ts';
import { matchWithNestingLimit } from './match-with-nesting-limit.ts';
import { type Cst, cstRoot } from './ohm-internals.ts';
import { tooDeepMessage } from './too-deep-message.ts';
import { decodeEscapes, digitsNeeded, splitInterpolation } from './string-literals.ts';
import { dottedHoleProblem } from './syntax-habits.ts';

/** A problem the builder finds in an otherwise matching script. */
export interface BuildProblem {
  readonly code: 'SCRIPT_BAD_ESCAPE' | 'SCRIPT_BAD_INTERPOLATION' | 'SCRIPT_BAD_METADATA' | 'SCRIPT_NESTING_TOO_DEEP' | 'SCRIPT_NUMBER_TOO_LARGE';
  readonly message: string;
  readonly offset: number;
}

/** What the top-level `Program` rule builds. */
export interface BuiltProgram {
  readonly metadata: MetadataEntry[];
  readonly declarations: (FunctionDefinition | OnEventStatement | CommandBlock)[];
}

/** Options for `buildProgram`. */
export interface BuildOptions {
  /**
   * Match `{{…}}` holes with the generated matcher alone, with this budget
   * per character (see `matchFast`); a hole it gives up on makes
   * `buildProgram` answer `undefined` instead of matching the hole with Ohm
   * in this thread, whose cost on a long hole is what `parseIfMatches` keeps
   * out of the host. Unset: Ohm matches such a hole. (A hole that plainly
   * does not match is reported either way, without Ohm.)
   */
  readonly holeCallsPerCharacter?: number;
}

/** Thrown by a match-only build at a hole only Ohm can answer; `buildProgram` catches it. */
const HOLE_NEEDS_OHM = Object.freeze({ holeNeedsOhm: true });

/** One build: the matched text, where it sits in the whole source, and the problems found. */
class Builder {
  readonly text: string;
  readonly base: number;
  readonly lines: LineIndex;
  readonly problems: BuildProblem[];
  readonly holeCallsPerCharacter: number | undefined;

  constructor(text: string, base: number, lines: LineIndex, problems: BuildProblem[], holeCallsPerCharacter: number | undefined) {
    this.text = text;
    this.base = base;
    this.lines = lines;
    this.problems = problems;
    this.holeCallsPerCharacter = holeCallsPerCharacter;
  }

  at(start: number): { line: number; column: number } {
    return this.lines.position(this.base + start);
  }

  source(node: Cst, start: number): string {
    return this.text.slice(start, start + node.matchLength);
  }

  /**
   * The `index`th child and its offset. Offsets of a node's children are
   * relative to the start of the nearest enclosing *nonterminal*, so the
   * number carried with an iteration node is that base (as Ohm's own
   * semantics do), and with any other node its start.
   */
  child(node: Cst, start: number, index: number): [Cst, number] {
    const child = node.children[index] as Cst;
    return [child, child.ctorName === '_iter' ? start : start + (node.childOffsets[index] as number)];
  }

  /** Where the `index`th child of `node` (which starts at `start`) starts; `child` without the pair. */
  startOf(node: Cst, start: number, index: number): number {
    return (node.children[index] as Cst).ctorName === '_iter' ? start : start + (node.childOffsets[index] as number);
  }

  /** Builds each child of an iteration node with `build`. */
  each<T>(node: Cst, base: number, build: (child: Cst, childStart: number) => T): T[] {
    const out: T[] = [];
    for (let index = 0; index < node.children.length; index += 1) {
      const child = node.children[index] as Cst;
      out.push(build(child, child.ctorName === '_iter' ? base : base + (node.childOffsets[index] as number)));
    }
    return out;
  }

  /**
   * The elements of a `ListOf<…>` / `NonemptyListOf<…>` node, or of their
   * lexical forms `listOf<…>` / `nonemptyListOf<…>` (used inside expressions).
   */
  listOf<T>(node: Cst, start: number, build: (child: Cst, childStart: number) => T): T[] {
    let list = node;
    let listStart = start;
    if (list.ctorName === 'ListOf' || list.ctorName === 'listOf') [list, listStart] = this.child(list, listStart, 0);
    if (list.ctorName === 'EmptyListOf' || list.ctorName === 'emptyListOf') return [];
    const [first, firstStart] = this.child(list, listStart, 0);
    const [rest, restStart] = this.child(list, listStart, 2);
    return [build(first, firstStart), ...this.each(rest, restStart, build)];
  }

  /** Builds the node inside an optional `x?` (an iteration of at most one), or null. */
  optional<T>(node: Cst, start: number, build: (child: Cst, childStart: number) => T): T | null {
    return node.children.length === 0 ? null : (this.each(node, start, build)[0] as T);
  }

  program(node: Cst, start: number): BuiltProgram {
    const [header, headerStart] = this.child(node, start, 0);
    const [topLevels, topStart] = this.child(node, start, 1);
    const [headerLines, headerLinesStart] = this.child(header, headerStart, 0);
    const metadata: MetadataEntry[] = [];
    this.each(headerLines, headerLinesStart, (line, lineStart) => {
      if (line.ctorName === 'metadataLine') metadata.push(this.metadataEntry(line, lineStart));
    });
    const declarations = this.each(topLevels, topStart, (topLevel, topLevelStart) => {
      const [declaration, declarationStart] = this.child(...this.child(topLevel, topLevelStart, 0), 0);
      return this.declaration(declaration, declarationStart);
    });
    return { metadata, declarations };
  }

  declaration(node: Cst, start: number): FunctionDefinition | OnEventStatement | CommandBlock {
    if (node.ctorName === 'FunctionDefinition') return this.functionDefinition(node, start);
    if (node.ctorName === 'CommandBlock') {
      return { type: 'CommandBlock', metadata: this.metadataBlock(...this.child(node, start, 2)), body: this.body(...this.child(node, start, 3)), ...this.at(start) };
    }
    return this.statement(node, start) as OnEventStatement;
  }

  functionDefinition(node: Cst, start: number): FunctionDefinition {
    const parameters: Record<'needs' | 'optional' | 'returns', string[]> = { needs: [], optional: [], returns: [] };
    const [signature, signatureStart] = this.child(...this.child(node, start, 2), 0);
    const [clauses, clausesStart] = signature.ctorName === 'Signature_parenthesized' ? this.child(signature, signatureStart, 1) : this.child(signature, signatureStart, 0);
    this.each(clauses, clausesStart, (clause, clauseStart) => {
      const [kind, kindStart] = this.child(clause, clauseStart, 0);
      const key = kind.ctorName.slice('ParameterClause_'.length) as keyof typeof parameters;
      parameters[key].push(...this.listOf(...this.child(kind, kindStart, 1), (name, nameStart) => this.source(name, nameStart)));
    });
    return {
      type: 'FunctionDefinition',
      name: this.source(...this.child(node, start, 1)),
      required: parameters.needs,
      optional: parameters.optional,
      returns: parameters.returns,
      metadata: this.metadataBlock(...this.child(node, start, 5)),
      body: this.body(...this.child(node, start, 6)),
      ...this.at(start),
    };
  }

  metadataBlock(node: Cst, start: number): MetadataEntry[] {
    return this.each(...this.child(node, start, 1), (line, lineStart) => this.metadataEntry(line, lineStart));
  }

  metadataEntry(node: Cst, start: number): MetadataEntry {
    // Reference §1.2: text after `::`, trimmed, cut at `#` then `--`, split at the first `:`.
    let text = this.source(node, start).replace(/^[\t ]*::/, '').trim();
    const hash = text.indexOf('#');
    if (hash !== -1) text = text.slice(0, hash);
    const dashes = text.indexOf('--');
    if (dashes !== -1) text = text.slice(0, dashes);
    const colon = text.indexOf(':');
    const key = (colon === -1 ? text : text.slice(0, colon)).trim();
    const value = colon === -1 ? '' : text.slice(colon + 1).trim();
    if (key === '') {
      this.problems.push({ code: 'SCRIPT_BAD_METADATA', message: 'A metadata line needs a key: write ":: key: value".', offset: this.base + start });
    }
    return { type: 'MetadataEntry', key, value, ...this.at(start) };
  }

  body(node: Cst, start: number): Statement[] {
    // `Body = nl* (Statement nl+)+`: the statements are the first column of the iteration.
    const statements = node.children[1] as Cst;
    const out: Statement[] = [];
    for (let index = 0; index < statements.children.length; index += 1) {
      const statement = statements.children[index] as Cst;
      const statementStart = start + (statements.childOffsets[index] as number);
      out.push(this.statement(statement.children[0] as Cst, this.startOf(statement, statementStart, 0)));
    }
    return out;
  }

  statement(node: Cst, start: number): Statement {
    const position = this.at(start);
    const expression = (index: number): Expression => this.expression(...this.child(node, start, index));
    const optionalExpression = (index: number): Expression | null => this.optional(...this.child(node, start, index), (child, childStart) => this.expression(child, childStart));
    switch (node.ctorName) {
      case 'SetStatement':
        return { type: 'SetStatement', targets: this.listOf(...this.child(node, start, 1), (target, targetStart) => this.lvalue(target, targetStart)), value: expression(3), ...position };
      case 'CallStatement':
        return { type: 'CallStatement', call: this.callExpression(...this.child(node, start, 1)), ...position };
      case 'ReturnStatement':
        return { type: 'ReturnStatement', values: this.listOf(...this.child(node, start, 1), (value, valueStart) => this.expression(value, valueStart)), ...position };
      case 'EmitStatement':
        return { type: 'EmitStatement', value: expression(1), ...position };
      case 'WhisperStatement':
        return { type: 'WhisperStatement', handle: expression(1), value: expression(3), ...position };
      case 'MustStatement':
        return { type: 'MustStatement', condition: expression(1), ...position };
      case 'FailStatement':
        return { type: 'FailStatement', message: optionalExpression(1), ...position };
      case 'ClearErrorStatement':
        return { type: 'ClearErrorStatement', ...position };
      case 'ClearEventStatement': {
        const [form, formStart] = this.child(node, start, 0);
        if (form.ctorName === 'ClearEventStatement_named') {
          return { type: 'ClearEventStatement', event: null, handlerName: this.stringValue(...this.child(form, formStart, 3)), ...position };
        }
        return { type: 'ClearEventStatement', event: this.expression(...this.child(form, formStart, 2)), handlerName: null, ...position };
      }
      case 'AskStatement':
        return {
          type: 'AskStatement',
          agent: expression(1),
          prompt: expression(3),
          options: optionalExpression(5),
          into: this.optional(...this.child(node, start, 7), (target, targetStart) => this.lvalue(target, targetStart)),
          ...position,
        };
      case 'PromptUserStatement':
        return { type: 'PromptUserStatement', prompt: expression(1), into: this.lvalue(...this.child(node, start, 3)), ...position };
      case 'BreakStatement':
        return { type: 'BreakStatement', ...position };
      case 'ContinueStatement':
        return { type: 'ContinueStatement', ...position };
      case 'IfStatement':
        return {
          type: 'IfStatement',
          condition: expression(1),
          consequent: this.body(...this.child(node, start, 3)),
          alternate: this.optional(...this.child(node, start, 4), (elseClause, elseStart) => this.body(...this.child(elseClause, elseStart, 2))),
          ...position,
        };
      case 'WhileStatement':
        return { type: 'WhileStatement', condition: expression(1), body: this.body(...this.child(node, start, 3)), ...position };
      case 'ForEachStatement':
        return { type: 'ForEachStatement', variable: this.source(...this.child(node, start, 2)), collection: expression(4), body: this.body(...this.child(node, start, 6)), ...position };
      case 'OnErrorStatement':
        return { type: 'OnErrorStatement', body: this.body(...this.child(node, start, 4)), ...position };
      case 'OnEventStatement':
        return {
          type: 'OnEventStatement',
          event: expression(2),
          handlerName: this.optional(...this.child(node, start, 3), (name, nameStart) => this.stringValue(...this.child(name, nameStart, 1))),
          binding: this.optional(...this.child(node, start, 4), (binding, bindingStart) => this.source(...this.child(binding, bindingStart, 1))),
          body: this.body(...this.child(node, start, 7)),
          ...position,
        };
      default:
        throw new Error(`build-ast: unexpected statement rule ${node.ctorName}`);
    }
  }

  lvalue(node: Cst, start: number): LValue {
    const accessors = this.each(...this.child(node, start, 1), (accessor, accessorStart): IndexAccessor | FieldAccessor => {
      const [form, formStart] = this.child(accessor, accessorStart, 0);
      if (form.ctorName === 'LValueAccessor_index') {
        return { type: 'IndexAccessor', index: this.expression(...this.child(form, formStart, 2)), ...this.at(formStart) };
      }
      return { type: 'FieldAccessor', name: this.source(...this.child(form, formStart, 1)), ...this.at(formStart) };
    });
    return { type: 'LValue', name: this.source(...this.child(node, start, 0)), accessors, ...this.at(start) };
  }

  /** `expr = operand (binaryOperator sp operand)*`, folded by precedence climbing. */
  expression(node: Cst, start: number): Expression {
    const first = this.operand(node.children[0] as Cst, start + (node.childOffsets[0] as number));
    // Columns of `(binaryOperator sp operand)*`; their offsets are relative to this node's start.
    const operators = node.children[1] as Cst;
    if (operators.children.length === 0) return first;
    const operands = node.children[3] as Cst;
    const operatorList: BinaryOperator[] = [];
    const operandList: Expression[] = [];
    for (let index = 0; index < operators.children.length; index += 1) {
      operatorList.push(this.source(operators.children[index] as Cst, start + (operators.childOffsets[index] as number)) as BinaryOperator);
      operandList.push(this.operand(operands.children[index] as Cst, start + (operands.childOffsets[index] as number)));
    }
    return climbPrecedence(first, operatorList, operandList);
  }

  /** `operand = (prefixOperator sp)* primary sp indexSuffix* ("**" sp operand)?` (the prefix operators are written inline). */
  operand(node: Cst, start: number): Expression {
    // Children 0, 4 and 7 are iterations: their children's offsets are relative to this node's start.
    const primary = node.children[2] as Cst;
    const primaryStart = start + (node.childOffsets[2] as number);
    let operand = this.primary(primary.children[0] as Cst, this.startOf(primary, primaryStart, 0));
    const suffixes = node.children[4] as Cst;
    for (let index = 0; index < suffixes.children.length; index += 1) {
      // `indexSuffix = "[" sp nls expr nls "]" sp`
      const suffix = suffixes.children[index] as Cst;
      const suffixStart = start + (suffixes.childOffsets[index] as number);
      operand = { type: 'IndexExpression', object: operand, index: this.expression(suffix.children[3] as Cst, this.startOf(suffix, suffixStart, 3)), ...this.at(suffixStart) };
    }
    const exponent = node.children[7] as Cst;
    if (exponent.children.length > 0) {
      const right = this.operand(exponent.children[0] as Cst, start + (exponent.childOffsets[0] as number));
      operand = { type: 'BinaryExpression', operator: '**', left: operand, right, line: operand.line, column: operand.column };
    }
    const prefixes = node.children[0] as Cst;
    for (let index = prefixes.children.length - 1; index >= 0; index -= 1) {
      const prefixStart = start + (prefixes.childOffsets[index] as number);
      operand = { type: 'UnaryExpression', operator: this.source(prefixes.children[index] as Cst, prefixStart) as UnaryOperator, argument: operand, ...this.at(prefixStart) };
    }
    return operand;
  }

  primary(node: Cst, start: number): Expression {
    const position = this.at(start);
    switch (node.ctorName) {
      case 'number': {
        const raw = this.source(node, start);
        const value = Number(raw);
        if (!Number.isFinite(value)) {
          // JSON (how the AST reaches the sandbox) has no Infinity; refuse it here, with its position.
          const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
          this.problems.push({ code: 'SCRIPT_NUMBER_TOO_LARGE', message: `Number too large: ${shown} is beyond the largest number a script can hold (about 1.8e308); write a smaller number.`, offset: this.base + start });
          return { type: 'NumberLiteral', value: 0, raw, ...position };
        }
        return { type: 'NumberLiteral', value, raw, ...position };
      }
      case 'quotedString':
        return this.quotedString(node, start);
      case 'doubleBracketString':
        return this.interpolated(node, start, 'doubleBracket', 2);
      case 'primary_variable':
        return { type: 'Identifier', name: this.source(...this.child(node, start, 0)), ...position };
      case 'callExpr':
        return this.callExpression(node, start);
      case 'listLiteral':
        return { type: 'ListLiteral', elements: this.listOf(...this.child(node, start, 3), (element, elementStart) => this.expression(element, elementStart)), ...position };
      case 'mapLiteral':
        return {
          type: 'MapLiteral',
          entries: this.listOf(...this.child(node, start, 3), (entry, entryStart): MapEntry => ({
            type: 'MapEntry',
            key: this.expression(...this.child(entry, entryStart, 0)),
            value: this.expression(...this.child(entry, entryStart, 4)),
            ...this.at(entryStart),
          })),
          ...position,
        };
      case 'placeholder':
        return { type: 'Placeholder', name: this.source(...this.child(node, start, 1)), ...position };
      case 'primary_parenthesized':
        return this.expression(...this.child(node, start, 3));
      case 'primary_true':
        return { type: 'BooleanLiteral', value: true, ...position };
      case 'primary_false':
        return { type: 'BooleanLiteral', value: false, ...position };
      case 'primary_nil':
        return { type: 'NilLiteral', ...position };
      case 'primary_last':
        return { type: 'LastExpression', ...position };
      case 'primary_eval':
        return { type: 'EvalExpression', argument: this.expression(...this.child(node, start, 5)), ...position };
      default:
        throw new Error(`build-ast: unexpected primary rule ${node.ctorName}`);
    }
  }

  callExpression(node: Cst, start: number): Expression & { type: 'CallExpression' } {
    const [callee, calleeStart] = this.child(...this.child(node, start, 0), 0);
    const name = this.source(callee, calleeStart);
    const position = this.at(calleeStart);
    let reference: ToolReference | FunctionReference;
    if (callee.ctorName === 'toolName') {
      const toolName = name.slice('tool.'.length);
      reference = { type: 'ToolReference', name: toolName, canonicalName: `tool.${toolName.toLowerCase()}`, ...position };
    } else {
      reference = { type: 'FunctionReference', name, builtin: callee.ctorName === 'builtinName', ...position };
    }
    // `callExpr = callee sp "(" sp nls listOf<expr, separator> nls ")"`
    return { type: 'CallExpression', callee: reference, arguments: this.listOf(...this.child(node, start, 5), (argument, argumentStart) => this.expression(argument, argumentStart)), ...this.at(start) };
  }

  quotedString(node: Cst, start: number): Expression {
    const raw = this.source(node, start);
    if (raw.startsWith('```')) return this.interpolated(node, start, 'tripleBacktick', 3);
    if (raw.startsWith("'''") && raw.length >= 6) return { type: 'StringLiteral', value: raw.slice(3, -3), style: 'tripleSingle', ...this.at(start) };
    const contentOffset = this.base + start + 1;
    const value = decodeEscapes(raw.slice(1, -1), (bad) => {
      this.problems.push({
        code: 'SCRIPT_BAD_ESCAPE',
        message:
          bad.reason === 'surrogate'
            ? `Escape ${bad.text} is half of a UTF-16 surrogate pair, not a character; write the character itself (e.g. 😀) in the string.`
            : bad.reason === 'digits'
              ? `Escape ${bad.text} needs ${digitsNeeded(bad.text)}; write \\\\ for a literal backslash, or use a raw '''…''' string.`
              : bad.reason === 'bytes'
              ? `The byte escapes ${bad.text} are not UTF-8 text: \\xHH and octal escapes are bytes, and a run of them must spell UTF-8 (\\xc3\\xa9 is é); for a character by its code point write \\uHHHH (\\u00e9 is é), or write the character itself.`
              : `Unknown escape ${bad.text} in a string. Known escapes: \\n \\t \\r \\" \\' \\\\ \\xHH \\uHHHH; write \\\\ for a literal backslash, or use a raw '''…''' string.`,
        offset: contentOffset + bad.offset,
      });
    });
    return { type: 'StringLiteral', value, style: raw.startsWith('"') ? 'double' : 'single', ...this.at(start) };
  }

  interpolated(node: Cst, start: number, style: 'tripleBacktick' | 'doubleBracket', delimiterLength: number): Expression {
    const raw = this.source(node, start);
    const content = raw.slice(delimiterLength, raw.length - delimiterLength);
    const contentOffset = this.base + start + delimiterLength;
    const parts: (TextPart | InterpolationPart)[] = [];
    for (const part of splitInterpolation(content)) {
      const offset = contentOffset + part.offset;
      const position = this.lines.position(offset);
      if (part.kind === 'text') {
        parts.push({ type: 'TextPart', value: part.value, ...position });
      } else if (part.text.toLowerCase() === 'last') {
        parts.push({ type: 'InterpolationPart', expression: { type: 'LastExpression', ...position }, ...position });
      } else {
        const expression = this.hole(part.text, offset);
        if (expression) parts.push({ type: 'InterpolationPart', expression, ...position });
      }
    }
    return { type: 'InterpolatedString', style, parts, ...this.at(start) };
  }

  /** Parses the inside of a `{{…}}` hole as an expression, positioned in the whole source. */
  hole(text: string, offset: number): Expression | undefined {
    // The hole is matched on its own, under the same nesting limit; the tree
    // it joins is measured as a whole after the build.
    // The generated matcher first; Ohm only when it gives up (to tell too deep from unreadable).
    const badHole = (): undefined => {
      this.problems.push({
        code: 'SCRIPT_BAD_INTERPOLATION',
        message:
          dottedHoleProblem(text) ??
          `Cannot read {{${text}}} in a string: a {{…}} hole holds a variable name (like {{name}}), an expression (like {{items[0]}}), or a symbol such as {{@nl}}.`,
        offset,
      });
      return undefined;
    };
    const outcome = matchFastOutcome(text, 'Interpolation', MAX_NESTING_DEPTH + 1, this.holeCallsPerCharacter);
    // A hole's message needs nothing from Ohm: a plain no-match is reported at once (matching each bad
    // hole again with Ohm made 8 KiB of them cost 75–130 ms).
    if (outcome === 'no match') return badHole();
    let matchedRoot: readonly [Cst, number];
    if (outcome === 'gave up') {
      if (this.holeCallsPerCharacter !== undefined) throw HOLE_NEEDS_OHM;
      const matched = matchWithNestingLimit(text, 'Interpolation', MAX_NESTING_DEPTH + 1, (match) => match);
      if (matched.tooDeepAt !== undefined) {
        this.problems.push({ code: 'SCRIPT_NESTING_TOO_DEEP', message: tooDeepMessage(), offset: offset + matched.tooDeepAt });
        return undefined;
      }
      const match = matched.value;
      if (match.failed()) return badHole();
      matchedRoot = cstRoot(match);
    } else {
      matchedRoot = outcome;
    }
    const [root, rootStart] = matchedRoot;
    const nested = new Builder(text, offset, this.lines, this.problems, this.holeCallsPerCharacter);
    return nested.expression(...nested.child(root, rootStart, 0));
  }

  stringValue(node: Cst, start: number): string {
    const expression = this.primary(...this.child(node, start, 0));
    if (expression.type === 'StringLiteral') return expression.value;
    if (expression.type === 'InterpolatedString') return expression.parts.map((part) => (part.type === 'TextPart' ? part.value : '')).join('');
    return '';
  }
}

/**
 * Builds the plain AST pieces of a successful match of `text` (the cleaned
 * source) from its root node and offset: Ohm's (`cstRoot(match)`) or the
 * generated matcher's, which have the same shape. `undefined` only with
 * `holeCallsPerCharacter` set, when a `{{…}}` hole needs Ohm.
 */
export function buildProgram(root: readonly [Cst, number], text: string, lines: LineIndex, options: BuildOptions = {}): { program: BuiltProgram; problems: BuildProblem[] } | undefined {
  const problems: BuildProblem[] = [];
  const builder = new Builder(text, 0, lines, problems, options.holeCallsPerCharacter);
  try {
    return { program: builder.program(root[0], root[1]), problems };
  } catch (error) {
    if (error === HOLE_NEEDS_OHM) return undefined;
    throw error;
  }
}

/**
 * fast-check arbitraries of NeuroScript source: expressions, statements and
 * whole programs in the forms models write (spacing, comments, `\`
 * continuations, every string kind, some bad escapes and holes on purpose).
 * Shared by the matcher's differential test and the further-syntax-errors
 * tests.
 */
import fc from 'fast-check';

/** Space between tokens, a `\` continuation among them. */
export const gap = fc.constantFrom('', ' ', ' ', '  ', '\t', ' \\\n ');
const lineEnd = fc.constantFrom('', '', ' # note', ' -- c', '\t// c');
const tight = fc.constantFrom('', ' ', '\n', ' \n ');
const identifier = fc.constantFrom('a', 'b', 'value_1', 'X', 'items', 'endx', 'note', 'nothing', 'if_', 'last_one', 'tool_x', 'lengths');
const stringLiteral = fc.constantFrom('"a"', '"é😀\\😀"', "'\uffff\ud800'", '```😀{{x}}```', '"x\\n\\"y\\""', "'q'", "'it\\'s'", "'''raw ' text'''", '```t {{x}} {{a[0] + 1}}```', '[[dbl {{ name }}]]', '"{{bad"', '"\\q"', '""', '```{{last}}```');
const prefix = fc.constantFrom('-', 'not ', 'no ', 'some ', '~', 'typeof ', '- -', 'not not ');
const binary = fc.constantFrom('or', 'and', '|', '^', '&', '==', '!=', '<', '>', '<=', '>=', '+', '-', '*', '/', '%', '**');

/** An expression. */
export const expression: fc.Arbitrary<string> = fc.letrec<{ expression: string; primary: string }>((tie) => ({
  primary: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('1', '2.5', '1e3', '0.5E-2', 'true', 'false', 'nil', 'last', '{{ph}}'),
    identifier,
    stringLiteral,
    fc.tuple(fc.constantFrom('f', 'len', 'tool.str.ToUpper', 'tool.a.b.c', 'ln', 'acos'), fc.array(tie('expression'), { maxLength: 3 }), tight).map(([callee, args, space]) => `${callee}(${space}${args.join(`,${space}`)}${space})`),
    fc.tuple(fc.array(tie('expression'), { maxLength: 3 }), tight).map(([items, space]) => `[${space}${items.join(`, ${space}`)}${space}]`),
    fc.tuple(fc.array(fc.tuple(tie('expression'), tie('expression')), { maxLength: 3 }), tight).map(([entries, space]) => `{${space}${entries.map(([key, value]) => `${key}: ${value}`).join(`,${space}`)}${space}}`),
    fc.tuple(tie('expression'), tight).map(([inner, space]) => `(${space}${inner}${space})`),
    tie('expression').map((inner) => `eval(${inner})`),
  ),
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('primary'),
    fc.tuple(prefix, tie('primary')).map(([operator, operand]) => `${operator}${operand}`),
    fc.tuple(tie('primary'), gap, binary, gap, tie('expression')).map(([left, before, operator, after, right]) => (/^[a-z]/.test(operator) ? `${left} ${operator} ${right}` : `${left}${before}${operator}${after}${right}`)),
    fc.tuple(tie('primary'), tie('expression')).map(([object, index]) => `${object}[${index}]`),
  ),
})).expression;

/** A statement, block statements included. */
const statement: fc.Arbitrary<string> = fc.letrec<{ statement: string; body: string }>((tie) => ({
  body: fc.array(fc.tuple(tie('statement'), lineEnd), { minLength: 1, maxLength: 3 }).map((statements) => statements.map(([line, end]) => `  ${line}${end}\n`).join('')),
  statement: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(gap, expression).map(([space, value]) => `emit${space || ' '}${value}`),
    fc.tuple(fc.constantFrom('x', 'a, b', 'x[0]', 'm.k', 'm["k"].j'), gap, expression).map(([target, space, value]) => `set ${target}${space}=${space}${value}`),
    expression.map((value) => `call f(${value})`),
    fc.tuple(expression, tie('body'), fc.option(tie('body'))).map(([condition, consequent, alternate]) => `if ${condition}\n${consequent}${alternate === null ? '' : `else\n${alternate}`}endif`),
    fc.tuple(expression, tie('body')).map(([collection, body]) => `for each item in ${collection}\n${body}endfor`),
    fc.tuple(expression, tie('body')).map(([condition, body]) => `while ${condition}\n${body}endwhile`),
    tie('body').map((body) => `on error do\n${body}endon`),
    fc.constantFrom('break', 'continue', 'clear_error', 'fail', 'return', 'clear event named "n"'),
    expression.map((value) => `must ${value}`),
    expression.map((value) => `return ${value}`),
    fc.tuple(expression, expression).map(([agent, prompt]) => `ask ${agent}, ${prompt} with {} into r`),
    fc.tuple(expression, expression).map(([handle, value]) => `whisper ${handle}, ${value}`),
  ),
})).statement;

/** A command script or a library of one function. */
export const program: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.constantFrom('', ':: title: t\n', '# c\n\n'), fc.array(statement, { minLength: 1, maxLength: 4 })).map(([header, statements]) => `${header}command\n${statements.map((line) => ` ${line}\n`).join('')}endcommand\n`),
  fc.tuple(fc.constantFrom('f', 'main'), fc.constantFrom('', '(needs a, b)', ' needs a returns r', '(optional o)'), fc.array(statement, { minLength: 1, maxLength: 4 })).map(
    ([name, signature, statements]) => `func ${name}${signature} means\n  :: description: d\n${statements.map((line) => `  ${line}\n`).join('')}endfunc\n`,
  ),
);

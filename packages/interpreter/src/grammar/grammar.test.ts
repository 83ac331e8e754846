/**
 * Grammar-only match/no-match tables (no AST), plus a staleness check: the
 * committed bundle must be what `ohm generateBundles` makes of the .ohm file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import grammar from './neuroscript.ohm-bundle.js';

const expressionMatches = [
  '1',
  '1.5e-3',
  '"a"',
  "'a'",
  "'''raw'''",
  '```t {{x}}```',
  '[[raw]]',
  '[[1, 2], [3]]',
  '[]',
  '{}',
  '{"a": 1, b: [2]}',
  'a[0]["k"]',
  'f(1, 2)',
  'tool.str.ToUpper("x")',
  'tool.a.b.c.d()',
  'len(x)',
  'eval("1")',
  'last',
  'nil',
  'not a and b or c',
  'no x',
  'some x',
  '~x',
  'typeof x',
  '-2 ** 2',
  '2 ** -1',
  'a & b == c',
  'a |b ^ c',
  '(\n1 + 2\n)',
  'x--1',
  '{{name}}',
  'FUNC',
  'set_x',
];
const expressionFailures = ['', '1 +', 'm.a', '.5', '5.', '[1,]', '{"a":1,}', 'f(1,)', 'if', 'set', 'a = b', '"unterminated', "'line\nbreak'", 'tool.', 'tool', '1 2', 'a ==', 'x ** ', '(1'];

const programMatches = [
  '',
  '\n\n',
  '# c\n-- c\n// c\n',
  ':: k: v\n',
  'command\n emit 1\nendcommand',
  'command\n emit 1\nendcommand\n\n\ncommand\n emit 2\nendcommand\n',
  'func f means\n return\nendfunc\n',
  'func f(needs a, b optional c returns d) means\n return a\nendfunc\n',
  'func f needs a returns b means\n return a\nendfunc\n',
  'on event "e" named "n" as v do\n emit v\nendon\n',
  'command\n set a, b.c[0] = [1, 2]\nendcommand\n',
  'command\n set x = 1 + \\\n 2\nendcommand\n',
  'command\n if a\n  emit 1\n else\n  emit 2\n endif\nendcommand\n',
  'command\n clear event named "n"\nendcommand\n',
  'command\n ask a, b with c into d\nendcommand\n',
  'command\n::nospace: ok\n emit 1\nendcommand\n',
];
const programFailures = [
  'command\nendcommand\n',
  'command\n # only comment\nendcommand\n',
  'command\n emit 1\n',
  'command\n x = 1\nendcommand\n',
  'Command\n emit 1\nendcommand\n',
  'command\n emit 1 endcommand\n',
  'emit 1\n',
  'func f() means\n return 1\n',
  'command\n if a\n  emit 1\n else if b\n  emit 2\n endif\nendcommand\n',
  'command\n set x = 1 + \\ \n 2\nendcommand\n',
  'command\n for x in y\n  emit x\n endfor\nendcommand\n',
  'command\n emit (1 +\n 2)\nendcommand\n',
];

describe('NeuroScript grammar', () => {
  it.each(expressionMatches)('matches expression %j', (source) => {
    expect(grammar.match(source, 'Interpolation').succeeded()).toBe(true);
  });
  it.each(expressionFailures)('rejects expression %j', (source) => {
    expect(grammar.match(source, 'Interpolation').succeeded()).toBe(false);
  });
  it.each(programMatches)('matches program %j', (source) => {
    expect(grammar.match(source, 'Program').succeeded()).toBe(true);
  });
  it.each(programFailures)('rejects program %j', (source) => {
    expect(grammar.match(source, 'Program').succeeded()).toBe(false);
  });

  it('committed bundle matches the .ohm source (run `pnpm generate:grammar` after editing the grammar)', () => {
    const directory = import.meta.dirname;
    const source = readFileSync(join(directory, 'neuroscript.ohm'), 'utf8');
    const bundle = readFileSync(join(directory, 'neuroscript.ohm-bundle.js'), 'utf8');
    // The bundle embeds the grammar source verbatim (JSON-escaped) in its recipe.
    const start = source.indexOf('NeuroScript {');
    expect(bundle).toContain(JSON.stringify(source.slice(start).trimEnd()).slice(1, -1));
  });
});

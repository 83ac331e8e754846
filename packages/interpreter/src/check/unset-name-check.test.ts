/**
 * `SCRIPT_MAP_KEY_UNSET`: a map key written as a bare name that nothing binds
 * (`{name: "Ada"}`, a JavaScript habit) is refused before the run, where it
 * would read nil and make every such key the same empty text. Names the
 * program or the host binds stay keys by value, as the reference reads them.
 */
import { describe, expect, it } from 'vitest';
import { parse } from '../parse/index.ts';
import { check } from './check.ts';

function diagnosticsOf(source: string, globals?: readonly string[], mode: 'agent' | 'host' = 'host') {
  const parsed = parse(source);
  if (!parsed.ok) throw new Error(`does not parse: ${JSON.stringify(parsed.diagnostics)}`);
  return check(parsed.program, { mode, ...(globals === undefined ? {} : { globals: new Set(globals) }) }).map(({ code, line, column, message }) => ({ code, line, column, message }));
}

describe('map keys written as bare names', () => {
  it('refuses each one nothing binds, at the key, saying to quote it', () => {
    expect(diagnosticsOf('command\n  set person = {name: "Ada", "age": 3, born: 1815}\n  emit person\nendcommand\n', [])).toEqual([
      { code: 'SCRIPT_MAP_KEY_UNSET', line: 2, column: 17, message: `Map key 'name' is a variable that is never set, so the key would be empty text; write the key in quotes: {"name": …}.` },
      { code: 'SCRIPT_MAP_KEY_UNSET', line: 2, column: 40, message: `Map key 'born' is a variable that is never set, so the key would be empty text; write the key in quotes: {"born": …}.` },
    ]);
  });

  it('finds them nested in lists, maps, calls and interpolation holes', () => {
    const source = 'command\n  emit [{"outer": {inner: 1}}]\n  emit len({k: 2})\n  emit ```{{ {hole: 3} }}```\nendcommand\n';
    expect(diagnosticsOf(source, []).map(({ message }) => /'(\w+)'/.exec(message)?.[1])).toEqual(['inner', 'k', 'hole']);
  });

  it('leaves a key whose name the program binds anywhere: set, an unpack, for each, a parameter, into, an on error handler', () => {
    expect(diagnosticsOf('func f(needs p) means\n  return {p: 1}\nendfunc\n', [])).toEqual([]);
    const source = [
      'command',
      '  promptuser "which?" into answer',
      '  emit {answer: 1}',
      '  set a = "x"',
      '  set b, c = ["y", "z"]',
      '  set d["e"] = 1',
      '  for each item in ["i"]',
      '    emit {item: 1}',
      '  endfor',
      '  emit {a: 1, b: 2, c: 3, d: 4}',
      '  on error do',
      '    emit {system_error_code: system_error_message}',
      '    clear_error',
      '  endon',
      'endcommand',
    ].join('\n');
    expect(diagnosticsOf(`${source}\n`, [])).toEqual([]);
  });

  it('leaves the names the host binds, every run\'s `self` too, and checks nothing when the caller does not say what it binds', () => {
    expect(diagnosticsOf('command\n  emit {self: 1}\nendcommand\n', [])).toEqual([]);
    const source = 'command\n  emit {userdata: 1, sid: 2}\nendcommand\n';
    expect(diagnosticsOf(source, ['userdata', 'sid'], 'agent')).toEqual([]);
    expect(diagnosticsOf(source, ['userdata'], 'agent').map(({ code, column }) => ({ code, column }))).toEqual([{ code: 'SCRIPT_MAP_KEY_UNSET', column: 22 }]);
    expect(diagnosticsOf('command\n  emit {name: 1}\nendcommand\n')).toEqual([]);
  });

  it('leaves keys that are quoted, numbers, expressions and {{placeholders}}', () => {
    expect(diagnosticsOf('command\n  set n = "k"\n  emit {"q": 1, 2: 2, n + "x": 3, {{n}}: 4}\nendcommand\n', [])).toEqual([]);
  });
});

describe('other reads of names nothing sets', () => {
  it('warns at each one, naming the closest bound name, and the program may still run', () => {
    const source = 'command\n  set total = 0\n  for each price in [1, 2]\n    set total = total + pirce\n  endfor\n  emit "sum " + totl\nendcommand\n';
    expect(diagnosticsOf(source, [])).toEqual([
      { code: 'SCRIPT_VARIABLE_UNSET', line: 4, column: 25, message: "Variable 'pirce' is never set in this program, so it would read as nil: did you mean 'price'? Otherwise set it before reading it." },
      { code: 'SCRIPT_VARIABLE_UNSET', line: 6, column: 17, message: "Variable 'totl' is never set in this program, so it would read as nil: did you mean 'total'? Otherwise set it before reading it." },
    ]);
    const parsed = parse(source);
    if (!parsed.ok) throw new Error('does not parse');
    expect(check(parsed.program, { mode: 'host', globals: new Set() }).map(({ severity, kind }) => ({ severity, kind }))).toEqual([
      { severity: 'warning', kind: 'check' },
      { severity: 'warning', kind: 'check' },
    ]);
  });

  it('offers no name when none is close, says how to write a word meant as text, and how to keep a {{hole}} as text', () => {
    expect(diagnosticsOf('command\n  emit zebra\n  emit [[Dear {{title}}]]\n  emit {{placeholder}}\nendcommand\n', []).map(({ message }) => message)).toEqual([
      'Variable \'zebra\' is never set in this program, so it would read as nil: set it before reading it, or fix the name; if you meant the text zebra, quote it: "zebra".',
      "Variable 'title' is never set in this program, so it would read as nil: set it before reading it, or fix the name; to keep {{title}} as text, write the string as '''…''', which has no holes.",
      "Variable 'placeholder' is never set in this program, so it would read as nil: set it before reading it, or fix the name; to write {{placeholder}} as text, put it in a '''…''' string.",
    ]);
  });

  it('looks for a meant name for the first 20 different unset names only, each once', () => {
    const sets = Array.from({ length: 25 }, (_, index) => `  set value_${index} = ${index}`).join('\n');
    const reads = Array.from({ length: 25 }, (_, index) => `  emit valeu_${index}\n  emit valeu_${index}`).join('\n');
    const messages = diagnosticsOf(`command\n${sets}\n${reads}\nendcommand\n`, []).map(({ message }) => message);
    expect(messages).toHaveLength(50);
    expect(messages.filter((message) => message.includes('did you mean'))).toHaveLength(40);
    expect(messages[0]).toContain("did you mean 'value_0'?");
    expect(messages[49]).toBe('Variable \'valeu_24\' is never set in this program, so it would read as nil: set it before reading it, or fix the name; if you meant the text valeu_24, quote it: "valeu_24".');
  });

  it('suggests a global the host binds, and leaves globals, bound names and an unknowing caller alone', () => {
    expect(diagnosticsOf('command\n  emit userdat["task"]\nendcommand\n', ['userdata'], 'agent').map(({ message }) => /did you mean '(\w+)'/.exec(message)?.[1])).toEqual(['userdata']);
    expect(diagnosticsOf('command\n  emit userdata["task"] + self + sid\n  emit typeof(later)\n  set later = 1\nendcommand\n', ['userdata', 'sid'], 'agent')).toEqual([]);
    expect(diagnosticsOf('command\n  emit never_set\nendcommand\n')).toEqual([]);
  });
});

describe('a word meant as text (`emit hello`)', () => {
  it('says to quote it when no bound name is close, and not when one is (a typo) or in a function (a missing argument)', () => {
    const [alone, typo] = diagnosticsOf('command\n  emit hello\n  set words = 1\n  emit wrods\nendcommand\n', []).map(({ message }) => message);
    expect(alone).toBe('Variable \'hello\' is never set in this program, so it would read as nil: set it before reading it, or fix the name; if you meant the text hello, quote it: "hello".');
    expect(typo).not.toContain('quote');
    expect(diagnosticsOf('func f() means\n  return hello\nendfunc\n', []).map(({ message }) => message)[0]).not.toContain('quote');
  });
});

describe("a turn's globals in a run that lacks them", () => {
  it("says the run was given no such global, rather than 'set it'", () => {
    expect(diagnosticsOf('command\n  emit userdata["subject"] + sid\nendcommand\n', []).map(({ message }) => message)).toEqual([
      "Variable 'userdata' is not bound in this run: an agent's turn binds userdata, sid and turn_index, but this run was given no global named 'userdata'; give the run that global, or run the program as an agent's turn.",
      "Variable 'sid' is not bound in this run: an agent's turn binds userdata, sid and turn_index, but this run was given no global named 'sid'; give the run that global, or run the program as an agent's turn.",
    ]);
  });
});

describe('the fix an unset name is given', () => {
  it("names nil, true and false for other languages' words, the handler for its variables, and the argument for a function's read", () => {
    const messages = diagnosticsOf('command\n  emit [null, None, True, False, undefined]\n  emit system_error_message\nendcommand\n', []).map(({ message }) => message.replace(/^Variable '(\w+)' is never set in this program, so it would read as nil: /, '$1: '));
    expect(messages).toEqual([
      'null: did you mean nil? NeuroScript writes nil, true and false.',
      'None: did you mean nil? NeuroScript writes nil, true and false.',
      'True: did you mean true? NeuroScript writes nil, true and false.',
      'False: did you mean false? NeuroScript writes nil, true and false.',
      'undefined: did you mean nil? NeuroScript writes nil, true and false.',
      "system_error_message: it is set only while an 'on error' handler runs: read it inside one.",
    ]);
    const library = diagnosticsOf('func total(needs items) means\n  return len(items) + offset\nendfunc\n', []);
    expect(library.map(({ message }) => message)).toEqual([
      "Variable 'offset' is never set in this program, so it would read as nil: set it before reading it, or fix the name; a function sees only its parameters, its own variables and the globals: pass the value in as an argument.",
    ]);
  });
});

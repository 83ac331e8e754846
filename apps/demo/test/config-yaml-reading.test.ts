/**
 * What the YAML parser reads from askloop.config.yaml other than what was
 * written, which used to pass in silence:
 *
 * - a tag it does not know (`!!flaot 1`, `!!foo x`, `!custom hello`) or one
 *   its value does not fit (`!!float 1`, `!!bool yes`): the parser only
 *   warned, and the value became text ("1"); every parser warning (a
 *   directive, an anchor ending in `:` too) is now CONFIG_SYNTAX at its place;
 * - a key that is a list or a map (`? [a, b]`): made into text ("[ a, b ]"),
 *   with a warning Node printed on standard error; now CONFIG_INVALID at the key;
 * - a whole number beyond Number.MAX_SAFE_INTEGER (an id, a port): read as
 *   the nearest double (12345678901234567890 → 12345678901234567000); now
 *   CONFIG_INVALID at its line, saying to quote it or use a smaller number.
 *
 * Each through `parseConfig` (the message, code and place) and through the
 * CLI (what the user sees and the exit code).
 */
import { join } from 'node:path';
import { YAML_READ_OPTIONS } from '@askloop/controller';
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.ts';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { configError } from './config-error.ts';
import { spawnCli } from './spawn-cli.ts';
import { tempFolders } from './temp-folder.ts';

const folder = tempFolders('config-yaml-reading');

/** How the fix of an unknown tag ends: drop it, or a tag the file's YAML reads. */
const DROP = 'drop it (a value\'s form gives its type: 8 is a whole number, 1.5 a number, true a boolean, "8" text) or use a tag YAML 1.2 reads: !!str, !!int, !!float, !!bool, !!null';

/** The end of the message of a whole number too large to read exactly. */
const TOO_LARGE = 'is too large a whole number to be read exactly (whole numbers are exact up to 9007199254740991, either side of zero)';

/** A config with one plugin entry whose options are `options` (a flow map, on line 3 from column 14). */
const withOptions = (options: string): string => `plugins:\n  - package: ./p.mjs\n    options: ${options}\n`;

/** Runs `fn` and returns the process warnings Node emitted meanwhile (they are emitted on the next tick). */
async function processWarnings(fn: () => void): Promise<string[]> {
  const seen: string[] = [];
  const listen = (warning: Error) => seen.push(warning.message);
  process.on('warning', listen);
  try {
    fn();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listen);
  }
  return seen;
}

describe('what the YAML parser gives, under the options parseConfig uses (the premise of the checks below)', () => {
  const read = (text: string) => {
    const lineCounter = new LineCounter();
    const document = parseDocument(text, { lineCounter, ...YAML_READ_OPTIONS });
    return { value: document.toJS() as Record<string, unknown>, warnings: document.warnings.map((warning) => warning.code), errors: document.errors.length };
  };

  it.each([
    ['!!flaot 1', '1'],
    ['!!foo x', 'x'],
    ['!custom hello', 'hello'],
    // The YAML 1.2 core schema reads a !!float only with a point or an exponent.
    ['!!float 1', '1'],
    ['!!bool yes', 'yes'],
  ])('%s: a warning, not an error, and the text as written', (value, text) => {
    expect(read(`v: ${value}`)).toEqual({ value: { v: text }, warnings: ['TAG_RESOLVE_FAILED'], errors: 0 });
  });

  it('a key that is a list: made into text, with a warning from Node', async () => {
    let value: unknown;
    expect(await processWarnings(() => (value = read('? [a, b]\n: x\n').value))).toEqual([expect.stringContaining('Keys with collection values will be stringified')]);
    expect(value).toEqual({ '[ a, b ]': 'x' });
  });

  it('a whole number past 2^53: the nearest double, no warning', () => {
    expect(read('v: 12345678901234567890')).toEqual({ value: { v: 12345678901234567000 }, warnings: [], errors: 0 });
  });
});

describe('a tag the parser does not know, or one its value does not fit: CONFIG_SYNTAX at the tag', () => {
  it.each([
    ['a misspelt tag', 'ceilings:\n  maxTurns: !!flaot 8\n', 2, 13, `ceilings.maxTurns: unknown tag !!flaot (did you mean !!float?); ${DROP}`],
    ['a tag YAML has not', 'agents:\n  a:\n    model: scripted:x\n    instructions: !!foo x\n', 4, 19, `agents.a.instructions: unknown tag !!foo; ${DROP}`],
    ['a local tag', withOptions('{ greeting: !custom hello }'), 3, 26, `plugins[0].options.greeting: unknown tag !custom; ${DROP}`],
    ['a local tag meant as a YAML one', withOptions('{ ratio: !float 1.5 }'), 3, 23, `plugins[0].options.ratio: unknown tag !float (did you mean !!float?); ${DROP}`],
    ['a tag by its full name', withOptions('{ id: !<tag:example.com:id> 7 }'), 3, 20, `plugins[0].options.id: unknown tag !<tag:example.com:id>; ${DROP}`],
    ['an unknown tag on a map', 'quotas: !!foo\n  fuel: 100\n', 1, 9, `quotas: unknown tag !!foo; ${DROP}`],
    ['an unknown tag on a key', withOptions('{ !!foo a: 1 }'), 3, 16, `plugins[0].options.a: unknown tag !!foo; ${DROP}`],
    ['an unknown tag before an anchor and a comment', 'quotas: !!foo &q # the defaults\n  fuel: 100\n', 1, 9, `quotas: unknown tag !!foo; ${DROP}`],
  ])('%s', (_label, text, line, column, message) => {
    expect(configError(text)).toMatchObject({ code: 'CONFIG_SYNTAX', file: 'askloop.config.yaml', line, column, message });
  });

  it.each([
    ['!!float 1', 'ratio', '!!float does not fit this value: a !!float is a number with a point or an exponent (1.0, 2.5e3); write the value so, or drop the tag'],
    ['!!int 1.5', 'count', '!!int does not fit this value: a !!int is a whole number (42, -7, 0x2A); write the value so, or drop the tag'],
    ['!!bool yes', 'flag', '!!bool does not fit this value: a !!bool is true or false; write the value so, or drop the tag'],
    ['!!null x', 'none', '!!null does not fit this value: a !!null is null, ~ or nothing; write the value so, or drop the tag'],
    ['!!str [a]', 'name', '!!str is for a single value, not a list; drop the tag'],
    ['!!map [a]', 'table', '!!map is for a map, not a list; drop the tag'],
    ['!!seq { a: 1 }', 'list', '!!seq is for a list, not a map; drop the tag'],
    ['!!set [a]', 'set', '!!set is for a map, not a list; drop the tag'],
    ['!!binary [a]', 'data', '!!binary is for a single value, not a list; drop the tag'],
  ])('a tag its value does not fit: %s', (value, key, message) => {
    expect(configError(withOptions(`{ ${key}: ${value} }`))).toMatchObject({ code: 'CONFIG_SYNTAX', line: 3, column: 18 + key.length, message: `plugins[0].options.${key}: ${message}` });
  });

  it('every such tag of the file, in one error', () => {
    const error = configError('ceilings:\n  maxTurns: !!flaot 8\nquotas:\n  fuel: !!int lots\n  wallMs: !!foo 100\n');
    expect(error).toMatchObject({ code: 'CONFIG_SYNTAX', line: 2, column: 13 });
    expect(error.message).toBe(
      [
        `ceilings.maxTurns: unknown tag !!flaot (did you mean !!float?); ${DROP} (3 problems in the file; the others below)`,
        'askloop.config.yaml:4:9: quotas.fuel: !!int does not fit this value: a !!int is a whole number (42, -7, 0x2A); write the value so, or drop the tag',
        `askloop.config.yaml:5:11: quotas.wallMs: unknown tag !!foo; ${DROP}`,
      ].join('\n'),
    );
  });

  it('under %YAML 1.1 the fix names that version', () => {
    const error = configError('%YAML 1.1\n---\nceilings:\n  maxTurns: !!flaot 8\n');
    expect(error).toMatchObject({ code: 'CONFIG_SYNTAX', line: 4, column: 13, message: `ceilings.maxTurns: unknown tag !!flaot (did you mean !!float?); ${DROP.replace('YAML 1.2', 'YAML 1.1')}` });
  });

  it.each([
    ['an unknown directive', '%FOO bar\n---\nquotas: { fuel: 100 }\n', 1, 1, 'unknown directive %FOO; YAML has %YAML and %TAG: remove the line'],
    ['a YAML version the parser does not read', '%YAML 1.3\n---\nquotas: { fuel: 100 }\n', 1, 7, '%YAML 1.3 is not a version askloop reads; write %YAML 1.2, or remove the line'],
    ['an anchor ending in a colon', 'quotas: &q: { fuel: 100 }\n', 1, 11, "the anchor &q: ends in ':', which YAML takes as part of its name; remove the ':' or put a space before it"],
    ['an alias ending in a colon', 'quotas: &q { fuel: 100 }\nceilings: *q:\n', 2, 13, "the alias *q: ends in ':', which YAML takes as part of its name; remove the ':' or put a space before it"],
  ])('any other parser warning: %s', (_label, text, line, column, message) => {
    expect(configError(text)).toMatchObject({ code: 'CONFIG_SYNTAX', line, column, message });
  });

  it('the tags the fix names are read, under YAML 1.2 and 1.1, as are a tag by its full name and the non-specific !', () => {
    // No key is y or n: YAML 1.1 reads those as booleans.
    const options = '{ s: !!str 8, i: !!int "8", f: !!float 1.5, b: !!bool true, nothing: !!null "", m: !!map { a: 1 }, l: !!seq [1], full: !<tag:yaml.org,2002:str> 8, plain: ! 8 }';
    const expected = { s: '8', i: 8, f: 1.5, b: true, nothing: null, m: { a: 1 }, l: [1], full: '8', plain: '8' };
    expect(parseConfig(withOptions(options), { file: '/project/askloop.config.yaml' }).plugins[0]?.options).toEqual(expected);
    expect(parseConfig(`%YAML 1.1\n---\n${withOptions(options)}`, { file: '/project/askloop.config.yaml' }).plugins[0]?.options).toEqual(expected);
  });
});

describe('a key that is a list or a map: CONFIG_INVALID at the key, and no warning from Node', () => {
  const LIST = "a key that is a list; the file's keys are names: write the name as text (in quotes if it holds [ ] { } or a comma), or put the list after a key (name: [a, b])";
  const MAP = "a key that is a map; the file's keys are names: write the name as text (in quotes if it holds [ ] { } or a comma), or put the map after a key (name: { a: 1 })";

  it.each([
    ['a list as an agent name', 'agents:\n  ? [a, b]\n  : { model: scripted:x }\n', 2, 5, `agents: ${LIST}`],
    ['a map at the top', '{ a: 1 }: x\n', 1, 1, `(top level): ${MAP}`],
    ['a list in a flow map', withOptions('{ [a, b]: x }'), 3, 16, `plugins[0].options: ${LIST}`],
    ['an alias of a list', 'plugins:\n  - package: ./p.mjs\n    options:\n      list: &l [a]\n      ? *l\n      : x\n', 5, 9, `plugins[0].options: ${LIST}`],
  ])('%s', async (_label, text, line, column, message) => {
    let error: unknown;
    expect(await processWarnings(() => (error = configError(text)))).toEqual([]);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', line, column, message });
  });
});

describe('a whole number beyond Number.MAX_SAFE_INTEGER: CONFIG_INVALID at its line', () => {
  it.each([
    ['an id in plugin options', withOptions('{ id: 12345678901234567890 }'), 3, 20, `plugins[0].options.id: 12345678901234567890 ${TOO_LARGE}: it would be read as 12345678901234567000; quote it ("12345678901234567890") if it is an identifier, or use a smaller number`],
    ['2^53 + 1', withOptions('{ id: 9007199254740993 }'), 3, 20, `plugins[0].options.id: 9007199254740993 ${TOO_LARGE}: it would be read as 9007199254740992; quote it ("9007199254740993") if it is an identifier, or use a smaller number`],
    ['a negative one', withOptions('{ id: -9007199254740993 }'), 3, 20, `plugins[0].options.id: -9007199254740993 ${TOO_LARGE}: it would be read as -9007199254740992; quote it ("-9007199254740993") if it is an identifier, or use a smaller number`],
    ['a hexadecimal one', withOptions('{ mask: 0x20000000000001 }'), 3, 22, `plugins[0].options.mask: 0x20000000000001 ${TOO_LARGE}: it would be read as 9007199254740992; quote it ("0x20000000000001") if it is an identifier, or use a smaller number`],
    ['one tagged !!int', withOptions('{ id: !!int "9007199254740993" }'), 3, 26, `plugins[0].options.id: 9007199254740993 ${TOO_LARGE}: it would be read as 9007199254740992; quote it ("9007199254740993") if it is an identifier, or use a smaller number`],
    ['a key', withOptions('{ 9007199254740993: x }'), 3, 16, `plugins[0].options: the key 9007199254740993 ${TOO_LARGE}: it would be read as 9007199254740992; quote it ("9007199254740993") if it is an identifier, or use a smaller number`],
    // It said "expected a whole number ≥ 1, got number 9007199254740992": not the number written.
    ['an agent ceiling', 'ceilings:\n  tokens: 9007199254740993\n', 2, 11, `ceilings.tokens: 9007199254740993 ${TOO_LARGE}: it would be read as 9007199254740992; quote it ("9007199254740993") if it is an identifier, or use a smaller number`],
  ])('%s', (_label, text, line, column, message) => {
    expect(configError(text)).toMatchObject({ code: 'CONFIG_INVALID', line, column, message });
  });

  it('every such number, in one error', () => {
    const error = configError(withOptions('{ a: 9007199254740993, b: 1, c: 9007199254740994 }'));
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', line: 3, column: 19 });
    expect(error.message).toContain('(2 problems in the file; the others below)\naskloop.config.yaml:3:46: plugins[0].options.c: 9007199254740994 ');
  });

  it('passes the largest exact ones, a number written as a float, and a large id in quotes', () => {
    const options = '{ max: 9007199254740991, min: -9007199254740991, float: 1.5e300, id: "12345678901234567890" }';
    expect(parseConfig(withOptions(options), { file: '/project/askloop.config.yaml' }).plugins[0]?.options).toEqual({ max: 9007199254740991, min: -9007199254740991, float: 1.5e300, id: '12345678901234567890' });
  });
});

describe('through the CLI: the message at FILE:LINE:COLUMN with its code, exit 1', () => {
  it.each([
    ['an unknown tag', 'ceilings:\n  maxTurns: !!flaot 8\n', `2:13: ceilings.maxTurns: unknown tag !!flaot (did you mean !!float?); ${DROP} (CONFIG_SYNTAX)`],
    ['a tag its value does not fit', 'ceilings:\n  maxTurns: !!float 8\n', '2:13: ceilings.maxTurns: !!float does not fit this value: a !!float is a number with a point or an exponent (1.0, 2.5e3); write the value so, or drop the tag (CONFIG_SYNTAX)'],
    ['a list as a key', 'agents:\n  ? [a, b]\n  : { model: scripted:x }\n', "2:5: agents: a key that is a list; the file's keys are names: write the name as text (in quotes if it holds [ ] { } or a comma), or put the list after a key (name: [a, b]) (CONFIG_INVALID)"],
    ['a number too large', withOptions('{ id: 12345678901234567890 }'), `3:20: plugins[0].options.id: 12345678901234567890 ${TOO_LARGE}: it would be read as 12345678901234567000; quote it ("12345678901234567890") if it is an identifier, or use a smaller number (CONFIG_INVALID)`],
  ])('askloop sessions with %s in ./askloop.config.yaml', async (_label, config, printed) => {
    const dir = folder({ 'askloop.config.yaml': config });
    const io = captureIo({ cwd: dir });
    expect(await main(['sessions'], io)).toBe(1);
    expect(io.err).toBe(`askloop: ${join(dir, 'askloop.config.yaml')}:${printed}\n`);
    expect(io.out).toBe('');
  });

  it('--json: the code, message and place as fields', async () => {
    const dir = folder({ 'askloop.config.yaml': withOptions('{ greeting: !custom hello }') });
    const io = captureIo({ cwd: dir });
    expect(await main(['ns', 'tools', '--config', 'askloop.config.yaml', '--json'], io)).toBe(1);
    expect(JSON.parse(io.out).error).toEqual({ code: 'CONFIG_SYNTAX', message: `plugins[0].options.greeting: unknown tag !custom; ${DROP}`, file: join(dir, 'askloop.config.yaml'), line: 3, column: 26 });
  });

  it('the real process prints the one error line, and no warning of Node, for a list as a key', async () => {
    const dir = folder({ 'askloop.config.yaml': 'agents:\n  ? [a, b]\n  : { model: scripted:x }\n' });
    const run = await spawnCli(['sessions'], { cwd: dir, nodeWarnings: true });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`askloop: ${join(dir, 'askloop.config.yaml')}:2:5: agents: a key that is a list; the file's keys are names: write the name as text (in quotes if it holds [ ] { } or a comma), or put the list after a key (name: [a, b]) (CONFIG_INVALID)\n`);
  });
});

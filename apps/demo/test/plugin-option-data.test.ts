/**
 * A plugin factory is handed plain data as its options. What the config's
 * YAML parser (the real one, as `parseConfig` runs it) makes of tags that are
 * not plain data — `!!binary` a Buffer, `!!timestamp` a Date, `!!set` a Set,
 * `!!omap` a Map, `.inf`/`.nan` numbers JSON has not, an alias inside its own
 * anchor a value that holds itself — used to reach the factory as it was.
 * Each is refused (CONFIG_INVALID) at its line, by its path in the options,
 * saying what it was and what to write instead; what the parser turns into
 * plain data (an unquoted date, `!!pairs`) still passes. (An unknown tag,
 * which the parser only warns about, is refused: config-yaml-reading.test.ts.)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfigPlugins, parseConfig, type AskLoopConfig } from '../src/config/index.ts';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { configError } from './config-error.ts';
import { tempFolders } from './temp-folder.ts';

const folder = tempFolders('plugin-option-data');

/** A config whose one plugin entry has `value` at `options.key.sub` (line 5, from column 14; an error points at the value past its tag). */
const nested = (value: string): string => `plugins:\n  - package: ./p.mjs\n    options:\n      key:\n        sub: ${value}\n`;

/** A plugin whose factory leaves a file `ran` beside it when it is called. */
const RECORDS_A_RUN = "import { writeFileSync } from 'node:fs';\nexport default function p() { writeFileSync(new URL('./ran', import.meta.url), ''); return { name: 'p', specificationVersion: 'v1' }; }\n";

const PLAIN = "a plugin's options are plain data (text, numbers, true or false, null, lists and maps)";

describe('what the YAML parser gives for tags that are not plain data', () => {
  // The parser itself, as parseConfig calls it: the premise of the checks below.
  it.each([
    ['!!binary aGVsbG8=', Uint8Array],
    ['!!timestamp 2001-12-14', Date],
    ['!!set { a, b }', Set],
    ['!!omap [ { a: 1 }, { b: 2 } ]', Map],
  ])('%s gives a %o', (value, type) => {
    expect(parseDocument(`v: ${value}`, { version: '1.2' }).toJS().v).toBeInstanceOf(type);
  });
});

describe('plugin options that are not plain data: CONFIG_INVALID at the value, by its path in the options', () => {
  it.each([
    ['!!binary aGVsbG8=', 'binary data (a !!binary value)', 'write it as text in quotes without the !!binary tag (base64, say) if the plugin takes text there'],
    ['!!timestamp 2001-12-14', 'a date (a !!timestamp value)', 'write it as text in quotes without the !!timestamp tag, e.g. "2001-12-14"'],
    ['!!set { a, b }', 'a set (a !!set value)', 'write it as a list without the !!set tag: [a, b]'],
    ['!!omap [ { a: 1 }, { b: 2 } ]', 'an ordered map (a !!omap value)', 'write it as a map without the !!omap tag ({ a: 1, b: 2 }), or as a list of maps ([{ a: 1 }, { b: 2 }]) where the order matters'],
    ['.inf', 'a number that is not finite (.inf)', "write a finite number, or text in quotes ('.inf') if the plugin takes text there"],
    ['-.inf', 'a number that is not finite (-.inf)', "write a finite number, or text in quotes ('.inf') if the plugin takes text there"],
    ['.nan', 'a number that is not finite (.nan)', "write a finite number, or text in quotes ('.inf') if the plugin takes text there"],
  ])('%s', (value, kind, fix) => {
    const error = configError(nested(value));
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', line: 5 });
    expect(error.message).toBe(`plugins[0].options.key.sub: ${kind}; ${PLAIN}: ${fix}`);
  });

  it('an alias inside its own anchor: a value that holds itself', () => {
    const error = configError('plugins:\n  - package: ./p.mjs\n    options:\n      list: &loop [ 1, *loop ]\n');
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', line: 4, column: 24 });
    expect(error.message).toBe(`plugins[0].options.list[1]: a value that holds itself (an alias *NAME inside its own anchor &NAME); ${PLAIN}: write the data out without the alias`);
  });

  it('the options themselves tagged: what they are, not "expected a map, got a map"', () => {
    const error = configError('plugins:\n  - package: ./p.mjs\n    options: !!omap [ { a: 1 } ]\n');
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', line: 3, column: 21 });
    expect(error.message).toBe(`plugins[0].options: an ordered map (a !!omap value); ${PLAIN}: write it as a map without the !!omap tag ({ a: 1, b: 2 }), or as a list of maps ([{ a: 1 }, { b: 2 }]) where the order matters`);
  });

  it('every such value of every entry, in one error with the file\'s other problems', () => {
    const text = 'plugins:\n  - package: ./p.mjs\n    options: { when: !!timestamp 2001-12-14, ok: 1 }\n  - package: ./q.mjs\n    options: { data: [ 1, !!binary aGk= ] }\n  - pakage: ./r.mjs\n';
    const error = configError(text);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', line: 3, column: 34 });
    expect(error.message).toContain('plugins[0].options.when: a date (a !!timestamp value)');
    expect(error.message).toContain('(3 problems in the file; the others below)');
    expect(error.message).toContain('\naskloop.config.yaml:5:36: plugins[1].options.data[1]: binary data (a !!binary value)');
    expect(error.message).toContain("\naskloop.config.yaml:6:5: plugins[2].pakage: unknown key 'pakage'");
  });

  it('askloop ns tools --config prints it at its line with its code, and loads no plugin', async () => {
    const dir = folder({ 'askloop.config.yaml': nested('!!binary aGVsbG8='), 'p.mjs': RECORDS_A_RUN });
    const io = captureIo({ cwd: dir });
    expect(await main(['ns', 'tools', '--config', 'askloop.config.yaml'], io)).toBe(1);
    expect(io.err).toBe(`askloop: ${join(dir, 'askloop.config.yaml')}:5:23: plugins[0].options.key.sub: binary data (a !!binary value); ${PLAIN}: write it as text in quotes without the !!binary tag (base64, say) if the plugin takes text there (CONFIG_INVALID)\n`);
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });
});

describe('plugin options the parser turns into plain data: passed on', () => {
  it.each([
    ['an unquoted date (text in YAML 1.2)', '2001-12-14', '2001-12-14'],
    ['!!str', '!!str 2001-12-14', '2001-12-14'],
    ['!!pairs (a list of maps)', '!!pairs [ { a: 1 }, { a: 2 } ]', [{ a: 1 }, { a: 2 }]],
    ['.inf in quotes', "'.inf'", '.inf'],
    ['a repeated alias', '[ &one { a: 1 }, *one ]', [{ a: 1 }, { a: 1 }]],
  ])('%s', (_label, value, expected) => {
    const config = parseConfig(nested(value), { file: '/project/askloop.config.yaml' });
    expect(config.plugins[0]?.options).toEqual({ key: { sub: expected } });
  });
});

describe('loadConfigPlugins, the one path that calls factories', () => {
  it('refuses options that are not plain data in a config made in code, at the entry, before the factory runs', async () => {
    const dir = folder({ 'p.mjs': RECORDS_A_RUN });
    const parsed = parseConfig('plugins:\n  - package: ./p.mjs\n    options: { when: x }\n', { file: join(dir, 'askloop.config.yaml') });
    const config: AskLoopConfig = { ...parsed, plugins: [{ ...parsed.plugins[0]!, options: { when: new Date(0) } }] };
    await expect(loadConfigPlugins(config)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      line: 2,
      column: 5,
      message: `plugins[0].options.when: a date (a !!timestamp value); ${PLAIN}: write it as text in quotes without the !!timestamp tag, e.g. "2001-12-14"`,
    });
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });
});

/**
 * A plugin factory that throws: its message is what the CLI shows at the
 * entry's line, so a secret in it (a token the factory read from the
 * variable its options name, and echoes) is scrubbed by the CLI's one
 * redaction (`createSecretRedactor`) before it reaches the error — the rest
 * of the message kept; and a value thrown that is not an Error (a string, an
 * object, undefined) reads as something, not `[object Object]`.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigPlugins, parseConfig } from '../src/config/index.ts';
import { spawnCli } from './spawn-cli.ts';
import { tempFolders } from './temp-folder.ts';

const folder = tempFolders('plugin-factory-failure');

/** A factory that reads the token from the variable `tokenEnv` names, and puts it in its message as a careless plugin would. */
const ECHOES_TOKEN = 'export default function tracker(options) {\n  const token = process.env[options.tokenEnv];\n  throw new Error(`the tracker refused token ${token} for project ${options.project}`);\n}\n';

/** A project whose plugin is `source` (as p.mjs) with `options` (a YAML flow map). */
function project(source: string, options = '{ project: ops, tokenEnv: TRACKER_AUTH }'): string {
  return folder({ 'p.mjs': source, 'askloop.config.yaml': `plugins:\n  - package: ./p.mjs\n    options: ${options}\n` });
}

const VALUE = 'trk-7Qz2xW9vLm4pR8sT';

describe('a secret in the message of a factory that throws', () => {
  it('the value of the variable the options name (not named like a key) is [redacted], the rest of the message kept', async () => {
    const dir = project(ECHOES_TOKEN);
    const run = await spawnCli(['ns', 'tools', '--config', 'askloop.config.yaml'], { cwd: dir, env: { TRACKER_AUTH: VALUE } });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain(VALUE);
    expect(run.stderr).toContain(`${join(dir, 'askloop.config.yaml')}:2:5: plugin './p.mjs' failed to load: its factory (tracker), called with the entry's options, threw: the tracker refused token [redacted] for project ops (at ${join(dir, 'p.mjs')}:3:`);
    expect(run.stderr).toMatch(/; check the entry's options against the plugin's documentation \(CONFIG_PLUGIN_INVALID\)\n$/);
  });

  it('--json: the same, in the error object', async () => {
    const dir = project(ECHOES_TOKEN);
    const run = await spawnCli(['ns', 'tools', '--config', 'askloop.config.yaml', '--json'], { cwd: dir, env: { TRACKER_AUTH: VALUE } });
    expect(run.stdout).not.toContain(VALUE);
    const { error } = JSON.parse(run.stdout) as { error: { code: string; message: string; line: number } };
    expect(error).toMatchObject({ code: 'CONFIG_PLUGIN_INVALID', line: 2 });
    expect(error.message).toContain('threw: the tracker refused token [redacted] for project ops (at ');
  });

  describe('from code (loadConfigPlugins), the error itself holds no secret', () => {
    const saved = process.env['TRACKER_AUTH'];
    afterEach(() => {
      if (saved === undefined) delete process.env['TRACKER_AUTH'];
      else process.env['TRACKER_AUTH'] = saved;
    });

    it('with the process environment (the default), the variable the options name', async () => {
      const dir = project(ECHOES_TOKEN);
      process.env['TRACKER_AUTH'] = VALUE;
      const config = parseConfig(`plugins:\n  - package: ./p.mjs\n    options: { project: ops, tokenEnv: TRACKER_AUTH }\n`, { file: join(dir, 'askloop.config.yaml') });
      const error = (await loadConfigPlugins(config).catch((thrown: unknown) => thrown)) as Error;
      expect(error).toMatchObject({ code: 'CONFIG_PLUGIN_INVALID', line: 2, column: 5 });
      expect(error.message).not.toContain(VALUE);
      expect(error.message).toContain('threw: the tracker refused token [redacted] for project ops (at ');
    });

    it("with the environment it is given: a key-like variable's value, and a key's shape", async () => {
      const dir = project(`export default function acme() {\n  throw new Error('acme: key ${VALUE} refused; the old one sk-abcdefghijklmnop0123 too');\n}\n`, '{ region: eu }');
      const config = parseConfig('plugins:\n  - package: ./p.mjs\n    options: { region: eu }\n', { file: join(dir, 'askloop.config.yaml') });
      const error = (await loadConfigPlugins(config, { env: { ACME_TEAM_KEY: VALUE } }).catch((thrown: unknown) => thrown)) as Error;
      expect(error.message).toContain('threw: acme: key [redacted] refused; the old one [redacted] too (at ');
    });
  });
});

describe('a factory that throws a value that is not an Error', () => {
  it.each([
    ['a string', "throw 'options.project is missing'", 'options.project is missing'],
    ['an empty string', "throw ''", 'an empty string, thrown instead of an Error'],
    ['an object with a message', "throw { message: 'options.project is missing', code: 'E_OPTIONS' }", 'options.project is missing'],
    ['an object without one', "throw { reason: 'bad project', project: 'Ops' }", "an object thrown instead of an Error: { reason: 'bad project', project: 'Ops' }"],
    ['an object without a prototype', 'throw Object.create(null)', 'an object thrown instead of an Error: [Object: null prototype] {}'],
    ['an object that holds itself', 'const o = { a: 1 }; o.self = o; throw o', 'an object thrown instead of an Error: <ref *1> { a: 1, self: [Circular *1] }'],
    ['undefined', 'throw undefined', 'undefined, thrown instead of an Error, with no message'],
    ['null', 'throw null', 'null, thrown instead of an Error, with no message'],
    ['a number', 'throw 42', 'number 42, thrown instead of an Error'],
    ['an Error without a message', 'throw new TypeError()', 'TypeError with no message'],
  ])('%s reads as something', async (_label, statement, said) => {
    const dir = project(`export default function make() {\n  ${statement};\n}\n`, '{ project: ops }');
    const config = parseConfig('plugins:\n  - package: ./p.mjs\n    options: { project: ops }\n', { file: join(dir, 'askloop.config.yaml') });
    const error = (await loadConfigPlugins(config).catch((thrown: unknown) => thrown)) as Error;
    expect(error).toMatchObject({ code: 'CONFIG_PLUGIN_INVALID', line: 2 });
    expect(error.message).toMatch(new RegExp(`^plugin '\\./p\\.mjs' failed to load: its factory \\(make\\), called with the entry's options, threw: ${said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\(at [^)]+\\))?; check the entry's options`));
  });

  it('a secret in a thrown object is scrubbed too', async () => {
    const dir = project("export default function make() {\n  throw { reason: 'refused', key: 'sk-abcdefghijklmnop0123' };\n}\n", '{ project: ops }');
    const config = parseConfig('plugins:\n  - package: ./p.mjs\n    options: { project: ops }\n', { file: join(dir, 'askloop.config.yaml') });
    const error = (await loadConfigPlugins(config).catch((thrown: unknown) => thrown)) as Error;
    expect(error.message).toContain("threw: an object thrown instead of an Error: { reason: 'refused', key: '[redacted]' }");
  });
});

/**
 * A plugin author's first mistakes, from a walkthrough: each message said
 * something true but not what to do (a function "is undefined", a pack that
 * "has specificationVersion null", a missing package with no hint at the one
 * installed, a pack clash as a wrong command-line option, a broken `scopes`
 * function as a policy denial). Real files, real imports, the real CLI.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfigPlugins, parseConfig } from '../src/config/index.ts';
import { spawnCli } from './spawn-cli.ts';

const temp = mkdtempSync(join(tmpdir(), 'askloop-plugin-mistakes-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A folder with `files` written in it and a config naming `plugins`. */
function project(name: string, plugins: readonly string[], files: Record<string, string>): string {
  const dir = join(temp, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  writeFileSync(join(dir, 'askloop.config.yaml'), `plugins:\n${plugins.map((plugin) => `  - ${plugin}\n`).join('')}`);
  return dir;
}

/** The error `loadConfigPlugins` refuses `dir`'s plugin `./p.mjs` with. */
async function refusal(dir: string): Promise<{ code: string; message: string }> {
  const config = parseConfig('plugins:\n  - ./p.mjs\n', { file: join(dir, 'askloop.config.yaml') });
  try {
    await loadConfigPlugins(config);
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  throw new Error('loaded');
}

const PACK = "{ name: 'kv', tools: [] }";

describe('a default export that is not the plugin object', () => {
  it.each([
    // Each used to say "its default export is undefined, not a plugin object".
    ['a factory that returns nothing', 'export default function () {}\n', ", called with no arguments as a plugin factory, and what it returned is undefined, not a plugin object; export the plugin object (export default definePlugin({ … })), or make the function return it"],
    ['a named factory that returns nothing', 'export default function acme() {}\n', 'its default export is a function (acme), called with no arguments'],
    ['definePlugin itself, not called', 'export default function definePlugin(plugin) { return plugin; }\n', "its default export is definePlugin itself, not called; export the plugin object: export default definePlugin({ name, specificationVersion: 'v1', … })"],
    // It used to say "has specificationVersion null".
    ['a tool pack', `export default ${PACK};\n`, "its default export: this looks like a tool pack; wrap it: definePlugin({ name, specificationVersion: 'v1', toolPacks: [pack] })"],
    ['a factory returning a tool pack', `export default () => (${PACK});\n`, 'and what it returned: this looks like a tool pack; wrap it'],
    ['no specificationVersion', "export default { name: 'kv', toolPacks: [] };\n", "its default export has no specificationVersion; add specificationVersion: 'v1'"],
    // It used to say "its default export has no name": an async factory called in the export, not awaited.
    ['the promise of an async factory', "async function acme() { return { name: 'kv', specificationVersion: 'v1' }; }\nexport default acme();\n", 'its default export is a promise, not a plugin object; export the async factory itself (export default acmePlugin), which askloop calls and awaits, or the plugin object'],
    ['only named exports', `export const plugin = { name: 'kv', specificationVersion: 'v1' };\n`, 'it has no default export (it exports plugin); default-export the plugin: export default definePlugin({ … })'],
  ])('says what to export for %s', async (label, source, message) => {
    const dir = project(label.replaceAll(' ', '-'), ['./p.mjs'], { 'p.mjs': source });
    const { code, message: said } = await refusal(dir);
    expect(code).toBe('CONFIG_PLUGIN_INVALID');
    expect(said).toContain(message);
  });

  it('still says the version it does not understand', async () => {
    const dir = project('old-version', ['./p.mjs'], { 'p.mjs': "export default { name: 'kv', specificationVersion: 'v0' };\n" });
    expect((await refusal(dir)).message).toContain("has specificationVersion \"v0\"; this askloop understands 'v1'");
  });
});

describe('a plugin that is not installed', () => {
  it('names an installed package it most likely meant', async () => {
    const dir = project('near-miss', ['askloop-plugin-k'], { 'node_modules/askloop-plugin-kv/package.json': '{"name":"askloop-plugin-kv"}', 'node_modules/other/package.json': '{}' });
    const config = parseConfig('plugins:\n  - askloop-plugin-k\n', { file: join(dir, 'askloop.config.yaml') });
    await expect(loadConfigPlugins(config)).rejects.toMatchObject({
      code: 'CONFIG_PLUGIN_NOT_FOUND',
      message: expect.stringContaining(`plugin 'askloop-plugin-k': package 'askloop-plugin-k' is not installed in ${join(dir, 'node_modules')} or a folder above it; did you mean 'askloop-plugin-kv'? (installed); install it`),
    });
  });

  it('names the file beside the config that was meant without its ./', async () => {
    const dir = project('no-dot', ['returns.ts'], { 'returns.ts': 'export default {};\n' });
    const config = parseConfig('plugins:\n  - returns.ts\n', { file: join(dir, 'askloop.config.yaml') });
    await expect(loadConfigPlugins(config)).rejects.toMatchObject({
      code: 'CONFIG_PLUGIN_NOT_FOUND',
      message: `plugin 'returns.ts': package 'returns.ts' is not installed, but the file ${join(dir, 'returns.ts')} exists: did you mean ./returns.ts? (a path to a file starts with ./)`,
    });
  });

  it('says to compile a TypeScript plugin under node_modules, which Node will not run', async () => {
    const dir = project('ts-under-node-modules', ['askloop-plugin-ts'], {
      'node_modules/askloop-plugin-ts/package.json': JSON.stringify({ name: 'askloop-plugin-ts', type: 'module', exports: { '.': './index.ts' } }),
      'node_modules/askloop-plugin-ts/index.ts': "const name: string = 'ts';\nexport default { name, specificationVersion: 'v1' };\n",
    });
    // In a real process: the test runner's own loader strips types anywhere.
    const run = await spawnCli(['ns', 'tools', '--config', 'askloop.config.yaml'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Stripping types is currently unsupported for files under node_modules');
    expect(run.stderr).toContain(`; Node runs no TypeScript under node_modules: compile the plugin to JavaScript (tsc) and point its package.json's exports at the built file ("exports": { ".": { "import": "./dist/index.js" } })`);
  });
});

describe('ns commands with --config', () => {
  it('report a pack name clash as run does (LOOP_PLUGIN_INVALID naming both plugins), not as a wrong option', async () => {
    const dir = project('pack-clash', ['./p.mjs'], { 'p.mjs': "export default { name: 'strs', specificationVersion: 'v1', toolPacks: [{ name: 'str', tools: [] }] };\n" });
    const run = await spawnCli(['ns', 'tools', '--config', 'askloop.config.yaml'], { cwd: dir });
    // It used to be "tool pack 'str' is registered twice (CLI_OPTION_INVALID)" and "Run 'askloop ns tools --help' for usage".
    // Now at the config's entry too (see 'plugins of a config that clash' below).
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: `askloop: ${join(dir, 'askloop.config.yaml')}:2:5: plugins[0] (./p.mjs): tool pack 'str' of plugin 'strs' is already contributed by plugin 'builtin'; names are unique across the plugins: give one of them another name; plugin 'builtin' is askloop's built-in plugin, with its providers and tools: rename yours (LOOP_PLUGIN_INVALID)\n` });
  });

  it("report a scopes function that returns no list of needs as the tool's bug, not a policy denial", async () => {
    const tool = "{ spec: { name: 'tool.h.put', displayName: 'tool.h.Put', group: 'h', description: 'd', effect: 'read', idempotent: true, returns: 'any', trusted: false, arguments: [{ name: 'note', type: 'string', required: true, description: '' }], capabilities: [], scopes: () => 42 }, handler: () => 1 }";
    const dir = project('broken-scopes', ['./p.mjs'], {
      'p.mjs': `export default { name: 'h', specificationVersion: 'v1', toolPacks: [{ name: 'h', tools: [${tool}] }] };\n`,
      'prog.ns': 'command\n  emit tool.h.Put("a")\nendcommand\n',
    });
    const run = await spawnCli(['ns', 'run', 'prog.ns', '--config', 'askloop.config.yaml', '--allow', 'tool.h.*'], { cwd: dir });
    expect(run.code).toBe(1);
    // It used to be SCRIPT_TOOL_DENIED "Tool 'tool.h.Put' is not allowed here (TOOL_FAILED)". Still refused before the
    // run (the call is known to fail), in words that blame the tool.
    expect(run.stderr).toContain("prog.ns:2:8 SCRIPT_TOOL_DENIED Tool 'tool.h.Put' cannot be used: it is broken (TOOL_SPEC_INVALID): tool.h.Put has a broken spec: its scopes must return a list of capability strings (such as 'notes:write:todo') or capability objects, got 42; this is a bug of the tool");
    expect(run.stderr).not.toContain('not allowed');
  });

  it("warn of a tool's promise rejection nothing handled, once, and go on instead of ending the process", async () => {
    // The walkthrough's plugin: its handler started a promise it neither awaited nor caught. Node's default ended the
    // whole CLI with a stack — in `askloop worker`, every session the host ran.
    // Two secrets the message quotes: one named like a key, one only the config's `loginEnv: AUDIT_LOGIN` says is one.
    const key = `sk-${'a1B2'.repeat(8)}`;
    const login = 'audit-login-7f3e91';
    const tool = "{ spec: { name: 'tool.h.put', displayName: 'tool.h.Put', group: 'h', description: 'd', effect: 'read', idempotent: true, returns: 'any', trusted: false, arguments: [{ name: 'note', type: 'string', required: true, description: '' }], capabilities: [] }, handler: (args) => { Promise.reject(new Error('stray audit write failed for ' + process.env.STRAY_TOKEN + ' as ' + login)); return 'put ' + args.note; } }";
    const dir = project('stray-rejection', [], {
      'p.mjs': `export default (options) => { const login = process.env[options.loginEnv]; return { name: 'h', specificationVersion: 'v1', toolPacks: [{ name: 'h', tools: [${tool}] }] }; };\n`,
      'prog.ns': 'command\n  emit tool.h.Put("a")\n  emit "after the call"\nendcommand\n',
    });
    writeFileSync(join(dir, 'askloop.config.yaml'), 'plugins:\n  - package: ./p.mjs\n    options: { loginEnv: AUDIT_LOGIN }\n');
    const run = await spawnCli(['ns', 'run', 'prog.ns', '--config', 'askloop.config.yaml', '--allow', 'tool.h.*'], { cwd: dir, env: { STRAY_TOKEN: key, AUDIT_LOGIN: login } });
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: 'put a\nafter the call\n' });
    expect(run.stderr).toBe(
      "askloop: warning: a promise was rejected and nothing handled it (CLI_UNHANDLED_REJECTION): Error: stray audit write failed for [redacted] as [redacted]; the host goes on. It is a bug of code the host runs, most likely a plugin's or a tool's (a promise it neither awaited nor caught); ASKLOOP_DEBUG=1 prints its stack.\n",
    );
  });
});

describe('plugins of a config that clash or are malformed', () => {
  const plugin = (name: string, fields = ''): string => `export default { name: '${name}', specificationVersion: 'v1'${fields} };\n`;
  const provider = (name: string): string => `{ name: '${name}', languageModel() { return {}; } }`;
  // Each used to name the plugins by their place in the controller's list, after askloop's own (`plugins[2] and
  // plugins[3]` for the file's first two entries; `plugins[0] and plugins[2]` for a clash with the built-in plugin), and
  // gave no place in the file. The ns commands used to check only the plugins' names and tool packs: a provider's or an
  // agent's clash, one filed under another key, a tool source named as a pack, passed `ns tools` and failed `run`.
  it.each([
    ['two entries of one name', ['./a.mjs', './b.mjs'], { 'a.mjs': plugin('kv'), 'b.mjs': plugin('kv') }, 3, "plugins[1] (./b.mjs) is plugin 'kv', and so is plugins[0] (./a.mjs) at line 2; plugin names are unique: list each plugin once, or give one of them another name"],
    ['one entry listed twice', ['./a.mjs', './a.mjs'], { 'a.mjs': plugin('kv') }, 3, "plugins[1] (./a.mjs) is plugin 'kv', and so is plugins[0] (./a.mjs) at line 2; plugin names are unique: list each plugin once, or give one of them another name"],
    ["the built-in plugin's name", ['./p.mjs'], { 'p.mjs': plugin('builtin') }, 2, "plugins[0] (./p.mjs) is plugin 'builtin', and so is askloop's built-in plugin, with its providers and tools; plugin names are unique: give yours another name"],
    ["the name askloop gives the file's agents", ['./p.mjs'], { 'p.mjs': plugin('askloop-config') }, 4, "plugins[0] (./p.mjs) is plugin 'askloop-config', and so is the plugin askloop makes of the agents: section of this file; plugin names are unique: give yours another name"],
    ["a built-in provider's name", ['./p.mjs'], { 'p.mjs': plugin('acme', `, providers: { openai: ${provider('openai')} }`) }, 2, "plugins[0] (./p.mjs): provider 'openai' of plugin 'acme' is already contributed by plugin 'builtin'; names are unique across the plugins: give one of them another name; plugin 'builtin' is askloop's built-in plugin, with its providers and tools: rename yours"],
    ["another entry's tool pack", ['./a.mjs', './b.mjs'], { 'a.mjs': plugin('one', ", toolPacks: [{ name: 'kv', tools: [] }]"), 'b.mjs': plugin('two', ", toolPacks: [{ name: 'kv', tools: [] }]") }, 3, "plugins[1] (./b.mjs): tool pack 'kv' of plugin 'two' is already contributed by plugin 'one'; names are unique across the plugins: give one of them another name; plugin 'one' is plugins[0] (./a.mjs) at line 2"],
    ["another entry's agent", ['./a.mjs', './b.mjs'], { 'a.mjs': plugin('one', ", agents: { x: { name: 'x', model: 'scripted:script' } }"), 'b.mjs': plugin('two', ", agents: { x: { name: 'x', model: 'scripted:script' } }") }, 3, "plugins[1] (./b.mjs): agent 'x' of plugin 'two' is already contributed by plugin 'one'; names are unique across the plugins: give one of them another name; plugin 'one' is plugins[0] (./a.mjs) at line 2"],
    ['a provider under another key', ['./p.mjs'], { 'p.mjs': plugin('km', `, providers: { acme: ${provider('other')} }`) }, 2, "plugins[0] (./p.mjs): plugin 'km' registers provider 'other' under the key 'acme'; the key must equal provider.name"],
    ["the scripted provider's name", ['./p.mjs'], { 'p.mjs': plugin('acme', `, providers: { scripted: ${provider('scripted')} }`) }, 2, "plugins[0] (./p.mjs): provider 'scripted' of plugin 'acme' is already contributed by plugin 'askloop-scripted'; names are unique across the plugins: give one of them another name; plugin 'askloop-scripted' is askloop's plugin of the scripted provider of --script: rename yours"],
    ['an agent under another key', ['./p.mjs'], { 'p.mjs': plugin('ka', ", agents: { x: { name: 'y', model: 'scripted:script' } }") }, 2, "plugins[0] (./p.mjs): plugin 'ka' registers agent 'y' under the key 'x'; the key must equal the agent's name"],
    ['a tool source named as a built-in pack', ['./p.mjs'], { 'p.mjs': plugin('src', ", toolSources: [{ name: 'str', toolPacks: async () => [] }]") }, 2, "plugins[0] (./p.mjs): tool source 'str' of plugin 'src' is already contributed by plugin 'builtin'; names are unique across the plugins: give one of them another name; plugin 'builtin' is askloop's built-in plugin, with its providers and tools: rename yours"],
  ])('say %s at the entry, with the fix, in run and ns', async (label, entries, files, line, message) => {
    const dir = project(`clash-${label.replaceAll(/\W+/g, '-')}`, entries, { ...files, 'replies.json': '[]' });
    const file = join(dir, 'askloop.config.yaml');
    // The file's own agents make the plugin askloop names 'askloop-config'.
    if (label.includes('agents')) writeFileSync(file, `agents:\n  w: { model: 'scripted:script' }\nplugins:\n  - ./p.mjs\n`);
    const said = `askloop: ${file}:${line}:5: ${message} (LOOP_PLUGIN_INVALID)\n`;
    const run = await spawnCli(['run', 'x', '--script', 'replies.json', '--db', 's.db'], { cwd: dir });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: said });
    // The ns commands refuse what run refuses, in the same words, at the same entry.
    const ns = await spawnCli(['ns', 'tools', '--config', 'askloop.config.yaml'], { cwd: dir });
    expect({ code: ns.code, stderr: ns.stderr }).toEqual({ code: 1, stderr: said });
  });

  it('are refused by ns check and ns run too, before any program is read or run', async () => {
    const dir = project('clash-ns-check-run', ['./p.mjs'], { 'p.mjs': plugin('acme', `, providers: { openai: ${provider('openai')} }`), 'prog.ns': 'command\n  emit "ran"\nendcommand\n' });
    const said = `askloop: ${join(dir, 'askloop.config.yaml')}:2:5: plugins[0] (./p.mjs): provider 'openai' of plugin 'acme' is already contributed by plugin 'builtin'; names are unique across the plugins: give one of them another name; plugin 'builtin' is askloop's built-in plugin, with its providers and tools: rename yours (LOOP_PLUGIN_INVALID)\n`;
    for (const command of ['check', 'run']) {
      const ns = await spawnCli(['ns', command, 'prog.ns', '--config', 'askloop.config.yaml'], { cwd: dir });
      expect({ command, code: ns.code, stdout: ns.stdout, stderr: ns.stderr }).toEqual({ command, code: 1, stdout: '', stderr: said });
    }
  });

  it('give the place in --json too', async () => {
    const dir = project('clash-json', ['./a.mjs', './b.mjs'], { 'a.mjs': plugin('kv'), 'b.mjs': plugin('kv'), 'replies.json': '[]' });
    const run = await spawnCli(['run', 'x', '--script', 'replies.json', '--db', 's.db', '--json'], { cwd: dir });
    expect(JSON.parse(run.stdout).error).toMatchObject({ code: 'LOOP_PLUGIN_INVALID', file: join(dir, 'askloop.config.yaml'), line: 3, column: 5 });
  });
});

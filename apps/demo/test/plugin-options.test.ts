/**
 * A `plugins:` entry with options (`- package: NAME` and `options: { … }`):
 * a real plugin package (test/fixtures/plugin-project/askloop-plugin-tracker,
 * a factory that checks its options and reads its token from the variable
 * they name) installed next to a config file, its tool calling a real
 * tracker on a loopback port — through `run`, `approve`, the `ns` commands
 * and `pluginsFromConfig` — and each mistake of the form reported at its line.
 */
import { createServer, type Server } from 'node:http';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinPlugin, createAskLoop, createMemoryTranscriptStore, createScriptedProvider, definePlugin } from '@askloop/controller';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigPlugins, parseConfig, pluginsFromConfig } from '../src/config/index.ts';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';
import { spawnCli } from './spawn-cli.ts';
import { pluginProject, tempFolder } from './temp-folder.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/plugin-project/', import.meta.url));
const TRACKER = join(FIXTURE, 'askloop-plugin-tracker');
const temp = tempFolder('plugin-options');
const TOKEN = 'tracker-token-for-tests-1';

/** What the tracker was asked: method, path, authorization and body of each request. */
const requests: { method: string; path: string; authorization: string | undefined; body: unknown }[] = [];
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', path: request.url ?? '', authorization: request.headers.authorization, body: JSON.parse(body || 'null') });
      const allowed = request.headers.authorization === undefined || request.headers.authorization === `Bearer ${TOKEN}`;
      response.writeHead(allowed ? 201 : 401, { 'content-type': 'application/json' });
      response.end(JSON.stringify(allowed ? { key: `OPS-${requests.length}` } : { error: 'unauthorized' }));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

/** The config: the tracker with `options` (YAML lines under `options:`), an agent that may use its tool. */
function config(options: string, extra = ''): string {
  return `plugins:\n  - package: askloop-plugin-tracker\n    options:\n${options}${extra}store:\n  path: sessions.db\nagents:\n  filer:\n    model: scripted:filer\n    policy:\n      allow: ["tool.tracker.*"]\n`;
}

const OPTIONS = (): string => `      baseUrl: ${baseUrl}\n      project: ops\n      tokenEnv: TRACKER_TOKEN\n`;

/** A project with `text` as its askloop.config.yaml, the tracker installed, and the model's replies in replies.json. */
function project(name: string, text: string): string {
  const dir = pluginProject(temp, name, text, TRACKER);
  writeFileSync(join(dir, 'replies.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> " + tool.tracker.Open(userdata["subject"])')]));
  return dir;
}

describe('plugins: entries with options', () => {
  it('askloop run: the factory gets the options, and the tool reaches the tracker they name with the token of the variable they name', async () => {
    const dir = project('run', config(OPTIONS()));
    const before = requests.length;
    const run = await spawnCli(['run', 'Disk full on db-1', '--agent', 'filer', '--script', 'replies.json', '--json'], { cwd: dir, env: { TRACKER_TOKEN: TOKEN } });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'DONE', result: `OPS-${before + 1}` });
    expect(requests.slice(before)).toEqual([{ method: 'POST', path: '/projects/ops/issues', authorization: `Bearer ${TOKEN}`, body: { title: 'Disk full on db-1' } }]);
    // The token came from the environment: it is nowhere in the file.
    expect(run.stdout).not.toContain(TOKEN);
  });

  it('askloop approve loads the same entry again: an option that makes the tool wait for a person, then the call it approves', async () => {
    const dir = project('approve', config(`${OPTIONS()}      requireApproval: true\n`));
    const env = { TRACKER_TOKEN: TOKEN };
    const run = await spawnCli(['run', 'Rotate the logs', '--agent', 'filer', '--script', 'replies.json', '--json'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(4);
    const { sid } = JSON.parse(run.stdout) as { sid: string };
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'PAUSED', reason: 'AWAITING_APPROVAL' });
    const before = requests.length;
    const approved = await spawnCli(['approve', sid, '--script', 'replies.json', '--json'], { cwd: dir, env });
    expect(approved.stderr).toBe('');
    expect(JSON.parse(approved.stdout)).toMatchObject({ status: 'DONE', result: `OPS-${before + 1}` });
    expect(requests.slice(before)).toMatchObject([{ path: '/projects/ops/issues', body: { title: 'Rotate the logs' } }]);
  });

  it('ns tools and ns run with --config: the tool as the options made it, run against the tracker', async () => {
    const dir = project('ns', config(`      baseUrl: ${baseUrl}/\n      project: ops\n`));
    const tools = captureIo({ cwd: dir });
    expect(await main(['ns', 'tools', '--config', 'askloop.config.yaml', '--allow', 'tool.tracker.*'], tools)).toBe(0);
    expect(tools.out).toContain("Opens an issue in the tracker's ops project; returns its key.");
    writeFileSync(join(dir, 'prog.ns'), 'command\n  emit tool.tracker.Open("From ns run")\nendcommand\n');
    const before = requests.length;
    const run = captureIo({ cwd: dir });
    expect(await main(['ns', 'run', 'prog.ns', '--config', 'askloop.config.yaml', '--allow', 'tool.tracker.*'], run), run.err).toBe(0);
    expect(run.out).toBe(`OPS-${before + 1}\n`);
    // No tokenEnv: no authorization sent.
    expect(requests.slice(before)).toEqual([{ method: 'POST', path: '/projects/ops/issues', authorization: undefined, body: { title: 'From ns run' } }]);
  });

  it('pluginsFromConfig from code: the options reach the factory, the short form and a ./path entry beside it', async () => {
    const dir = pluginProject(temp, 'from-code', '', TRACKER);
    symlinkSync(join(FIXTURE, 'askloop-plugin-acme'), join(dir, 'node_modules', 'askloop-plugin-acme'), 'dir');
    symlinkSync(TRACKER, join(dir, 'tracker'), 'dir');
    const text = `plugins:\n  - askloop-plugin-acme\n  - { package: ./tracker, options: { baseUrl: "${baseUrl}", project: infra } }\n`;
    const loaded = parseConfig(text, { file: join(dir, 'askloop.config.yaml') });
    expect(loaded.plugins).toEqual([
      { package: 'askloop-plugin-acme', line: 2, column: 5 },
      { package: './tracker', options: { baseUrl, project: 'infra' }, line: 3, column: 5 },
    ]);
    const plugins = await pluginsFromConfig(loaded, {});
    expect(plugins.map((plugin) => plugin.name)).toEqual(['acme', 'tracker']);
    const scripted = definePlugin({ name: 'model', specificationVersion: 'v1', providers: { scripted: createScriptedProvider({ models: { filer: [envelope('emit "<<<LOOP:DONE>>> " + tool.tracker.Open("from code")')] } }) } });
    const loop = createAskLoop({ plugins: [builtinPlugin(), scripted, ...plugins], store: createMemoryTranscriptStore() });
    const before = requests.length;
    try {
      const result = await loop.run({ agent: { name: 'filer', model: 'scripted:filer', policy: { allow: ['tool.tracker.*'] } }, task: 'x' });
      expect(result).toMatchObject({ status: 'DONE', result: `OPS-${before + 1}` });
    } finally {
      await loop.close();
    }
    expect(requests.slice(before)).toMatchObject([{ path: '/projects/infra/issues' }]);
    // The factory got a copy: what it was handed is not the config's own object.
    expect(loaded.plugins[1]?.options).toEqual({ baseUrl, project: 'infra' });
  });
});

describe('mistakes in an entry with options, at their line', () => {
  let projects = 0;
  /**
   * What `askloop run` printed for a project whose config is `text` (in a real process: exit code and standard
   * error), with the config file's path shortened to `askloop.config.yaml`.
   */
  async function refused(text: string): Promise<{ code: number | null; stderr: string }> {
    const dir = project(`refused-${(projects += 1)}`, text);
    symlinkSync(join(FIXTURE, 'askloop-plugin-acme'), join(dir, 'node_modules', 'askloop-plugin-acme'), 'dir');
    const run = await spawnCli(['run', 'x', '--agent', 'filer', '--script', 'replies.json'], { cwd: dir });
    return { code: run.code, stderr: run.stderr.replaceAll(`${join(dir, 'askloop.config.yaml')}:`, 'askloop.config.yaml:') };
  }

  it('options given to a plugin object: refused (not dropped), saying what to export instead', async () => {
    const run = await refused(`# acme's default export is the plugin itself\nplugins:\n  - package: askloop-plugin-acme\n    options: { greeting: hi }\n`);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^askloop: askloop\.config\.yaml:3:5: plugin 'askloop-plugin-acme' \(\S+index\.js\): options cannot be passed to a plugin object, and its default export is one \(plugin 'acme'\); remove options: from the entry, or have the plugin default-export a factory that takes them: export default function plugin\(options\) \{ return definePlugin\(\{ … \}\) \} \(CONFIG_INVALID\)\n$/);
  });

  it("a factory that throws given its options: the plugin's own words at the entry's line, no stack", async () => {
    const run = await refused(config(`      baseUrl: ${baseUrl}\n      project: Ops Team\n`));
    expect(run.code).toBe(1);
    // Where in the plugin it threw (its own check), not the stack.
    const [line, ...rest] = run.stderr.split(`(at ${join(TRACKER, 'index.js')}:`);
    expect(line).toBe("askloop: askloop.config.yaml:2:5: plugin 'askloop-plugin-tracker' failed to load: its factory (trackerPlugin), called with the entry's options, threw: options.project must be a project key in lower case, such as ops ");
    expect(rest.join('')).toMatch(/^\d+:\d+\); check the entry's options against the plugin's documentation \(CONFIG_PLUGIN_INVALID\)\n$/);
  });

  it('a factory that needs options, given none (the map form without options calls it with no arguments, as the short form does)', async () => {
    const run = await refused('plugins:\n  - package: askloop-plugin-tracker\nagents:\n  filer: { model: scripted:filer }\n');
    expect(run.stderr).toContain("askloop.config.yaml:2:5: plugin 'askloop-plugin-tracker' failed to load: the tracker needs options: write its entry as package: askloop-plugin-tracker with options: { baseUrl, project } (at ");
  });

  it.each([
    ['a misspelt package', '  - pakage: askloop-plugin-tracker\n    options: { project: ops }\n', 2, 5, "plugins[0].pakage: unknown key 'pakage'; did you mean 'package'? (the keys are package, options)"],
    ['a misspelt options', '  - package: askloop-plugin-tracker\n    option: { project: ops }\n', 3, 5, "plugins[0].option: unknown key 'option'; did you mean 'options'? (the keys are package, options)"],
    ['no package', '  - options: { project: ops }\n', 2, 5, 'plugins[0]: no package; a plugin entry with options is package: NAME (or ./path) and options: { … }'],
    ['options that are no map', '  - package: askloop-plugin-tracker\n    options: [ops]\n', 3, 14, "plugins[0].options: expected the plugin's options as a map (options: { name: value, … }), got a list"],
    ['an entry that is neither', '  - [askloop-plugin-tracker]\n', 2, 5, 'plugins[0]: expected a plugin package name (text), or a map with package and options, got a list'],
  ])('%s: CONFIG_INVALID at its line, before any plugin loads', async (_label, entry, line, column, message) => {
    const run = await refused(`plugins:\n${entry}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`askloop: askloop.config.yaml:${line}:${column}: ${message} (CONFIG_INVALID)\n`);
  });

  it.each([
    ['a key-like option', '      token: tracker-token-for-tests-1\n', 5, 14, "'token' looks like a key; keys are never written to the config file. Set the key in an environment variable and give the plugin the variable's name instead, e.g. tokenEnv: ACME_API_KEY (if plugins[0]'s plugin takes such an option; its documentation names it)"],
    ['a ${NAME} reference, which options do not fill in', '      apiKey: ${TRACKER_TOKEN}\n', 5, 15, "'apiKey' looks like a key; keys are never written to the config file (options reach the plugin as written: a ${NAME} here is not filled in). Set the key in an environment variable and give the plugin the variable's name instead, e.g. apiKeyEnv: ACME_API_KEY"],
    ['a value shaped like a key', '      headers: { x-auth: "Bearer abcdef0123456789xyz" }\n', 5, 26, "this value looks like an API key, a token or a bearer credential; keys and passwords are never written to the config file. Set it in an environment variable and give the plugin the variable's name instead"],
  ])('%s in the options: CONFIG_SECRET at its line, the value never repeated', async (_label, option, line, column, message) => {
    const run = await refused(config(`      project: ops\n${option}`));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`askloop: askloop.config.yaml:${line}:${column}: ${message}`);
    expect(run.stderr).toContain('(CONFIG_SECRET)');
    for (const secret of [TOKEN, 'abcdef0123456789xyz']) expect(run.stderr).not.toContain(secret);
  });

  it('a name of a variable is no key: apiKeyEnv is passed on as written', async () => {
    const loaded = parseConfig('plugins:\n  - package: ./p.mjs\n    options: { apiKeyEnv: ACME_API_KEY, tokenEnv: TRACKER_TOKEN }\n', { file: join(temp, 'askloop.config.yaml') });
    expect(loaded.plugins[0]?.options).toEqual({ apiKeyEnv: 'ACME_API_KEY', tokenEnv: 'TRACKER_TOKEN' });
  });

  it("a factory that returns no plugin given options says it was called with the entry's options", async () => {
    const dir = pluginProject(temp, 'returns-nothing', '', TRACKER);
    writeFileSync(join(dir, 'p.mjs'), 'export default function make(options) {\n  return options;\n}\n');
    const loaded = parseConfig('plugins:\n  - package: ./p.mjs\n    options: { a: 1 }\n', { file: join(dir, 'askloop.config.yaml') });
    await expect(loadConfigPlugins(loaded)).rejects.toMatchObject({
      code: 'CONFIG_PLUGIN_INVALID',
      line: 2,
      column: 5,
      message: expect.stringContaining("its default export is a function (make), called with the entry's options as a plugin factory, and what it returned has no name"),
    });
  });
});

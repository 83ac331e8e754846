/**
 * askloop.config.yaml: validation with errors at the line, keys refused,
 * defaults applied, and a real third-party plugin package (test/fixtures/
 * plugin-project/askloop-plugin-acme) loaded through a config file and run
 * end to end through createAskLoop — its provider answers, its tool runs.
 */
import { builtinPlugin, createAskLoop, createMemoryTranscriptStore, type AskLoopPlugin } from '@askloop/controller';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from './capture-io.ts';
import { configError } from './config-error.ts';
import { spawnCli } from './spawn-cli.ts';
import { CONFIG_TEMPLATE } from '../src/config/config-template.ts';
import { parseGrantOptions, pluginToolCapabilities } from '../src/options/check-grant-resources.ts';
import { configForRun, discoverConfigPath, loadConfig, loadConfigPlugins, parseConfig, pluginsFromConfig } from '../src/config/index.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/plugin-project/', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'askloop-config-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));


/** A project folder with the fixture config and the plugin installed in its node_modules (a link, as pnpm/npm link do). */
function project(name: string, config?: string): string {
  const dir = join(temp, name);
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  cpSync(join(FIXTURE, 'askloop.config.yaml'), join(dir, 'askloop.config.yaml'));
  if (config !== undefined) writeFileSync(join(dir, 'askloop.config.yaml'), config);
  symlinkSync(join(FIXTURE, 'askloop-plugin-acme'), join(dir, 'node_modules', 'askloop-plugin-acme'), 'dir');
  return dir;
}

describe('loadConfig', () => {
  it('loads the template askloop init writes', () => {
    const config = parseConfig(CONFIG_TEMPLATE, { file: '/project/askloop.config.yaml' });
    expect(config.agents['hello']).toMatchObject({ name: 'hello', model: 'openai:gpt-4.1-mini', quotas: { fuel: 200000, wallMs: 30000, toolCalls: 50 }, ceilings: { maxTurns: 8, tokens: 200000 }, settings: { temperature: 0 } });
    expect(config.plugins).toEqual([]);
  });

  it("accepts the template's commented plugin entries once uncommented, the one with options too", () => {
    const lines = CONFIG_TEMPLATE.split('\n');
    const start = lines.indexOf('#  - askloop-plugin-acme');
    const entries = lines.slice(start, lines.indexOf('', start)).map((line) => line.slice(1));
    const config = parseConfig(['plugins:', ...entries].join('\n'), { file: '/project/askloop.config.yaml' });
    expect(config.plugins.map((entry) => entry.package)).toEqual(['askloop-plugin-acme', './plugins/my-tools', 'askloop-plugin-tracker']);
    expect(config.plugins[2]?.options).toEqual({ baseUrl: 'https://tracker.example.com', project: 'ops', tokenEnv: 'TRACKER_TOKEN' });
  });

  it("accepts the README's example file", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const example = /## The config file[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const config = parseConfig(example, { file: '/project/askloop.config.yaml' });
    expect(config.agents['researcher']).toMatchObject({ model: 'openai:gpt-4.1-mini', quotas: { fuel: 200000 }, ceilings: { maxTurns: 8 } });
    expect(config.storePath).toBe('/project/.askloop/sessions.db');
    expect(config.providers.openai).toMatchObject({ timeoutMs: 60000, retry: { maxRetries: 4 }, prices: { 'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 } } });
    // The error the README shows is the one the CLI prints.
    const error = configError('models:\n  default: openai:x\nagents:\n  a:\n    quotas:\n      fuel: lots\n');
    expect(readme).toContain(`askloop: ${error.file}:${error.line}:${error.column}: ${error.message} (${error.code})`);
  });

  it('applies the file-wide defaults under each agent and resolves the store path from the file', () => {
    const config = parseConfig(
      'store:\n  path: data/s.db\nmodels:\n  default: openai:gpt-4.1-mini\nquotas:\n  fuel: 1000\nagents:\n  a:\n    quotas:\n      wallMs: 5000\n  b:\n    model: ollama:qwen3:8b\n    quotas:\n      fuel: 7\n',
      { file: '/project/askloop.config.yaml' },
    );
    expect(config.storePath).toBe('/project/data/s.db');
    expect(config.agents['a']).toEqual({ name: 'a', model: 'openai:gpt-4.1-mini', quotas: { fuel: 1000, wallMs: 5000 } });
    expect(config.agents['b']).toEqual({ name: 'b', model: 'ollama:qwen3:8b', quotas: { fuel: 7 } });
  });

  it.each([
    ['an unknown top-level key', 'plugins: []\nagnets:\n  a: {}\n', 2, 1, /unknown key 'agnets'/],
    ['a misspelt agent field (the controller validator, with a did-you-mean)', 'agents:\n  a:\n    model: openai:x\n    maxTurn: 3\n', 4, 5, /agents\.a\.maxTurn/],
    ['a quota of the wrong type', 'models:\n  default: openai:x\nagents:\n  a:\n    quotas:\n      fuel: lots\n', 6, 13, /agents\.a\.quotas\.fuel/],
    ['a bad default model', 'models:\n  default: gpt4\n', 2, 12, /provider:model/],
    ['an agent without a model', 'agents:\n  lonely:\n    description: x\n', 2, 3, /no model/],
    ['a misspelt model key (the typo, not "no model")', 'agents:\n  a:\n    modle: openai:x\n', 3, 5, /agents\.a\.modle: unknown key 'modle'/],
    ['an upper-case agent name', 'agents:\n  Big:\n    model: openai:x\n', 2, 3, /lower-case/],
    ['an MCP server with both command and url', 'mcpServers:\n  git:\n    command: x\n    url: http://127.0.0.1/mcp\n', 3, 14, /^mcpServers\.git has both command and url/],
    ['an MCP server name with a dash', 'mcpServers:\n  bad-name:\n    command: x\n', 2, 3, /^mcpServers\.bad-name: server name 'bad-name' must be letters, digits and _/],
    ['a required key left out', 'store: {}\n', 1, 8, /^store: expected a SQLite sessions file as path: FILE \(store: \{ path: \.askloop\/sessions\.db \}\) or a PostgreSQL server as a postgres:\/\/ URL/],
    ['an MCP server field of the wrong type, at the field', 'mcpServers:\n  git:\n    command: x\n    timeoutMs: fast\n', 4, 16, /^mcpServers\.git\.timeoutMs must be a number of milliseconds/],
  ])('refuses %s at its line and column', (_, text, line, column, message) => {
    const error = configError(text);
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(message);
    expect({ file: error.file, line: error.line, column: error.column }).toEqual({ file: 'askloop.config.yaml', line, column });
  });

  it('says what a key holds and what the file has instead, for a value of the wrong type', () => {
    const error = configError('store: 5\nplugins: [3]\nagents: []\nmodels:\n  default: 7\nmcpServers:\n  s: npx\nquotas: [1]\n');
    expect(error.message.split('\n').map((line) => line.replace(/^askloop\.config\.yaml:\d+:\d+: /, '').replace(/ \(\d+ problems in the file; the others below\)$/, ''))).toEqual([
      'store: expected a postgres:// URL, or a map with path: FILE, got number 5',
      'plugins[0]: expected a plugin package name (text), or a map with package and options, got number 3',
      'agents: expected a map of agent names to agent definitions, got a list',
      "models.default: expected 'provider:model' text, e.g. 'openai:gpt-4.1-mini', got number 7",
      'mcpServers.s: expected a server\'s settings (a map), got the string "npx"',
      'quotas: expected a map of quotas, got a list',
    ]);
  });

  it('reports every problem of the file in one error, in file order, each at its line; a default once', () => {
    const error = configError(
      ['models:', '  default: scripted:demo', 'quotas:', '  fuell: 5', 'agents:', '  a:', '    modle: x', '  b:', '    ceilings:', '      maxTurns: six', 'mcpServers:', '  s:', '    command: 5', ''].join('\n'),
    );
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', file: 'askloop.config.yaml', line: 4, column: 3 });
    const [first, ...others] = error.message.split('\n');
    expect(first).toMatch(/^quotas\.fuell: unknown key 'fuell'; did you mean 'fuel'\? .* \(4 problems in the file; the others below\)$/);
    // quotas.fuell is inherited by both agents: it is not repeated for them.
    expect(others.slice(0, 2).map((line) => line.replace(/: .*$/s, (rest) => rest.slice(0, rest.indexOf(':', 2) + 1)))).toEqual([
      'askloop.config.yaml:7:5: agents.a.modle:',
      'askloop.config.yaml:10:17: agents.b.ceilings.maxTurns:',
    ]);
    // An MCP server's problem at the field the MCP package names, worded as the file spells it.
    expect(others[2]).toBe('askloop.config.yaml:13:14: mcpServers.s needs a command (stdio) or a url (Streamable HTTP)');
  });

  it('reports every problem the schema finds, several unknown keys too', () => {
    const error = configError('plugin: [x]\nstor: {path: a.db}\nmodels:\n  default: nocolon\n');
    expect(error.line).toBe(1);
    // Each unknown key names the one it most likely meant (closestName, as the agents' keys do).
    const keys = '(the keys are plugins, store, models, providers, http, quotas, ceilings, agents, mcpServers)';
    expect(error.message).toBe(
      [
        `plugin: unknown key 'plugin'; did you mean 'plugins'? ${keys} (3 problems in the file; the others below)`,
        `askloop.config.yaml:2:1: stor: unknown key 'stor'; did you mean 'store'? ${keys}`,
        "askloop.config.yaml:4:12: models.default: expected 'provider:model', e.g. 'openai:gpt-4.1-mini'",
      ].join('\n'),
    );
  });

  // Walkthrough: a misspelt top-level key was the only problem reported; the wrong quota, the misspelt ceiling, the
  // agent's and the MCP server's came one run at a time after it was fixed.
  it('reports the problems of the sections the schema took beside the ones it refused', () => {
    const error = configError(['agnets: {}', 'models: { default: openai:x }', 'quotas:', '  fuel: lots', 'ceilings: { maxTurn: 3 }', 'agents:', '  a:', '    repair: -1', 'mcpServers:', '  s: { comand: ls }', ''].join('\n'));
    expect(error.message.split('\n').map((line) => line.replace(/ \(\d+ problems in the file; the others below\)$/, '').replace(/(unknown key '\w+'); .*$/, '$1'))).toEqual([
      "agnets: unknown key 'agnets'",
      'askloop.config.yaml:4:9: quotas.fuel: expected a whole number ≥ 1, got the string "lots"',
      "askloop.config.yaml:5:13: ceilings.maxTurn: unknown key 'maxTurn'",
      'askloop.config.yaml:8:13: agents.a.repair: expected a whole number ≥ 0, got number -1',
      "askloop.config.yaml:10:16: mcpServers.s has an unknown field 'comand'; did you mean 'command'? (the fields are command, args, env, cwd, url, headers, timeoutMs, startTimeoutMs, maxResultBytes, approval)",
    ]);
  });

  it('leaves the agents unchecked when a default they inherit was refused (each would lack its model)', () => {
    const error = configError('stor: x\nmodels: { default: 5 }\nagents:\n  a:\n    repair: 1\n');
    expect(error.message).not.toContain('agents.a');
    expect(error.message).toContain('(2 problems in the file; the others below)');
  });

  it('reports YAML syntax errors with their place', () => {
    const error = configError('agents:\n  a: [unclosed\n');
    expect(error.code).toBe('CONFIG_SYNTAX');
    expect(error.line).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['apiKey: on an agent', 'agents:\n  a:\n    model: openai:x\n    apiKey: sk-live-abcdefghijklmnopqrstuvwxyz\n', 4, /looks like a key.*environment/],
    ['a key-shaped value anywhere', 'agents:\n  a:\n    model: openai:x\n    description: sk-proj-abcdefghijklmnopqrstuvwxyz012345\n', 4, /looks like an API key/],
    ['a literal token in an MCP env', 'mcpServers:\n  gh:\n    command: x\n    env:\n      GITHUB_TOKEN: ghp_0123456789abcdef\n', 5, /GITHUB_TOKEN/],
    ['a JSON Web Token anywhere', 'agents:\n  a:\n    model: openai:x\n    description: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEyMyJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ"\n', 4, /looks like an API key, a token/],
    ['an AWS access key id', 'mcpServers:\n  s3:\n    command: x\n    args: ["--key-id", "AKIAIOSFODNN7EXAMPLE"]\n', 4, /looks like an API key/],
    ['a literal bearer header', 'mcpServers:\n  t:\n    url: http://127.0.0.1/mcp\n    headers:\n      Authorization: Bearer abc.def\n', 5, /key/],
  ])('refuses a key written in the file: %s', (_, text, line, message) => {
    const error = configError(text);
    expect(error.code).toBe('CONFIG_SECRET');
    expect(error.line).toBe(line);
    expect(error.message).toMatch(message);
    // The message never repeats the secret.
    expect(error.message).not.toMatch(/sk-|ghp_|abc\.def|eyJ|AKIA/);
  });

  it('accepts ${NAME} references in MCP env and headers, filled from the environment when the plugins are built', async () => {
    const config = parseConfig('mcpServers:\n  t:\n    url: http://127.0.0.1:9/mcp\n    headers:\n      Authorization: Bearer ${TRACKER_TOKEN}\n', { file: join(temp, 'askloop.config.yaml') });
    expect(config.mcpServers['t']).toMatchObject({ headers: { Authorization: 'Bearer ${TRACKER_TOKEN}' } });
    await expect(pluginsFromConfig(config, {})).rejects.toThrow(/TRACKER_TOKEN/);
    const plugins = await pluginsFromConfig(config, { TRACKER_TOKEN: 'from-env' });
    expect(plugins.map((plugin) => plugin.name)).toEqual(['mcp']);
    await plugins[0]?.toolSources?.[0]?.close?.();
  });

  it.each([
    ['args', 'mcpServers:\n  gh:\n    command: npx\n    args: ["-y", "server", "--token", "${GH_TOKEN}"]\n', "mcpServers.gh args[3] holds ${GH_TOKEN}, which is filled in only in env and headers; pass the value to the server in env"],
    ['cwd', 'mcpServers:\n  gh:\n    command: npx\n    cwd: ${HOME}/data\n', 'mcpServers.gh cwd holds ${HOME}'],
    ['url', 'mcpServers:\n  t:\n    url: https://${HOST}/mcp\n', 'mcpServers.t url holds ${HOST}, which is filled in only in env and headers; write the URL out, and send a key in headers'],
  ])('refuses a ${NAME} reference in %s, which would reach the server as literal text, starting nothing', async (_field, text, message) => {
    const config = parseConfig(text, { file: join(temp, 'askloop.config.yaml') });
    await expect(pluginsFromConfig(config, { GH_TOKEN: 'ghp-from-env-0123', HOME: '/home/x', HOST: 'example.com' })).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining(message) });
  });

  it("leaves a reference in args to a name the server's own env sets, for the server's shell to expand", async () => {
    const text = 'mcpServers:\n  gh:\n    command: sh\n    args: ["-c", "exec npx -y server --token \\"${GH_TOKEN}\\""]\n    env:\n      GH_TOKEN: ${GH_TOKEN}\n';
    const config = parseConfig(text, { file: join(temp, 'askloop.config.yaml') });
    const [plugin] = await pluginsFromConfig(config, { GH_TOKEN: 'ghp-from-env-0123' });
    expect(plugin?.name).toBe('mcp');
    await plugin?.toolSources?.[0]?.close?.();
    // A second name the env does not set is still refused.
    const other = parseConfig(text.replace('--token', '--org ${GH_ORG} --token'), { file: join(temp, 'askloop.config.yaml') });
    await expect(pluginsFromConfig(other, { GH_TOKEN: 'ghp-from-env-0123', GH_ORG: 'acme' })).rejects.toMatchObject({ message: expect.stringContaining('args[1] holds ${GH_ORG}') });
  });

  it('reads a file and names it in errors; a missing file is CONFIG_UNREADABLE', async () => {
    await expect(loadConfig(join(temp, 'nope.yaml'))).rejects.toMatchObject({ code: 'CONFIG_UNREADABLE', exitCode: 2 });
    const file = join(temp, 'bad.yaml');
    writeFileSync(file, 'plugins: []\nstore:\n  path: 3\n');
    await expect(loadConfig(file)).rejects.toMatchObject({ code: 'CONFIG_INVALID', file, line: 3, column: 9, exitCode: 1 });
  });

  it('names the byte, line and column of invalid UTF-8 in a config file', async () => {
    const file = join(temp, 'latin1.yaml');
    // "défaut" in Latin-1: 0xe9 starts no valid UTF-8 sequence here.
    writeFileSync(file, Buffer.concat([Buffer.from('plugins: []\nagents:\n  a: {model: scripted:d'), Buffer.from([0xe9]), Buffer.from('faut}\n')]));
    await expect(loadConfig(file)).rejects.toMatchObject({
      code: 'CONFIG_SYNTAX',
      file,
      line: 3,
      column: 24,
      exitCode: 1,
      message: 'cannot read the config file: not valid UTF-8: invalid byte 0xe9 at byte offset 43 (line 3, column 24)',
    });
  });
});

describe('discoverConfigPath', () => {
  it('uses --config, else ./askloop.config.yaml when present, else none', () => {
    const dir = project('discover');
    expect(discoverConfigPath(undefined, dir)).toBe(join(dir, 'askloop.config.yaml'));
    expect(discoverConfigPath(undefined, temp)).toBeUndefined();
    expect(discoverConfigPath('discover/askloop.config.yaml', temp)).toBe(join(dir, 'askloop.config.yaml'));
    expect(() => discoverConfigPath('missing.yaml', temp)).toThrow(expect.objectContaining({ code: 'CONFIG_UNREADABLE' }));
  });
});

describe('plugins named in the config', () => {
  it('loads a real plugin package from node_modules beside the config and runs its provider and tool pack', async () => {
    const config = await loadConfig(join(project('acme'), 'askloop.config.yaml'));
    const plugins = await pluginsFromConfig(config, {});
    expect(plugins.map((plugin) => plugin.name)).toEqual(['askloop-config', 'acme']);
    const loop = createAskLoop({ plugins: [builtinPlugin(), ...plugins], store: createMemoryTranscriptStore() });
    try {
      const result = await loop.run({ agent: 'greeter', task: 'Ada' });
      expect(result).toMatchObject({ status: 'DONE', result: 'Hello, Ada, from ACME!', turns: 1 });
    } finally {
      await loop.close();
    }
  });

  it("askloop run --agent NAME in the project runs the plugin's provider and tool, and replay finds the session", async () => {
    const dir = project('acme-cli');
    const env = { XDG_DATA_HOME: join(dir, 'xdg') };
    const run = await spawnCli(['run', '--agent', 'greeter', 'Ada', '--json'], { cwd: dir, env });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'DONE', result: 'Hello, Ada, from ACME!', turns: 1 });
    const replay = await spawnCli(['replay', JSON.parse(run.stdout).sid, '--json'], { cwd: dir, env });
    expect({ code: replay.code, matched: JSON.parse(replay.stdout).matched }).toEqual({ code: 0, matched: true });
  });

  it("refuses a cost ceiling on a plugin's model without prices, sending the user to the plugin, not to providers:", async () => {
    // Before, the fix named providers.NAME.prices in askloop.config.yaml, which refuses any provider but a built-in one.
    const dir = project('acme-cost', 'plugins:\n  - askloop-plugin-acme\nagents:\n  greeter:\n    model: acme:greeter\n    ceilings: { costUsd: 1 }\n');
    const run = await spawnCli(['run', '--agent', 'greeter', 'Ada'], { cwd: dir, env: { XDG_DATA_HOME: join(dir, 'xdg') } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("ceilings.costUsd (1) could never be reached: the model acme:greeter has no prices in this host");
    expect(run.stderr).toContain("(provider 'acme' of plugin 'acme' takes its prices where it is made: its prices setting, by model id, here 'greeter', as defineProvider({ settings: { prices } })");
    expect(run.stderr).toContain("askloop.config.yaml's providers: sets the built-in providers only");
    expect(run.stderr).not.toContain('providers.NAME');
    expect(run.stderr).toMatch(/\(LOOP_AGENT_INVALID\)\n$/);
  });

  it("loads an async plugin factory, and lets --grant name the resource of a plugin's tool", async () => {
    const dir = project('notes', 'plugins:\n  - askloop-plugin-notes\n');
    symlinkSync(join(FIXTURE, 'askloop-plugin-notes'), join(dir, 'node_modules', 'askloop-plugin-notes'), 'dir');
    const config = await loadConfig(join(dir, 'askloop.config.yaml'));
    expect((await loadConfigPlugins(config)).map((plugin) => plugin.name)).toEqual(['notes']);
    const reply = (program: string) => `<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{}\n<<<NSENV:V4:ACTIONS>>>\ncommand\n  ${program}\nendcommand\n<<<NSENV:V4:END>>>\n`;
    writeFileSync(join(dir, 'append.json'), JSON.stringify([reply('emit "<<<LOOP:DONE>>> " + tool.notes.Append("todo", "milk")')]));
    const env = { XDG_DATA_HOME: join(dir, 'xdg') };
    const base = ['run', 'shop', '--script', 'append.json', '--allow', 'tool.notes.*', '--json'];
    const granted = await spawnCli([...base, '--grant', 'notes:write:todo'], { cwd: dir, env });
    expect({ code: granted.code, stderr: granted.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(granted.stdout)).toMatchObject({ status: 'DONE', result: 'milk' });
    // Another note's grant does not cover it: refused before the program runs.
    const other = await spawnCli([...base, '--grant', 'notes:write:work'], { cwd: dir, env });
    expect(JSON.parse(other.stdout)).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS' });
    // A resource no tool declares is still refused, and the list it gives names the plugin's.
    const unknown = await spawnCli([...base, '--grant', 'note:write:todo'], { cwd: dir, env });
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout).error).toMatchObject({ code: 'CLI_OPTION_INVALID', message: "--grant note:write:todo: unknown resource 'note' (did you mean 'notes'?); the tools know fs, mcp, memory, net, notes (or * for all)" });
  });

  it('accepts any --grant resource when a plugin tool computes its needs per call without declaring them', () => {
    const tool = (spec: Record<string, unknown>) => ({ spec: { name: 'tool.p.a', displayName: 'tool.p.A', description: 'd', effect: 'write', arguments: [], capabilities: [], ...spec }, handler: () => 1 });
    const plugin = (spec: Record<string, unknown>) => ({ name: 'p', specificationVersion: 'v1', toolPacks: [{ name: 'p', tools: [tool(spec)] }] }) as unknown as AskLoopPlugin;
    expect(pluginToolCapabilities([plugin({ capabilities: ['notes:write'] })])).toEqual(['notes:write']);
    expect(pluginToolCapabilities([plugin({ scopes: (args: { note: string }) => [`notes:write:${args.note}`] })])).toEqual(['*']);
    expect(parseGrantOptions(['notes:write:todo'], temp, ['*'])).toHaveLength(1);
    expect(() => parseGrantOptions(['notes:write:todo'], temp, [])).toThrow(/unknown resource 'notes'/);
  });

  it('refuses a plugin whose fields have the wrong shape, naming the field and the entry', async () => {
    const dir = project('bad-shape', 'plugins:\n  - ./packs-object.js\n');
    writeFileSync(join(dir, 'packs-object.js'), 'export default { name: "weird", specificationVersion: "v1", toolPacks: [{ name: "weird" }] };\n');
    const config = await loadConfig(join(dir, 'askloop.config.yaml'));
    await expect(loadConfigPlugins(config)).rejects.toMatchObject({
      code: 'CONFIG_PLUGIN_INVALID',
      line: 2,
      message: expect.stringContaining("plugin 'weird': toolPacks[0].tools (pack 'weird') is missing, not a list; build the pack with defineToolPack(name, tools)"),
    });
  });

  it('loads a plugin by ./relative path', async () => {
    const config = parseConfig('plugins:\n  - ./askloop-plugin-acme\n', { file: join(FIXTURE, 'askloop.config.yaml') });
    const [plugin] = await loadConfigPlugins(config);
    expect(plugin).toMatchObject({ name: 'acme', specificationVersion: 'v1' });
  });

  it('says where to install a package that is missing, pointing at its line', async () => {
    const dir = project('missing', 'plugins:\n  - askloop-plugin-acme\n  - askloop-plugin-nowhere\n');
    const config = await loadConfig(join(dir, 'askloop.config.yaml'));
    await expect(loadConfigPlugins(config)).rejects.toMatchObject({ code: 'CONFIG_PLUGIN_NOT_FOUND', line: 3, column: 5, message: expect.stringContaining('npm install askloop-plugin-nowhere') });
  });

  it('names the folder beside the config by its path when the package is that folder, not installed', async () => {
    // The fixture's layout (the plugin's folder beside the config), in a folder of its own with nothing installed.
    const dir = join(temp, 'beside');
    cpSync(join(FIXTURE, 'askloop-plugin-acme'), join(dir, 'askloop-plugin-acme'), { recursive: true });
    const config = parseConfig('plugins:\n  - askloop-plugin-acme\n', { file: join(dir, 'askloop.config.yaml') });
    await expect(loadConfigPlugins(config)).rejects.toMatchObject({
      code: 'CONFIG_PLUGIN_NOT_FOUND',
      message: expect.stringContaining(`or npm install /path/to/its/folder); or name the folder ${join(dir, 'askloop-plugin-acme')} by its path, './askloop-plugin-acme'`),
    });
  });

  it('says to install @askloop/controller beside the config when a plugin cannot import it (its peer)', async () => {
    const dir = join(temp, 'peerless');
    mkdirSync(join(dir, 'plugin'), { recursive: true });
    writeFileSync(join(dir, 'plugin', 'package.json'), JSON.stringify({ name: 'plugin', type: 'module', main: 'index.js' }));
    writeFileSync(join(dir, 'plugin', 'index.js'), "import { definePlugin } from '@askloop/controller';\nexport default definePlugin({ name: 'p', specificationVersion: 'v1' });\n");
    writeFileSync(join(dir, 'askloop.config.yaml'), 'plugins:\n  - ./plugin\n');
    // In a real process: the test runner's own resolver would find the workspace's package from anywhere.
    const run = await spawnCli(['ns', 'tools', '--config', 'askloop.config.yaml'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/plugin '\.\/plugin' failed to load: Cannot find package '@askloop\/controller' .*; install @askloop\/controller \(the plugin's peer\) where that file finds it, in a node_modules folder in or above (\S+) \(a plugin linked from a folder/s);
    expect(run.stderr).toContain(`in or above ${join(dir, 'plugin')} (`);
  });

  it('points the missing peer of a plugin linked from a folder at that folder, not the config (where it is installed already)', async () => {
    // What npm install /path/to/its/folder makes: a link to a folder elsewhere, the peer installed beside the config.
    const elsewhere = join(temp, 'plugin-src');
    cpSync(join(FIXTURE, 'askloop-plugin-acme'), join(elsewhere, 'askloop-plugin-acme'), { recursive: true });
    const dir = join(temp, 'linked');
    mkdirSync(join(dir, 'node_modules', '@askloop'), { recursive: true });
    writeFileSync(join(dir, 'askloop.config.yaml'), 'plugins:\n  - askloop-plugin-acme\n');
    symlinkSync(join(elsewhere, 'askloop-plugin-acme'), join(dir, 'node_modules', 'askloop-plugin-acme'), 'dir');
    symlinkSync(fileURLToPath(new URL('../../../packages/controller', import.meta.url)), join(dir, 'node_modules', '@askloop', 'controller'), 'dir');
    const run = await spawnCli(['ns', 'tools', '--config', 'askloop.config.yaml'], { cwd: dir });
    expect(run.code).toBe(1);
    // It used to say "next to the config file too", where it already was: following the hint changed nothing.
    expect(run.stderr).toContain(`; install @askloop/controller (the plugin's peer) where that file finds it, in a node_modules folder in or above ${join(elsewhere, 'askloop-plugin-acme')} (`);
  });

  it('names the file and line of a plugin that fails to load: a syntax error (JavaScript, TypeScript, an imported file), a throw while it loads', async () => {
    const dir = join(temp, 'broken-plugins');
    mkdirSync(dir);
    writeFileSync(join(dir, 'syntax.mjs'), 'export default 1;\nconst a = 1;\nlet x = a b;\n');
    writeFileSync(join(dir, 'syntax.ts'), 'const o: number = 1;\nlet x = o o;\nexport default 1;\n');
    writeFileSync(join(dir, 'imports-broken.mjs'), "import './syntax.mjs';\nexport default 1;\n");
    writeFileSync(join(dir, 'throws.mjs'), 'const o = undefined;\n\nexport default o.foo;\n');
    writeFileSync(join(dir, 'factory-throws.mjs'), 'export default function plugin() {\n  throw new Error("no config");\n}\n');
    writeFileSync(join(dir, 'factory-json.mjs'), "export default function plugin() {\n  return JSON.parse('{bad');\n}\n");
    // In real processes: the test runner's own loader reports syntax errors its own way.
    const failure = async (entry: string) => {
      writeFileSync(join(dir, `${entry}.yaml`), `plugins:\n  - ./${entry}\n`);
      const run = await spawnCli(['ns', 'tools', '--config', `${entry}.yaml`], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('(CONFIG_PLUGIN_INVALID)');
      return run.stderr.split('\n')[0] ?? '';
    };
    // Regression: each said only what Node said ("Unexpected identifier 'b'"), with no file or line.
    expect(await failure('syntax.mjs')).toContain(`plugin './syntax.mjs' failed to load: Unexpected identifier 'b' (at ${join(dir, 'syntax.mjs')}:3)`);
    expect(await failure('syntax.ts')).toContain(`(at ${join(dir, 'syntax.ts')}:2)`);
    expect(await failure('imports-broken.mjs')).toContain(`(not in ${join(dir, 'imports-broken.mjs')} itself: in a file it imports; node --check FILE names the line)`);
    expect(await failure('throws.mjs')).toContain(`plugin './throws.mjs' failed to load: Cannot read properties of undefined (reading 'foo') (at ${join(dir, 'throws.mjs')}:3:18)`);
    // A SyntaxError thrown as it runs is a throw like any other, not a file that does not parse.
    expect(await failure('factory-json.mjs')).toContain(`(at ${join(dir, 'factory-json.mjs')}:2:15)`);
    expect(await failure('factory-throws.mjs')).toContain(`plugin './factory-throws.mjs' failed to load: no config (at ${join(dir, 'factory-throws.mjs')}:2:9)`);
  });

  it('refuses a package whose default export is not an AskLoop plugin', async () => {
    const dir = project('not-a-plugin', 'plugins:\n  - ./not-a-plugin.js\n  - ./old-plugin.js\n');
    writeFileSync(join(dir, 'not-a-plugin.js'), 'export default { hello: "world" };\n');
    writeFileSync(join(dir, 'old-plugin.js'), 'export default () => ({ name: "old", specificationVersion: "v0" });\n');
    const config = await loadConfig(join(dir, 'askloop.config.yaml'));
    await expect(loadConfigPlugins(config)).rejects.toMatchObject({ code: 'CONFIG_PLUGIN_INVALID', line: 2, message: expect.stringContaining('no name') });
    const second = parseConfig('plugins:\n  - ./old-plugin.js\n', { file: join(dir, 'askloop.config.yaml') });
    await expect(loadConfigPlugins(second)).rejects.toMatchObject({ code: 'CONFIG_PLUGIN_INVALID', message: expect.stringContaining("'v1'") });
  });
});

describe('configForRun', () => {
  it('--agent NAME is an agent of the config or its plugins; an existing file stays a file; no config: a NAME is not found, a path adds nothing', async () => {
    const dir = project('run');
    const fromConfig = await configForRun({ agent: 'greeter' }, captureIo({ cwd: dir }));
    expect(fromConfig.agent).toMatchObject({ name: 'greeter', model: 'acme:greeter' });
    expect(fromConfig.plugins.map((plugin) => plugin.name)).toEqual(['askloop-config', 'acme']);
    writeFileSync(join(dir, 'greeter'), '{}');
    expect((await configForRun({ agent: 'greeter' }, captureIo({ cwd: dir }))).agent).toBeUndefined();
    await expect(configForRun({ agent: 'nobody' }, captureIo({ cwd: dir }))).rejects.toMatchObject({ code: 'LOOP_AGENT_NOT_FOUND', message: expect.stringContaining('(agents: greeter)') });
    // No config: a NAME has nothing to name (LOOP_AGENT_NOT_FOUND saying so); a path is left to the file read.
    await expect(configForRun({ agent: 'greeter' }, captureIo({ cwd: temp }))).rejects.toMatchObject({ code: 'LOOP_AGENT_NOT_FOUND', message: expect.stringContaining('no askloop.config.yaml there') });
    expect(await configForRun({ agent: 'agents/greeter.yaml' }, captureIo({ cwd: temp }))).toEqual({ plugins: [] });
  });
});

/**
 * `loadConfig(path)`: reads `askloop.config.yaml`, refuses keys written into
 * it, checks it against the schema and the controller's agent validator, and
 * returns plain data. Every error is a `ConfigError` naming the file, line
 * and column of the offending value. The checks go in stages, each stopping
 * the check with all it found in one error: the YAML syntax (its first error),
 * the parser's warnings, a secret, what the parser would not read as written
 * (a list as a key, a whole number past 2^53), then the file's values.
 */
import { agentDefinitionIssues, formatIssuePath, listProblems, locateYamlPath, placeYamlProblem, YAML_READ_OPTIONS, yamlValueProblems, yamlWarningProblems, type AgentDefinition, type YamlProblem } from '@askloop/controller';
import { isAskLoopMcpError, parseMcpConfig, type McpServerConfig, type McpServersConfig } from '@askloop/mcp';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { LineCounter, parseDocument, type Node } from 'yaml';
import type { AgentDefaults, AskLoopConfig } from './askloop-config.ts';
import { AGENT_NAME, CONFIG_SCHEMA, type ConfigFile } from './config-schema.ts';
import { configIssueMessage } from './config-issue-message.ts';
import { ConfigError, type ConfigErrorCode } from './config-error.ts';
import { findInvalidUtf8 } from '../decode-text.ts';
import { findSecret } from './find-secret.ts';
import { closestName } from '../options/closest-name.ts';
import { PLUGIN_ENTRY_KEYS } from './plugin-entry-schema.ts';
import { inPluginOptions, pluginOptionSecretMessage } from './plugin-option-secret.ts';
import { providerSettingsKeys } from './provider-settings-schema.ts';

/** Config files are a page or two; anything larger is refused before parsing. */
export const MAX_CONFIG_BYTES = 256 * 1024;

type Path = readonly (string | number)[];

/** Secrets may be `${NAME}` references only in an MCP server's `env` and `headers`. */
const referenceAllowed = (path: Path) => path[0] === 'mcpServers' && (path[2] === 'env' || path[2] === 'headers') && path.length === 4;

/** Reads, checks and returns the config at `path` (relative to the current directory). */
export async function loadConfig(path: string): Promise<AskLoopConfig> {
  const file = resolve(path);
  let text: string;
  let bytes: Uint8Array = new Uint8Array();
  try {
    bytes = await readFile(file);
    if (bytes.length > MAX_CONFIG_BYTES) throw new ConfigError('CONFIG_INVALID', `larger than ${MAX_CONFIG_BYTES / 1024} KiB; a config file is a page or two`, { file: path });
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const invalid = error instanceof TypeError ? findInvalidUtf8(bytes) : undefined;
    if (invalid !== undefined) throw new ConfigError('CONFIG_SYNTAX', `cannot read the config file: ${invalid.message}`, { file: path, line: invalid.line, column: invalid.column });
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : error instanceof TypeError ? 'not valid UTF-8' : (error as Error).message;
    throw new ConfigError(error instanceof TypeError ? 'CONFIG_SYNTAX' : 'CONFIG_UNREADABLE', `cannot read the config file: ${why}`, { file: path });
  }
  return parseConfig(text, { file, display: path });
}

/** Parses and checks config text; `display` is the name errors show. Exported for tests and for `askloop init`'s self-check. */
export function parseConfig(text: string, options: { file: string; display?: string }): AskLoopConfig {
  const display = options.display ?? options.file;
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, ...YAML_READ_OPTIONS });
  const fail = (code: 'CONFIG_SYNTAX' | 'CONFIG_INVALID' | 'CONFIG_SECRET', message: string, path: Path, key = false): ConfigError => {
    const { line, column } = locateYamlPath(document, lineCounter, path, key);
    return new ConfigError(code, message, { file: display, line, column });
  };
  const syntax = document.errors[0];
  if (syntax !== undefined) {
    const { line, col } = lineCounter.linePos(syntax.pos[0]);
    throw new ConfigError('CONFIG_SYNTAX', `not valid YAML: ${syntax.message.split('\n')[0]}`, { file: display, line, column: col });
  }
  const located = (code: 'CONFIG_SYNTAX' | 'CONFIG_INVALID', problem: YamlProblem): ConfigError => {
    const { line, column, message } = placeYamlProblem(problem, lineCounter);
    return new ConfigError(code, message, { file: display, line, column });
  };
  // What the parser only warns about (an unknown tag, one its value does not fit) is a mistake all the same: the
  // value would silently become something else ("1" for `!!float 1`). Every one of them, as the syntax it is.
  const warnings = yamlWarningProblems(document, text);
  if (warnings.length > 0) throw configProblems(warnings.map((problem) => located('CONFIG_SYNTAX', problem)));
  // Before the schema: a key in the file is the worst mistake, and the schema would only call `apiKey` unknown.
  const secret = findSecret(document.contents as Node | null, referenceAllowed);
  if (secret !== undefined) throw fail('CONFIG_SECRET', inPluginOptions(secret.path) ? pluginOptionSecretMessage(secret) : secret.message, secret.path);
  // Before the file becomes data: a key that is a list would become text (with a warning from Node), a number
  // beyond 2^53 the nearest double.
  const unreadable = yamlValueProblems(document);
  if (unreadable.length > 0) throw configProblems(unreadable.map((problem) => located('CONFIG_INVALID', problem)));

  let value: unknown;
  try {
    // Aliases are capped so a "billion laughs" file cannot expand without bound.
    value = document.toJS({ maxAliasCount: 50 }) ?? {};
  } catch (error) {
    throw new ConfigError('CONFIG_SYNTAX', `cannot read the file: ${(error as Error).message}`, { file: display });
  }
  // Past the syntax and secrets, every problem of the file is collected and reported together: one run to fix them all.
  const problems: ConfigError[] = [];
  const invalid: Fail = (code, message, path, key) => {
    problems.push(fail(code, message, path, key));
  };
  const parsed = CONFIG_SCHEMA.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
      for (const unknownKey of unknownKeys) {
        // List indexes stay numbers (`plugins[0].pakage`, located in the list).
        const path = [...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part)), ...(unknownKey === undefined ? [] : [unknownKey])];
        const message = unknownKey === undefined ? configIssueMessage(issue, value) : unknownKeyMessage(unknownKey, Object.keys(unknownShape(issue.path.map(String))));
        invalid('CONFIG_INVALID', `${formatIssuePath(path)}: ${message}`, path, unknownKey !== undefined);
      }
    }
    // The sections the schema took are checked further all the same (an unknown top-level key hid a wrong quota).
    checkValidSections(value, parsed.error.issues, invalid);
    throw configProblems(problems);
  }
  const config = parsed.data;
  const defaultsValid = checkDefaults(config, invalid);
  const agents = buildAgents(config, invalid, defaultsValid);
  const mcpServers = checkMcpServers(config, invalid);
  if (problems.length > 0) throw configProblems(problems);
  const dir = dirname(options.file);
  return {
    file: options.file,
    dir,
    plugins: (config.plugins ?? []).map((entry, index) => ({ ...entry, ...locateYamlPath(document, lineCounter, ['plugins', index]) })),
    modelLocations: {
      ...(config.models?.default === undefined ? {} : { default: locateYamlPath(document, lineCounter, ['models', 'default']) }),
      agents: Object.fromEntries(Object.keys(agents).map((name) => {
        const own = (config.agents?.[name] as Record<string, unknown> | undefined)?.['model'] !== undefined;
        const place = locateYamlPath(document, lineCounter, own ? ['agents', name, 'model'] : ['models', 'default']);
        return [name, { ...place, field: own ? `agents.${name}.model` : 'models.default' }];
      })),
    },
    ...(config.store === undefined ? {} : typeof config.store === 'string' ? { storeUrl: config.store } : { storePath: resolve(dir, expandHome(config.store.path)) }),
    ...(config.store === undefined ? {} : { storeLocation: locateYamlPath(document, lineCounter, typeof config.store === 'string' ? ['store'] : ['store', 'path']) }),
    agents,
    defaults: { ...(config.models?.default === undefined ? {} : { model: config.models.default }), ...pick(config) } as AgentDefaults,
    providers: config.providers ?? {},
    http: config.http ?? {},
    mcpServers,
  };
}

/**
 * After the schema refused part of the file: the agent, defaults and MCP
 * checks of the sections it took, so one run reports every problem. The
 * agents are checked only when their defaults (`models`, `quotas`,
 * `ceilings`) were taken too: without them every agent would lack a model.
 */
function checkValidSections(value: unknown, issues: readonly { readonly path: readonly PropertyKey[] }[], fail: Fail): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const refused = new Set(issues.map((issue) => issue.path[0]).filter((key) => key !== undefined));
  const sections: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(CONFIG_SCHEMA.shape)) {
    const section = (value as Record<string, unknown>)[key];
    if (section === undefined || refused.has(key)) continue;
    const parsed = schema.safeParse(section);
    if (parsed.success) sections[key] = parsed.data;
    else refused.add(key);
  }
  const config = sections as ConfigFile;
  const defaultsTaken = !['models', 'quotas', 'ceilings'].some((key) => refused.has(key));
  const defaultsValid = defaultsTaken && checkDefaults(config, fail);
  if (defaultsTaken && !refused.has('agents')) buildAgents(config, fail, defaultsValid);
  if (!refused.has('mcpServers')) checkMcpServers(config, fail);
}

/** Records one problem at `path` (its key when `key`); checking goes on. */
type Fail = (code: 'CONFIG_INVALID', message: string, path: Path, key?: boolean) => void;

/** Problems shown at most, in file order; the count of the rest follows. */
const MAX_PROBLEMS_SHOWN = 20;

/**
 * The problems of one file as one error: the first in the file with its
 * location (the text output's `FILE:LINE:COLUMN:` prefix, the JSON's fields),
 * each further one on a line of its own, located the same way.
 */
function configProblems(problems: readonly ConfigError[]): ConfigError {
  const { first, message } = listProblems(problems, problems[0]?.file, MAX_PROBLEMS_SHOWN);
  if (problems.length === 1) return first;
  // Problems of one kind (the parser's warnings are all CONFIG_SYNTAX) keep their code; a mix is the file's values.
  const code = problems.every((problem) => problem.code === first.code) ? (first.code as ConfigErrorCode) : 'CONFIG_INVALID';
  return new ConfigError(code, message, { file: first.file, line: first.line, column: first.column });
}

/** `unknown key 'pakage'; did you mean 'package'? (the keys are package, options)`; without a likely name, the keys alone. */
function unknownKeyMessage(key: string, known: readonly string[]): string {
  const meant = closestName(key, known);
  return meant === undefined ? `unknown key '${key}'; the keys are ${known.join(', ')}` : `unknown key '${key}'; did you mean '${meant}'? (the keys are ${known.join(', ')})`;
}

/** The keys a map at `path` accepts, for the unknown-key message. */
function unknownShape(path: readonly string[]): Record<string, unknown> {
  const top = CONFIG_SCHEMA.shape;
  if (path.length === 0) return top;
  if (path[0] === 'store') return { path: 1 };
  if (path[0] === 'plugins') return Object.fromEntries(PLUGIN_ENTRY_KEYS.map((key) => [key, 1]));
  if (path[0] === 'models') return { default: 1, settings: 1 };
  if (path[0] === 'http') return { specialAddresses: 1 };
  if (path[0] === 'providers') return Object.fromEntries(providerSettingsKeys(path).map((key) => [key, 1]));
  return {};
}

function expandHome(path: string): string {
  const home = process.env['HOME'];
  return path.startsWith('~/') && home !== undefined ? `${home}${path.slice(1)}` : path;
}

/** `models.settings`, `quotas` and `ceilings` are agent fields: checked by the agent validator on a stand-in agent. */
function checkDefaults(config: ConfigFile, fail: Fail): boolean {
  const standIn = { name: 'defaults', model: 'scripted:defaults', ...pick(config) };
  const issues = agentDefinitionIssues(standIn);
  for (const issue of issues) {
    const [first, ...rest] = issue.path;
    const path = first === 'settings' ? ['models', 'settings', ...rest] : issue.path;
    fail('CONFIG_INVALID', `${formatIssuePath(path)}: ${issue.message}`, path, issue.message.startsWith('unknown key'));
  }
  return issues.length === 0;
}

function pick(config: ConfigFile): Record<string, unknown> {
  return {
    ...(config.models?.settings === undefined ? {} : { settings: config.models.settings }),
    ...(config.quotas === undefined ? {} : { quotas: config.quotas }),
    ...(config.ceilings === undefined ? {} : { ceilings: config.ceilings }),
  };
}

/**
 * Each agent: the file's defaults under the agent's own fields, `name` from its key; validated by the controller.
 * A problem in a default the agent inherits is the default's, reported once where it is written (`defaultsValid` false).
 */
function buildAgents(config: ConfigFile, fail: Fail, defaultsValid: boolean): Record<string, AgentDefinition> {
  const agents: Record<string, AgentDefinition> = {};
  for (const [name, fields] of Object.entries(config.agents ?? {})) {
    if (!AGENT_NAME.test(name)) {
      fail('CONFIG_INVALID', `agents.${name}: agent names are lower-case letters, digits, _ and -, starting with a letter`, ['agents', name], true);
      continue;
    }
    const own = fields as Record<string, unknown>;
    const merged: Record<string, unknown> = { name, ...(config.models?.default === undefined ? {} : { model: config.models.default }), ...own };
    for (const part of ['settings', 'quotas', 'ceilings'] as const) {
      const base = part === 'settings' ? config.models?.settings : config[part];
      if (base !== undefined || own[part] !== undefined) merged[part] = { ...base, ...(own[part] as object | undefined) };
    }
    if (own['name'] !== undefined && own['name'] !== name) {
      fail('CONFIG_INVALID', `agents.${name}.name: '${String(own['name'])}' differs from the agent's key '${name}'; leave name out`, ['agents', name, 'name']);
      continue;
    }
    const issues = agentDefinitionIssues(merged);
    // A misspelt key ('modle') is the real mistake behind a missing model: it is reported, at its line, instead.
    const unknown = issues.some((candidate) => candidate.message.startsWith('unknown key'));
    if (merged['model'] === undefined && !unknown) {
      fail('CONFIG_INVALID', `agents.${name}: no model; give the agent 'model: provider:model' or set 'models.default'`, ['agents', name], true);
      continue;
    }
    for (const issue of issues) {
      if (merged['model'] === undefined && issue.path[0] === 'model') continue;
      // A problem of a default the agent inherited is reported once, where the default is written (when that check
      // found it: defaults valid alone but not with this agent's fields are this agent's problem).
      if (!defaultsValid && inherited(own, issue.path)) continue;
      const path = ['agents', name, ...issue.path];
      fail('CONFIG_INVALID', `${formatIssuePath(path)}: ${issue.message}`, path, issue.message.startsWith('unknown key'));
    }
    if (issues.length === 0) agents[name] = merged as unknown as AgentDefinition;
  }
  return agents;
}

/** Whether `path` of an agent's issue lies in a default (`settings`, `quotas`, `ceilings`) it did not set itself. */
function inherited(own: Record<string, unknown>, path: readonly (string | number)[]): boolean {
  const [part, key] = path;
  if (part !== 'settings' && part !== 'quotas' && part !== 'ceilings') return false;
  const mine = own[part];
  return key !== undefined && !(typeof mine === 'object' && mine !== null && Object.hasOwn(mine, key));
}

/**
 * Each server through `@askloop/mcp`'s own parser, one at a time so each
 * problem is reported; located at the field the parser names (`args`,
 * `timeoutMs`, …), worded as this file spells it (`mcpServers.gh.args …`).
 */
function checkMcpServers(config: ConfigFile, fail: Fail): McpServersConfig {
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, server] of Object.entries(config.mcpServers ?? {})) {
    try {
      Object.assign(servers, parseMcpConfig({ servers: { [name]: server } }));
    } catch (error) {
      const field = isAskLoopMcpError(error) ? error.configPath?.slice(1) : undefined;
      const message = (error as Error).message;
      // `MCP config: servers.gh.args must …` as this file spells it; a message about the server as a whole, after its name.
      const located = message.startsWith('MCP config: servers.') ? message.replace('MCP config: servers.', 'mcpServers.') : `mcpServers.${name}: ${message.replace(/^MCP config: /, '')}`;
      // A problem of the server as a whole (its name, its shape) points at its name.
      fail('CONFIG_INVALID', located, ['mcpServers', ...(field ?? [name])], (field ?? [name]).length === 1);
    }
  }
  return servers;
}

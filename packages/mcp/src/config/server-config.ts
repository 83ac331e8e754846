/**
 * How MCP servers are configured, in code and in the `--mcp-config` JSON file
 * (`{"servers": {name: {command, args, env, cwd} | {url, headers}}}`), and the
 * validation of that file.
 */
import { AskLoopMcpError } from '../errors/askloop-mcp-error.ts';
import { sanitizeName } from '../source/sanitize-name.ts';
import { closestField } from '../closest-field.ts';

/** The longest a timer can wait (2^31 − 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Which of a server's tools need a person's approval before a program calling them runs. */
export type McpApprovalMode = 'destructive' | 'always' | 'never';

/** Settings every server kind shares. */
export interface McpServerCommon {
  /** Per-call timeout in milliseconds (default 30,000); the call is cancelled on the server when it passes. Also bounds each tools/list page. */
  readonly timeoutMs?: number;
  /**
   * How long starting the server may take (spawn or reach it, and `initialize`), in milliseconds (default 30,000);
   * the server is stopped when it passes. Its own setting: a start (`npx` fetching a package) can take far longer than a call should.
   */
  readonly startTimeoutMs?: number;
  /** Largest result accepted, in UTF-8 bytes of its JSON (default 1 MiB); a larger one fails the call. */
  readonly maxResultBytes?: number;
  /**
   * `destructive` (default): tools that are not read-only and whose
   * destructiveHint is true or absent (the MCP default) get `requiresApproval`;
   * `always`: every tool of the server; `never`: none.
   */
  readonly approval?: McpApprovalMode;
}

/** A server spawned as a child process and spoken to over stdio. */
export interface McpStdioServerConfig extends McpServerCommon {
  readonly command: string;
  readonly args?: readonly string[];
  /**
   * Added to the SDK's small default environment (HOME, PATH, …); the host's other variables (API keys) are not passed on.
   * Values of 8 characters or more are replaced by [REDACTED] in errors (they may be keys).
   */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServerConfig extends McpServerCommon {
  readonly url: string;
  /** Sent with every request (e.g. Authorization); values of 8 characters or more (and the token after `Bearer`) are replaced by [REDACTED] in errors. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One server's configuration. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** Servers by name. A name becomes the tool group: `tool.<name>.<Tool>`. */
export type McpServersConfig = Readonly<Record<string, McpServerConfig>>;

/** Server names: the group segment of a tool name, so letters, digits and `_`, not starting with a digit. */
export const SERVER_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Why `name` is not a server name, and a name that would do. Told apart: a name of letters and digits alone that
 * starts with a digit breaks only the first rule, and "must be letters, digits and _" would send its author looking
 * for a character that is not there.
 */
function serverNameProblem(name: string): string {
  const suggestion = sanitizeName(name);
  const rule = /^[0-9]/.test(name) && /^[A-Za-z0-9_]+$/.test(name) ? 'must not start with a digit' : 'must be letters, digits and _, not starting with a digit';
  return `server name '${name}' ${rule} (it becomes the tool group tool.${name}.…); try '${suggestion}'`;
}

/** The fields only a stdio server takes, and the one only an HTTP server takes (`command` and `url` are told apart on their own). */
const STDIO_ONLY = ['args', 'env', 'cwd'] as const;
const HTTP_ONLY = ['headers'] as const;

/** True when the configuration is an HTTP server. */
export function isHttpServerConfig(config: McpServerConfig): config is McpHttpServerConfig {
  return typeof (config as McpHttpServerConfig).url === 'string';
}

/** `MCP_CONFIG_INVALID` for the config as a whole, or (`path`, from `servers` down) at the field that is wrong. */
const invalid = (message: string, path?: readonly (string | number)[]): AskLoopMcpError =>
  new AskLoopMcpError('MCP_CONFIG_INVALID', `MCP config: ${message}`, path === undefined ? {} : { configPath: ['servers', ...path] });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringMap(value: unknown, where: string, path: readonly string[]): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw invalid(`${where} must be an object of strings`, path);
  const result: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw invalid(`${where}.${key} must be a string`, [...path, key]);
    result[key] = item;
  }
  return result;
}

function common(value: Record<string, unknown>, where: string, name: string): McpServerCommon {
  const { approval, maxResultBytes } = value;
  // A timer's range: beyond it Node fires at once (TimeoutOverflowWarning), and every call would time out.
  const duration = (field: string, given: unknown): number | undefined => {
    if (given !== undefined && !(typeof given === 'number' && Number.isFinite(given) && given > 0 && given <= MAX_TIMER_MS)) {
      throw invalid(`${where}.${field} must be a number of milliseconds from 1 to ${MAX_TIMER_MS} (about 24.8 days), got ${typeof given === 'string' ? JSON.stringify(given) : String(given)}`, [name, field]);
    }
    return given as number | undefined;
  };
  const timeoutMs = duration('timeoutMs', value['timeoutMs']);
  const startTimeoutMs = duration('startTimeoutMs', value['startTimeoutMs']);
  if (maxResultBytes !== undefined && !(typeof maxResultBytes === 'number' && Number.isSafeInteger(maxResultBytes) && maxResultBytes > 0)) throw invalid(`${where}.maxResultBytes must be a positive whole number`, [name, 'maxResultBytes']);
  if (approval !== undefined && approval !== 'destructive' && approval !== 'always' && approval !== 'never') throw invalid(`${where}.approval must be "destructive", "always" or "never"`, [name, 'approval']);
  return { ...(timeoutMs === undefined ? {} : { timeoutMs }), ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }), ...(maxResultBytes === undefined ? {} : { maxResultBytes }), ...(approval === undefined ? {} : { approval }) };
}

/** The fields of a server's settings. */
const SERVER_FIELDS: readonly string[] = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'timeoutMs', 'startTimeoutMs', 'maxResultBytes', 'approval'];

/** `servers.gh has an unknown field 'comand'; did you mean 'command'? (the fields are …)`: a typo would drop the setting. */
function unknownFieldProblem(where: string, key: string): string {
  const meant = closestField(key, SERVER_FIELDS);
  return `${where} has an unknown field '${key}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the fields are ${SERVER_FIELDS.join(', ')})`;
}

/** Validates one server's configuration; throws `MCP_CONFIG_INVALID` naming the field. */
export function validateServerConfig(name: string, value: unknown): McpServerConfig {
  const where = `servers.${name}`;
  if (!SERVER_NAME_PATTERN.test(name)) throw invalid(serverNameProblem(name), [name]);
  if (!isPlainObject(value)) throw invalid(`${where} must be an object`, [name]);
  for (const key of Object.keys(value)) if (!SERVER_FIELDS.includes(key)) throw invalid(unknownFieldProblem(where, key), [name, key]);
  if (value.url !== undefined && typeof value.url !== 'string') throw invalid(`${where}.url must be a string (an http:// or https:// URL)`, [name, 'url']);
  // A field of the other kind of server would be dropped without a word (headers on a command server never sent), as a typo would.
  const otherKind = (typeof value.url === 'string' ? STDIO_ONLY : HTTP_ONLY).find((key) => value[key] !== undefined);
  if (otherKind !== undefined) {
    const problem = typeof value.url === 'string' ? `${where}.${otherKind} is for a command (stdio) server; a url (Streamable HTTP) server takes headers` : `${where}.${otherKind} is for a url (Streamable HTTP) server; a command (stdio) server takes env (its environment)`;
    throw invalid(problem, [name, otherKind]);
  }
  if (typeof value.url === 'string') {
    if (value.command !== undefined) throw invalid(`${where} has both command and url; use one`, [name, 'command']);
    let url: URL;
    try {
      url = new URL(value.url);
    } catch {
      throw invalid(`${where}.url is not a URL`, [name, 'url']);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`${where}.url must be http:// or https://`, [name, 'url']);
    const headers = stringMap(value.headers, `${where}.headers`, [name, 'headers']);
    return { url: value.url, ...(headers === undefined ? {} : { headers }), ...common(value, where, name) };
  }
  if (typeof value.command !== 'string' || value.command.length === 0) throw invalid(`${where} needs a command (stdio) or a url (Streamable HTTP)`, [name, ...(value.command === undefined ? [] : ['command'])]);
  if (value.args !== undefined && !(Array.isArray(value.args) && value.args.every((arg) => typeof arg === 'string'))) throw invalid(`${where}.args must be a list of strings`, [name, 'args']);
  if (value.cwd !== undefined && typeof value.cwd !== 'string') throw invalid(`${where}.cwd must be a string`, [name, 'cwd']);
  const env = stringMap(value.env, `${where}.env`, [name, 'env']);
  return {
    command: value.command,
    ...(value.args === undefined ? {} : { args: [...(value.args as string[])] }),
    ...(env === undefined ? {} : { env }),
    ...(value.cwd === undefined ? {} : { cwd: value.cwd as string }),
    ...common(value, where, name),
  };
}

/**
 * Validates the content of an MCP config file (already parsed from JSON):
 * `{"servers": {name: {command, args?, env?, cwd?} | {url, headers?}}}`, each
 * optionally with `timeoutMs` and `approval`. Throws `MCP_CONFIG_INVALID`.
 */
export function parseMcpConfig(value: unknown): McpServersConfig {
  if (!isPlainObject(value) || !isPlainObject(value.servers)) throw invalid('expected {"servers": {name: {...}}}');
  const servers: Record<string, McpServerConfig> = {};
  const seen = new Set<string>();
  for (const [name, config] of Object.entries(value.servers)) {
    // Tool names are case-insensitive, so two servers differing only in case would collide.
    if (seen.has(name.toLowerCase())) throw invalid(`two servers are named '${name}' (names are case-insensitive)`, [name]);
    seen.add(name.toLowerCase());
    servers[name] = validateServerConfig(name, config);
  }
  return servers;
}

/**
 * An MCP server's configuration with its `${NAME}` references filled from
 * the environment, the one rule behind `mcpServers:` in askloop.config.yaml
 * and `--mcp-config FILE` (the docs say the two formats are the same).
 *
 * References are filled only in `env` and `headers`, the two places a key
 * belongs: the MCP package redacts their values from every error. A
 * reference anywhere else (`args`, `command`, `cwd`, `url`) would reach the
 * server as the literal text `${NAME}`, and a key filled into a command line
 * is visible to every user of the machine, so it is refused, naming the field
 * and where the value belongs instead — unless the server's own `env` sets
 * NAME: then it is left for the server's shell (`sh -c '… "${TOKEN}"'`),
 * which reads it from there. A variable that is unset or empty is refused by
 * name, never started with an empty key.
 */
import type { McpServerConfig } from '@askloop/mcp';
import { ENV_REFERENCES, expandEnvReferences } from './find-secret.ts';

/** The server with `env` and `headers` filled in, or the first problem (worded to follow the server's name). */
export function fillServerEnvironment(server: McpServerConfig, env: Readonly<Record<string, string | undefined>>): { server: McpServerConfig } | { problem: string } {
  const misplaced = misplacedReference(server);
  if (misplaced !== undefined) return { problem: misplaced };
  const missing: string[] = [];
  const expand = (values: Readonly<Record<string, string>>): Record<string, string> => {
    const expanded = expandEnvReferences(values, env);
    missing.push(...expanded.missing);
    return expanded.values;
  };
  const copy: Record<string, unknown> = { ...server };
  if ('env' in server && server.env !== undefined) copy['env'] = expand(server.env);
  if ('headers' in server && server.headers !== undefined) copy['headers'] = expand(server.headers);
  if (missing.length > 0) {
    const names = [...new Set(missing)];
    return { problem: `needs the environment variable${names.length > 1 ? 's' : ''} ${names.join(', ')}; set ${names.length > 1 ? 'them' : 'it'} before running` };
  }
  return { server: copy as unknown as McpServerConfig };
}

/** Why a `${NAME}` outside `env` and `headers` is refused, naming the first such field, or undefined. */
function misplacedReference(server: McpServerConfig): string | undefined {
  const fields: [string, string | undefined][] =
    'url' in server ? [['url', server.url]] : [['command', server.command], ...(server.args ?? []).map((arg, index): [string, string] => [`args[${index}]`, arg]), ['cwd', server.cwd]];
  // A name the server's env sets is the server's own to expand (a shell command in args reads it from there).
  const own = 'env' in server && server.env !== undefined ? new Set(Object.keys(server.env)) : new Set<string>();
  for (const [field, value] of fields) {
    const reference = value === undefined ? undefined : [...value.matchAll(ENV_REFERENCES)].find(([, name]) => !own.has(name as string))?.[0];
    if (reference === undefined) continue;
    const instead = field === 'url' ? 'write the URL out, and send a key in headers' : 'pass the value to the server in env (most servers read their key from the environment)';
    return `${field} holds ${reference}, which is filled in only in env and headers; ${instead}`;
  }
  return undefined;
}

/**
 * The environment variables a file the CLI read names as holding secrets,
 * whatever their names. A `${NAME}` counts only where it is filled in: an MCP
 * server's `env` and `headers` (`mcpServers:` of askloop.config.yaml, an
 * `--mcp-config` file; `server-environment.ts`), where the variable's value is
 * handed to the server (`env: { AUTH: ${MY_SERVICE_CRED} }`). Anywhere else —
 * an agent's instructions or description, a plugin's options, a server's
 * `args` naming a variable its own `env` sets — it reaches its reader as the
 * literal text `${NAME}`, hands no value to anything, and counting it would
 * hide an ordinary value (a project name an instruction mentions) in every
 * reply, so in every program that runs. The system's own variables
 * (`HOME: ${HOME}`, `isOrdinaryVariable`) are passed on, not named as
 * secrets, but for a proxy setting with credentials in its URL, which is one.
 * And every variable a plugin entry's options name (`tokenEnv:
 * TRACKER_AUTH`, `variablesNamedIn`): the plugin reads its key from there.
 * The redactors take these values as they take those of variables named like
 * keys (`createSecretRedactor(env, secretNames)`), so a variable called
 * `MY_SERVICE_CRED` is hidden too.
 */
import type { McpServersConfig } from '@askloop/mcp';
import type { CommandIo } from '../io.ts';
import type { AskLoopConfig } from './askloop-config.ts';
import { ENV_REFERENCES } from './find-secret.ts';
import { isOrdinaryVariable } from './ordinary-variables.ts';
import { variablesNamedIn } from './plugin-option-secret.ts';

/**
 * The variables whose values `servers` are handed: every `${NAME}` in a server's `env` and `headers` values (the
 * only places one is filled in), but the system's ordinary ones (`isOrdinaryVariable`, which reads a proxy setting's
 * value in `env`, the environment they are filled from), each once.
 */
export function filledVariables(servers: McpServersConfig, env: CommandIo['env']): string[] {
  const names = new Set<string>();
  for (const server of Object.values(servers)) {
    const filled = [...Object.values(('env' in server ? server.env : undefined) ?? {}), ...Object.values(('headers' in server ? server.headers : undefined) ?? {})];
    for (const value of filled) {
      for (const [, name] of value.matchAll(ENV_REFERENCES)) if (!isOrdinaryVariable(name as string, env[name as string])) names.add(name as string);
    }
  }
  return [...names];
}

/**
 * The variables a loaded config names as holding secrets: those its MCP servers are handed (filled from `env`), and
 * those its plugin entries' options name.
 */
export function configSecretNames(config: AskLoopConfig, env: CommandIo['env']): string[] {
  return [...new Set([...filledVariables(config.mcpServers, env), ...config.plugins.flatMap((entry) => variablesNamedIn(entry.options))])];
}

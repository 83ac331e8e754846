/**
 * The environment variables a file the CLI read names as holding secrets,
 * whatever their names: every `${NAME}` written in it (an MCP server's
 * `env: { AUTH: ${MY_SERVICE_CRED} }`, a header, a plugin's options, an agent
 * field) and every variable a plugin entry's options name (`tokenEnv:
 * TRACKER_AUTH`, `variablesNamedIn`). The redactors take their values as they
 * take those of variables named like keys (`createSecretRedactor(env,
 * secretNames)`), so a variable called `MY_SERVICE_CRED` is hidden too.
 */
import type { AskLoopConfig } from './askloop-config.ts';
import { ENV_REFERENCES } from './find-secret.ts';
import { variablesNamedIn } from './plugin-option-secret.ts';

/** The names of every `${NAME}` in the strings of `value`, at any depth (a config, an agent, MCP servers), each once. */
export function referencedVariables(value: unknown): string[] {
  const names = new Set<string>();
  const walk = (item: unknown): void => {
    if (typeof item === 'string') for (const [, name] of item.matchAll(ENV_REFERENCES)) names.add(name as string);
    else if (Array.isArray(item)) item.forEach(walk);
    else if (typeof item === 'object' && item !== null) Object.values(item).forEach(walk);
  };
  walk(value);
  return [...names];
}

/** The variables a loaded config refers to: its `${NAME}` references anywhere, and what its plugin entries' options name. */
export function configSecretNames(config: AskLoopConfig): string[] {
  return [...new Set([...referencedVariables(config), ...config.plugins.flatMap((entry) => variablesNamedIn(entry.options))])];
}

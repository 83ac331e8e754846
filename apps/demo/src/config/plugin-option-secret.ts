/**
 * The `CONFIG_SECRET` fix for a key found in a `plugins:` entry's `options`.
 * The file's one secrets check (`findSecret`) finds it; its general fix
 * ("let the provider read its own variable", "refer to it as ${NAME}") does
 * not fit there: options reach the plugin's factory as written, so the
 * pattern is to name an environment variable in them (`apiKeyEnv:
 * ACME_API_KEY`), which the plugin reads when it needs the key. The
 * variables so named are then known to hold keys (`variablesNamedIn`).
 */
import type { SecretFinding } from './find-secret.ts';

/** Whether `path` lies in a plugin entry's options (`plugins[1].options.…`). */
export function inPluginOptions(path: readonly (string | number)[]): boolean {
  return path[0] === 'plugins' && path[2] === 'options';
}

/** The option that would name the variable: `apiKeyEnv` for `apiKey`, `tokenEnv` for `token`; `apiKeyEnv` for an upper-case name. */
function envOption(field: string): string {
  return /^[A-Z0-9_]+$/.test(field) ? 'apiKeyEnv' : `${field}Env`;
}

/** The message for `finding`, a secret under `plugins[N].options`. */
export function pluginOptionSecretMessage(finding: SecretFinding): string {
  const plugin = `plugins[${String(finding.path[1])}]`;
  const { kind } = finding;
  if (typeof kind === 'object') {
    const variable = /^[A-Z0-9_]+$/.test(kind.field) ? kind.field : 'ACME_API_KEY';
    // A `${NAME}` is filled in only in an MCP server's env and headers: here the plugin would get the text itself.
    const written = kind.reference ? ' (options reach the plugin as written: a ${NAME} here is not filled in)' : '';
    return `'${kind.field}' looks like a key; keys are never written to the config file${written}. Set the key in an environment variable and give the plugin the variable's name instead, e.g. ${envOption(kind.field)}: ${variable} (if ${plugin}'s plugin takes such an option; its documentation names it)`;
  }
  const what = kind === 'value' ? 'this value looks like an API key, a token or a bearer credential' : 'this URL has a password in it';
  return `${what}; keys and passwords are never written to the config file. Set it in an environment variable and give the plugin the variable's name instead, e.g. apiKeyEnv: ACME_API_KEY (if ${plugin}'s plugin takes such an option; its documentation names it)`;
}

/** A name of an environment variable, as an option ending in `Env` gives one. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The variables an entry's options name by the pattern above (`tokenEnv:
 * TRACKER_AUTH`, `apiKeyEnv: ACME_TEAM_KEY`, at any depth): they hold keys
 * whatever their names, so what the plugin says is scrubbed of their values.
 */
export function variablesNamedIn(options: unknown): string[] {
  const names: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (/Env$/.test(key) && typeof item === 'string' && VARIABLE_NAME.test(item)) names.push(item);
        else walk(item);
      }
    }
  };
  walk(options);
  return names;
}

/**
 * The controller refuses a session whose agent holds a known secret in what
 * the agent IS — its model id, a policy pattern or grant, an agent it may
 * ask, a stop sequence — rather than in its free text (`LOOP_AGENT_INVALID`
 * naming the field, never the value): stored with `[REDACTED]` there, it
 * would be another agent. Its advice is a library user's ("use a longer one,
 * or leave it out of secrets()"); a CLI user passes no `secrets()`: the
 * CLI's are the values of environment variables (`environmentSecretsOf`).
 * This says which variable's value it is, by name, why askloop counts it as
 * a secret, and what to do.
 */
import { isLoopError, type AgentDefinition } from '@askloop/controller';
import { CliError } from '../cli-error.ts';
import type { CommandIo } from '../io.ts';
import { knownSecretNames } from '../known-secret-names.ts';
import { environmentSecretIn, namedLikeKey } from '../redact-secrets.ts';

/** The controller's words for this refusal, after the agent and the field it names (its library advice follows). */
const REFUSAL = ' holds the value of a known secret';

/**
 * The agent's free text, which the controller hides a secret in like any other text (the agent stays the same
 * agent): a value found only there is not what the refusal is about.
 */
const FREE_TEXT = new Set(['instructions', 'description']);

/** The first variable (named like a key, or in `secretNames`) whose value a string or map key under `value` holds. */
function variableIn(value: unknown, env: CommandIo['env'], secretNames: readonly string[]): string | undefined {
  if (typeof value === 'string') return environmentSecretIn(value, env, secretNames);
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = (typeof key === 'string' ? environmentSecretIn(key, env, secretNames) : undefined) ?? variableIn(item, env, secretNames);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * `error` said for a CLI user when it is the controller's refusal of `agent` for a known secret in what it is and the
 * value is an environment variable's: the variable by name and what to do, in place of the library's advice;
 * undefined otherwise (the error is reported as it is).
 */
export function secretInAgentError(error: unknown, agent: AgentDefinition, io: Pick<CommandIo, 'env' | 'secretNames'>): CliError | undefined {
  if (!isLoopError(error) || error.code !== 'LOOP_AGENT_INVALID' || !error.message.includes(REFUSAL)) return undefined;
  const secretNames = knownSecretNames(io);
  const fields = Object.entries(agent).filter(([key]) => !FREE_TEXT.has(key));
  const variable = variableIn(Object.fromEntries(fields), io.env, secretNames);
  if (variable === undefined) return undefined;
  // `agent 'NAME': FIELD`, as the controller names them; the rest is said for a CLI user, who passes no secrets().
  const field = error.message.slice(0, error.message.indexOf(REFUSAL));
  const why = namedLikeKey(variable)
    ? `its name is like a key's (…_KEY, …_TOKEN, …_SECRET, …_PASSWORD)`
    : `a file this command read hands it to an MCP server (\${${variable}} in a server's env or headers) or names it in a plugin's options (tokenEnv: ${variable})`;
  const fix = namedLikeKey(variable) ? `give ${variable} a longer, unguessable value (a real key is one), or leave it unset for this command` : `give ${variable} a longer, unguessable value, or stop referring to it there`;
  return CliError.fromLoopError({
    code: error.code,
    message: `${field} holds the value of the environment variable ${variable}, a secret to askloop because ${why}; the sessions file would keep [REDACTED] there, so the session would run another agent, and nothing was stored. The value is short or plain enough to be an ordinary word of the agent: ${fix}`,
  });
}

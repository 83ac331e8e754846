/**
 * The controller refuses a session whose agent holds a known secret in what
 * the agent IS — its model id, a policy pattern or grant, an agent it may
 * ask, a stop sequence — rather than in its free text (`LOOP_AGENT_INVALID`
 * naming the field, never the value): stored with `[REDACTED]` there, it
 * would be another agent. Its advice is a library user's ("use a longer one,
 * or leave it out of secrets()"); a CLI user passes no `secrets()`: the
 * CLI's are the values of environment variables (`environmentSecretsOf`).
 * This says which variable's value (or URL's password) the named field
 * holds, by name, why askloop counts it as a secret, and what to do.
 */
import { isLoopError, type AgentDefinition } from '@askloop/controller';
import { CliError } from '../cli-error.ts';
import type { CommandIo } from '../io.ts';
import { knownSecretNames } from '../known-secret-names.ts';
import { environmentSecretIn, environmentUrlPasswordIn, namedLikeKey } from '../redact-secrets.ts';

/** The controller's words for this refusal, after the agent and the field it names (its library advice follows). */
const REFUSAL = ' holds the value of a known secret';

/**
 * The agent's free text, which the controller hides a secret in like any other text (the agent stays the same
 * agent): a value found only there is not what the refusal is about.
 */
const FREE_TEXT = new Set(['instructions', 'description']);

/**
 * The strings under `value` at `path` (the controller's wording of a field: `policy.grants[0]`, `model`), each with
 * its path, map keys with `(its key …)` after their map's path, as the controller names a changed key.
 */
function* stringsUnder(value: unknown, path: string): Generator<readonly [path: string, text: string]> {
  if (typeof value === 'string') yield [path, value];
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* stringsUnder(item, `${path}[${index}]`);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    yield [`${path} (its key `, key];
    yield* stringsUnder(item, `${path}.${key}`);
  }
}

/** A variable whose value is a secret to askloop, and how: all of it, or the password of the URL it holds. */
interface Holder {
  readonly variable: string;
  readonly urlPassword: boolean;
}

/** The variable whose value (named like a key, or in `secretNames`), or whose URL's password, `text` holds. */
function holderIn(text: string, env: CommandIo['env'], secretNames: readonly string[]): Holder | undefined {
  const whole = environmentSecretIn(text, env, secretNames);
  if (whole !== undefined) return { variable: whole, urlPassword: false };
  const url = environmentUrlPasswordIn(text, env);
  return url === undefined ? undefined : { variable: url, urlPassword: true };
}

/**
 * The variable whose secret the field `named` (`agent 'NAME': PATH`, as the refusal begins) holds: only that field,
 * so a value elsewhere in the agent — found there first, while the controller refused the field for another secret (a
 * model's key, a key shape) — is never named for it.
 */
function holderOfField(agent: AgentDefinition, named: string, env: CommandIo['env'], secretNames: readonly string[]): Holder | undefined {
  for (const [key, value] of Object.entries(agent)) {
    if (FREE_TEXT.has(key)) continue;
    for (const [path, text] of stringsUnder(value, key)) {
      // A key's path ends in `(its key `, the controller's words for it following: any key of that map may be it.
      const isKey = path.endsWith('(its key ');
      if (!(isKey ? named.includes(`: ${path}`) : named.endsWith(`: ${path}`))) continue;
      const found = holderIn(text, env, secretNames);
      if (found !== undefined || !isKey) return found;
    }
  }
  return undefined;
}

/** Why askloop counts `holder`'s value as a secret, and what to do. */
function whyAndFix({ variable, urlPassword }: Holder): { what: string; why: string; fix: string } {
  if (urlPassword) {
    return {
      what: `the password of the URL in the environment variable ${variable}`,
      why: `the password of any variable's URL is hidden`,
      fix: `give that URL a longer, unguessable password`,
    };
  }
  const what = `the value of the environment variable ${variable}`;
  if (namedLikeKey(variable)) {
    return { what, why: `its name is like a key's (…_KEY, …_TOKEN, …_SECRET, …_PASSWORD)`, fix: `give ${variable} a longer, unguessable value (a real key is one), or leave it unset for this command` };
  }
  return {
    what,
    why: `a file this command read hands it to an MCP server (\${${variable}} in a server's env or headers) or names it in a plugin's options (tokenEnv: ${variable})`,
    fix: `give ${variable} a longer, unguessable value, or stop referring to it there`,
  };
}

/**
 * `error` said for a CLI user when it is the controller's refusal of `agent` for a known secret in what it is and the
 * value is an environment variable's: the variable by name and what to do, in place of the library's advice;
 * undefined otherwise (the error is reported as it is).
 */
export function secretInAgentError(error: unknown, agent: AgentDefinition, io: Pick<CommandIo, 'env' | 'secretNames'>): CliError | undefined {
  if (!isLoopError(error) || error.code !== 'LOOP_AGENT_INVALID' || !error.message.includes(REFUSAL)) return undefined;
  // `agent 'NAME': FIELD`, as the controller names them; the rest is said for a CLI user, who passes no secrets().
  const field = error.message.slice(0, error.message.indexOf(REFUSAL));
  const holder = holderOfField(agent, field, io.env, knownSecretNames(io));
  if (holder === undefined) return undefined;
  const { what, why, fix } = whyAndFix(holder);
  return CliError.fromLoopError({
    code: error.code,
    message: `${field} holds ${what}, a secret to askloop because ${why}; the sessions file would keep [REDACTED] there, so the session would run another agent, and nothing was stored. The ${holder.urlPassword ? 'password' : 'value'} is short or plain enough to be an ordinary word of the agent: ${fix}`,
  });
}

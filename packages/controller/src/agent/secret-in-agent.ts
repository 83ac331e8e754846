/**
 * A known secret inside what an agent IS — its model id, policy patterns,
 * grants, the agents it may ask, its stop sequences — rather than in its
 * free text (`instructions`, `description`). The controller hides the known
 * secrets in everything it stores (`secret-hiding-store.ts`), the session's
 * agent too, and runs the session on what is stored: hidden there, the
 * secret would turn `tool.test.*` into `tool.[REDACTED].*` and the session
 * into one of another agent, which no turn can run (it used to be stored so,
 * then fail with a pattern error naming `[REDACTED]`). That only happens to a
 * secret short or plain enough to be an ordinary word (`test`, `postgres`),
 * so the session is refused before anything is stored, naming the field.
 */
import type { JsonValue } from '@askloop/interpreter';
import { LoopError } from '../errors/loop-error.ts';
import type { Redact } from '../loop/tool-output-redaction.ts';

/** The agent's free text: a secret there is hidden like any other text, and the agent stays the same agent. */
const FREE_TEXT = new Set(['instructions', 'description']);

/**
 * Throws `LOOP_AGENT_INVALID` when `redact` changes a field of `definition` (an agent definition, as stored) other
 * than its free text, naming the first such field's path; nothing when `redact` is undefined (no secret known).
 */
export function refuseSecretInAgent(name: string, definition: JsonValue, redact: Redact | undefined): void {
  if (redact === undefined || definition === null || typeof definition !== 'object' || Array.isArray(definition)) return;
  for (const [key, value] of Object.entries(definition)) {
    if (FREE_TEXT.has(key)) continue;
    const path = changedPath(value, redact, key);
    if (path !== undefined) {
      throw new LoopError({
        code: 'LOOP_AGENT_INVALID',
        message: `agent '${redact(name)}': ${path} holds the value of a known secret (the loop's secrets() or the model's keys), which the store would keep as [REDACTED] there, so the session would run another agent; nothing was stored. A secret that short or that plain matches ordinary text: use a longer one, or leave it out of secrets()`,
      });
    }
  }
}

/** The path (`policy.allow[0]`) of the first string or map key under `value` that `redact` changes, or undefined. */
function changedPath(value: JsonValue, redact: Redact, path: string): string | undefined {
  if (typeof value === 'string') return redact(value) === value ? undefined : path;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = changedPath(value[index] as JsonValue, redact, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (redact(key) !== key) return `${path} (its key ${JSON.stringify(redact(key))})`;
    const found = changedPath(item, redact, `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

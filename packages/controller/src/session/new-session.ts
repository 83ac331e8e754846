/**
 * The record of a new session: the resolved agent (so resume and replay need
 * no configuration) and the task as USERDATA, validated (seed 003 §3.5). A
 * task that is not valid USERDATA gives a session halted `ERR_USERDATA_SCHEMA`
 * (`ERR_ENV_SIZE` when it is too large for an envelope)
 * before any turn: a HALT is data, also here.
 */
import { canonicalJson, composeEnvelope, isEnvelopeError, MAX_SECTION_BYTES, validateUserdata } from '@askloop/envelope';
import type { JsonValue } from '@askloop/interpreter';
import type { ResolvedAgentDefinition } from '../agent/agent-definition.ts';
import type { HaltReason } from '../decide/halt-reason.ts';
import type { RunLoopOptions } from '../ask-loop.ts';
import { ACTIONS_PLACEHOLDER } from '../loop/compose-turn.ts';
import type { SessionRecord } from '../store/transcript-store.ts';

/** Why a task too large for an envelope halts its session, and what to do instead. */
function oversizedTaskMessage(userdataJson: string): string {
  const bytes = Buffer.byteLength(userdataJson, 'utf8');
  return (
    `the task is too large for an envelope: its USERDATA is ${bytes.toLocaleString('en-US')} bytes of JSON, and every turn's envelope carries it in a section of at most ` +
    `${MAX_SECTION_BYTES.toLocaleString('en-US')} bytes (${MAX_SECTION_BYTES / 1024} KiB), its line end included. Keep the task short and put large data where a tool reads it (a file under the agent's fs root, memory)`
  );
}

/** Builds the session record for `task`. */
export function newSession(agent: ResolvedAgentDefinition, task: RunLoopOptions['task'], sid: string, now: string, parentSid?: string): SessionRecord {
  let userdata: unknown = task;
  let problem: string | undefined;
  let reason: HaltReason = 'ERR_USERDATA_SCHEMA';
  try {
    userdata = validateUserdata(typeof task === 'string' ? { subject: task, fields: {} } : task);
    // Every turn's envelope carries USERDATA: one that cannot fit in an envelope (seed 003 §3.4, 512 KiB a
    // section) would make each turn's compose throw, so the session halts now with the envelope's own code.
    composeEnvelope({ userdata: canonicalJson(userdata), actions: ACTIONS_PLACEHOLDER });
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
    if (isEnvelopeError(error) && error.code === 'ERR_ENV_SIZE') {
      reason = 'ERR_ENV_SIZE';
      // The envelope's own message names a line of an envelope the caller never saw: say it is the task.
      problem = oversizedTaskMessage(canonicalJson(userdata));
    }
  }
  return {
    sid,
    agent: agent.name,
    agentDefinition: agent as unknown as JsonValue,
    userdata: JSON.parse(JSON.stringify(userdata ?? null)) as JsonValue,
    status: problem === undefined ? 'running' : 'halted',
    createdAt: now,
    updatedAt: now,
    turns: 0,
    ...(problem === undefined ? {} : { lastDecision: { kind: 'HALT', reason, message: problem } }),
    ...(parentSid === undefined ? {} : { parentSid }),
  };
}

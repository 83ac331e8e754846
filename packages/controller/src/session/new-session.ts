/**
 * The record of a new session: the resolved agent (so resume and replay need
 * no configuration) and the task as USERDATA, validated (seed 003 §3.5). A
 * task that is not valid USERDATA gives a session halted `ERR_USERDATA_SCHEMA`
 * before any turn: a HALT is data, also here.
 */
import { validateUserdata } from '@askloop/envelope';
import type { JsonValue } from '@askloop/interpreter';
import type { ResolvedAgentDefinition } from '../agent/agent-definition.ts';
import type { RunLoopOptions } from '../ask-loop.ts';
import type { SessionRecord } from '../store/transcript-store.ts';

/** Builds the session record for `task`. */
export function newSession(agent: ResolvedAgentDefinition, task: RunLoopOptions['task'], sid: string, now: string, parentSid?: string): SessionRecord {
  let userdata: unknown = task;
  let problem: string | undefined;
  try {
    userdata = validateUserdata(typeof task === 'string' ? { subject: task, fields: {} } : task);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
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
    ...(problem === undefined ? {} : { lastDecision: { kind: 'HALT', reason: 'ERR_USERDATA_SCHEMA', message: problem } }),
    ...(parentSid === undefined ? {} : { parentSid }),
  };
}

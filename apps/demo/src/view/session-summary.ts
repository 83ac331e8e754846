/**
 * The row the session list shows: what a person scans for (task, status,
 * turns, age) without the agent definition or USERDATA fields.
 */
import { sessionTask, type LoopDecision, type SessionRecord, type SessionStatus } from '@askloop/controller';

/** One session as `/api/sessions` lists it. */
export interface SessionSummary {
  readonly sid: string;
  readonly agent: string;
  /** USERDATA's `subject` (the task as given), or null when it has none. */
  readonly task: string | null;
  readonly status: SessionStatus;
  readonly turns: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly lastDecision: LoopDecision | null;
  readonly parentSid: string | null;
}

/** The list row of `session`. */
export function sessionSummary(session: SessionRecord): SessionSummary {
  return {
    sid: session.sid,
    agent: session.agent,
    task: sessionTask(session) ?? null,
    status: session.status,
    turns: session.turns,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    lastDecision: session.lastDecision ?? null,
    parentSid: session.parentSid ?? null,
  };
}

/**
 * Sessions written straight into a store, for the viewer tests that need
 * what a scripted run cannot cheaply make: hundreds of turns, many sessions,
 * chosen ids (to make two ids share a prefix), or a reply with any
 * character in it. The records are the controller's own samples, so they
 * have every field a real turn has. The store is a real sessions file
 * ({@link sessionsFileIn}), which the command under test then reads.
 */
import { createSqliteTranscriptStore, type SessionRecord, type SessionStatus, type TranscriptStore, type TurnRecord } from '@askloop/controller';
import { sampleSession, sampleTurn } from '@askloop/controller/testing';
import { join } from 'node:path';

/** What {@link seedSession} writes. */
export interface SeedOptions {
  readonly agent?: string;
  readonly task?: string;
  readonly status?: SessionStatus;
  /** How many decided turns (default 0). */
  readonly turns?: number;
  /** The emits of every turn (default one ordinary line). */
  readonly emits?: readonly string[];
  /** When the session was created: the list is newest first by this (default now). */
  readonly createdAt?: string;
  /** The session's last decision (default none). */
  readonly lastDecision?: SessionRecord['lastDecision'];
}

/** The `index`th turn of `sid`: CONTINUE, with token and latency figures that vary, so the charts have bars of different heights. */
export function seedTurn(sid: string, index: number, emits: readonly string[] = [`turn ${index} says hello`]): TurnRecord {
  const model = 200 + ((index * 37) % 900);
  return sampleTurn(sid, index, {
    reply: { text: `reply ${index}`, provider: 'scripted', model: 'm', inputTokens: 1000 + index * 10, outputTokens: 20 + (index % 50), costUsd: 0.001, finishReason: 'stop', latencyMs: model, attempts: 1 },
    emits: [...emits],
    failure: undefined,
    approval: undefined,
    usage: { fuel: 40, toolCalls: 2, inputTokens: 1000 + index * 10, outputTokens: 20 + (index % 50), costUsd: 0.001 },
    timings: { compose: 1, model, execute: 3, persist: 1, total: model + 5 },
    control: { dialect: 'v4', signal: null, result: null, lints: [] } as unknown as TurnRecord['control'],
    decision: { kind: 'CONTINUE' },
  });
}

/** Creates session `sid` in `store` with `options.turns` decided turns; returns the sid. */
export async function seedSession(store: TranscriptStore, sid: string, options: SeedOptions = {}): Promise<string> {
  const at = options.createdAt ?? new Date().toISOString();
  const session: SessionRecord = sampleSession(sid, {
    agent: options.agent ?? 'worker',
    userdata: { subject: options.task ?? `task of ${sid}`, fields: {} },
    status: options.status ?? 'running',
    createdAt: at,
    updatedAt: at,
    lastDecision: options.lastDecision,
  });
  await store.createSession(session);
  const count = options.turns ?? 0;
  for (let index = 1; index <= count; index++) await store.saveTurn(seedTurn(sid, index, options.emits), { ...session, turns: index });
  return sid;
}

/** A new sessions file `name` in `folder` (a test's temporary folder), opened for seeding: its path and store; close the store before a command reads the file. */
export function sessionsFileIn(folder: string, name = 'sessions.db'): { readonly db: string; readonly store: ReturnType<typeof createSqliteTranscriptStore> } {
  const db = join(folder, name);
  return { db, store: createSqliteTranscriptStore(db) };
}

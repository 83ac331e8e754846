/**
 * A session file written by an earlier transcript schema (version 2: no
 * session tally, turns in a WITHOUT ROWID table) still opens — read-only as
 * it is, and writable after the migrations — and its session resumes: the
 * step rebuilds the tally from the stored turns once, then keeps it in the row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxPool } from '@askloop/interpreter';
import { applyMigrations, openDatabase } from '@askloop/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { tallyOf } from '../src/decide/loop-tally.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { TRANSCRIPT_MIGRATION_OWNER, TRANSCRIPT_MIGRATIONS } from '../src/store/sqlite-transcript-migrations.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-upgrade-'));
const pool = createSandboxPool({ workers: 1 });
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m', ceilings: { maxTurns: 5 } };

describe('a transcript file of schema version 2', () => {
  it('opens read-only and writable, and its session resumes with the same decisions', async () => {
    // Two turns recorded by a host (in memory), then written into a file with the version-2 tables and columns.
    const memory = createMemoryTranscriptStore();
    const recorder = createAskLoop({ plugins: [testPlugin({ m: [program('emit "one"'), program('emit "two"')] })], store: memory, pool });
    const sid = await recorder.create({ agent, task: 'upgrade' });
    await recorder.step(sid);
    await recorder.step(sid);
    const { tally: _tally, ...oldSession } = (await memory.getSession(sid))!;
    const turns = await memory.listTurns(sid);
    await recorder.close();

    const file = join(dir, 'v2.db');
    const database = openDatabase(file);
    expect(applyMigrations(database, TRANSCRIPT_MIGRATION_OWNER, TRANSCRIPT_MIGRATIONS.slice(0, 2))).toBe(2);
    database
      .prepare('INSERT INTO controller_sessions (sid, agent, agent_definition, userdata, status, created_at, updated_at, turns, last_decision, parent_sid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)')
      .run(oldSession.sid, oldSession.agent, JSON.stringify(oldSession.agentDefinition), JSON.stringify(oldSession.userdata), oldSession.status, oldSession.createdAt, oldSession.updatedAt, oldSession.turns);
    const insertTurn = database.prepare('INSERT INTO controller_turns (sid, turn_index, loop_id, kind, phase, started_at, ended_at, decision, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (const turn of turns) insertTurn.run(sid, turn.turnIndex, turn.loopId, turn.kind, turn.phase, turn.startedAt, turn.endedAt ?? null, turn.decision?.kind ?? null, JSON.stringify(turn));
    database.close();

    // A viewer looks at it without migrating it.
    const reader = createSqliteTranscriptStore(file, { readOnly: true });
    expect(reader.schemaVersion).toBe(2);
    expect(await reader.getSession(sid)).toEqual(oldSession);
    expect(await reader.listTurns(sid)).toEqual(turns);
    await reader.close();

    // A host opens it (migrating it) and resumes the session.
    const store = createSqliteTranscriptStore(file);
    expect(store.schemaVersion).toBe(TRANSCRIPT_MIGRATIONS.length);
    expect(await store.getSession(sid)).toEqual(oldSession);
    // Version 4 moved the turns into a rowid table (records kept on their page, not in overflow pages).
    const turnsTable = store.database.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'controller_turns'").get() as { sql: string };
    expect(turnsTable.sql).not.toMatch(/WITHOUT ROWID/i);
    expect(await store.listTurns(sid)).toEqual(turns);
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> three"')] })], store, pool });
    const result = await loop.resume(sid);
    expect(result).toMatchObject({ status: 'DONE', result: 'three', turns: 3 });
    expect(result.decisions).toEqual([
      { turn: 1, decision: 'CONTINUE', reason: null },
      { turn: 2, decision: 'CONTINUE', reason: null },
      { turn: 3, decision: 'DONE', reason: null },
    ]);
    const after = await store.listTurns(sid);
    expect(after.slice(0, 2)).toEqual(turns);
    expect((await store.getSession(sid))?.tally).toEqual(tallyOf(after));
    await loop.close();
  });

  it('migrates a file holding a turn whose session row is gone (deleted by hand), keeping that turn', async () => {
    const file = join(dir, 'orphan.db');
    const database = openDatabase(file);
    expect(applyMigrations(database, TRANSCRIPT_MIGRATION_OWNER, TRANSCRIPT_MIGRATIONS.slice(0, 3))).toBe(3);
    // As the sqlite3 shell leaves it: foreign keys are not enforced there.
    database.exec('PRAGMA foreign_keys = OFF');
    const record = { sid: 'gone', loopId: 'l', turnIndex: 1, kind: 'normal', phase: 'decided', startedAt: '2026-01-01T00:00:00.000Z', system: 's', envelope: 'e', lints: [], diagnostics: [], emits: [], whispers: [], output: '', scratchpad: '', toolCalls: [], usage: { fuel: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 }, timings: {}, digest: null };
    database
      .prepare('INSERT INTO controller_turns (sid, turn_index, loop_id, kind, phase, started_at, ended_at, decision, record) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?)')
      .run('gone', 1, 'l', 'normal', 'decided', record.startedAt, JSON.stringify(record));
    database.close();
    const store = createSqliteTranscriptStore(file);
    expect(store.schemaVersion).toBe(TRANSCRIPT_MIGRATIONS.length);
    expect(await store.listTurns('gone')).toEqual([record]);
    await store.close();
  });

  it('re-prepares the recorded reply of a paused turn whose record still carries the checked program an older version saved', async () => {
    const store = createMemoryTranscriptStore();
    const deployer = { name: 'deployer', model: 'scripted:m', policy: { allow: ['tool.test.*'] } };
    const other = { name: 'other', model: 'scripted:o' };
    // The checked program of another session's turn (a plugin hook sees it), to plant in the paused record.
    let checked: unknown;
    const capture = definePlugin({ name: 'capture', specificationVersion: 'v1', hooks: { programChecked: (program) => void (checked ??= program) } });
    const models = { m: [program('set out = tool.test.Deploy("prod")', 'emit "<<<LOOP:DONE>>> " + out')], o: [program('emit "<<<LOOP:DONE>>> from a stored program"')] };
    const loop = createAskLoop({ plugins: [testPlugin(models), capture], store, pool });
    expect(await loop.run({ agent: other, task: 'other' })).toMatchObject({ status: 'DONE', result: 'from a stored program' });
    expect(await loop.run({ agent: deployer, task: 'deploy', sid: 'paused' })).toMatchObject({ status: 'PAUSED', reason: 'AWAITING_APPROVAL' });
    // Before this version the paused record held its checked program (as JSON); here one of another source, so
    // that running it (instead of preparing the recorded reply again) shows.
    const last = (await store.lastTurn('paused'))!;
    await store.saveTurn({ ...last, prepared: JSON.parse(JSON.stringify(checked)) });
    expect(await loop.approve('paused')).toMatchObject({ status: 'DONE', result: 'deployed prod' });
    await loop.close();
  });
});

describe('a transcript file of schema version 5 (before the task column)', () => {
  it('searches its sessions read-only, and writable after the migration fills each task from USERDATA', async () => {
    let deep: { [key: string]: unknown } = { end: true };
    for (let level = 0; level < 1100; level += 1) deep = { next: deep };
    const rows: [sid: string, userdata: string][] = [
      ['plain', JSON.stringify({ subject: 'Write the Report' })],
      ['nul', JSON.stringify({ subject: 'before \u0000 after' })],
      ['deep', JSON.stringify({ subject: 'deep one', fields: { deep } })],
      ['number', JSON.stringify({ subject: 987654 })],
      // Edited by hand: not JSON. The migration must not fail on it.
      ['edited', '{"subject": "broken'],
    ];
    const file = join(dir, 'v5.db');
    const database = openDatabase(file);
    expect(applyMigrations(database, TRANSCRIPT_MIGRATION_OWNER, TRANSCRIPT_MIGRATIONS.slice(0, 5))).toBe(5);
    const insert = database.prepare("INSERT INTO controller_sessions (sid, agent, agent_definition, userdata, status, created_at, updated_at, turns) VALUES (?, 'worker', '{}', ?, 'done', ?, ?, 1)");
    for (const [index, [sid, userdata]] of rows.entries()) insert.run(sid, userdata, `2026-01-01T00:00:0${index}.000Z`, `2026-01-01T00:00:0${index}.000Z`);
    // More sessions than the migration reads at a time, older than the rows above.
    for (let index = 0; index < 1100; index += 1) insert.run(`bulk-${index}`, JSON.stringify({ subject: `bulk task ${index}` }), '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z');
    database.close();

    const searches = async (store: ReturnType<typeof createSqliteTranscriptStore>) => ({
      report: (await store.listSessions({ search: 'REPORT' })).map((session) => session.sid),
      after: (await store.listSessions({ search: 'after' })).map((session) => session.sid),
      deep: (await store.listSessions({ search: 'deep one' })).map((session) => session.sid),
      replaced: (await store.listSessions({ search: '\uFFFD' })).map((session) => session.sid),
      number: (await store.listSessions({ search: '987654' })).map((session) => session.sid),
      // Counted by the same condition: 1,100 bulk sessions hold "task" in theirs.
      counted: [await store.countSessions({ search: 'report' }), await store.countSessions({ search: 'bulk TASK' }), await store.countSessions({})],
    });
    const expected = { report: ['plain'], after: ['nul'], deep: ['deep'], replaced: ['nul'], number: [], counted: [1, 1100, 1105] };

    // A viewer searches it without migrating it: the task is read out of USERDATA (the hand-edited row reads as no task).
    const reader = createSqliteTranscriptStore(file, { readOnly: true });
    expect(reader.schemaVersion).toBe(5);
    expect(await searches(reader)).toEqual(expected);
    expect((await reader.listSessions({ search: 'broken' })).map((session) => session.sid)).toEqual([]);
    await reader.close();

    // A host migrates it: each row's task is filled by the code that writes it, the hand-edited row keeps ''.
    const writer = createSqliteTranscriptStore(file);
    expect(writer.schemaVersion).toBe(TRANSCRIPT_MIGRATIONS.length);
    expect(await searches(writer)).toEqual(expected);
    expect((await writer.listSessions({ search: 'broken' })).map((session) => session.sid)).toEqual([]);
    const tasks = writer.database.prepare('SELECT sid, task FROM controller_sessions ORDER BY seq').all();
    expect(tasks.slice(0, 5).map((row) => [row.sid, row.task])).toEqual([['plain', 'Write the Report'], ['nul', 'before \uFFFD after'], ['deep', 'deep one'], ['number', ''], ['edited', '']]);
    expect(tasks.slice(5).filter((row, index) => row.task === `bulk task ${index}`)).toHaveLength(1100);
    await writer.close();

    // And read-only again, now through the column.
    const later = createSqliteTranscriptStore(file, { readOnly: true });
    expect(await searches(later)).toEqual(expected);
    await later.close();
  });
});

/**
 * The transcript store conformance table (`@askloop/controller/testing`) on
 * the memory store and on the SQLite store (a real temp file each case), then
 * what only a file can show: records survive close and reopen, one file is
 * shared by the transcript and the tools' stores (one connection or several),
 * and `createAskLoop` puts the tools' stores on the transcript's file.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyMigrations, openDatabase, openSqliteStore } from '@askloop/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { TRANSCRIPT_MIGRATION_OWNER, TRANSCRIPT_MIGRATIONS } from '../src/store/sqlite-transcript-migrations.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import { sampleSession, sampleTurn, transcriptStoreCases } from '../src/testing/index.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-transcript-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = (): string => join(dir, `store-${++files}.db`);

describe('transcript store conformance: memory', () => {
  it.each(transcriptStoreCases.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) => testCase.run(createMemoryTranscriptStore));
});

describe('transcript store conformance: SQLite file', () => {
  it.each(transcriptStoreCases.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) => testCase.run(() => createSqliteTranscriptStore(freshFile())));
});

describe('SQLite transcript store', () => {
  it('keeps sessions and turns across close and reopen', async () => {
    const file = freshFile();
    const first = createSqliteTranscriptStore(file);
    await first.createSession(sampleSession('kept'));
    await first.saveTurn(sampleTurn('kept', 1));
    await first.updateSession(sampleSession('kept', { status: 'done', turns: 1, lastDecision: { kind: 'DONE', result: 'ok' } }));
    await first.close();
    await first.close();
    const again = createSqliteTranscriptStore(file);
    expect(again.schemaVersion).toBe(TRANSCRIPT_MIGRATIONS.length);
    expect(await again.getSession('kept')).toEqual(sampleSession('kept', { status: 'done', turns: 1, lastDecision: { kind: 'DONE', result: 'ok' } }));
    expect(await again.listTurns('kept')).toEqual([sampleTurn('kept', 1)]);
    expect(String((again.database.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode)).toBe('wal');
    await again.close();
  });

  it('shares one file with the tools\' stores, on one connection and across connections', async () => {
    const file = freshFile();
    const transcript = createSqliteTranscriptStore(file);
    const tools = openSqliteStore(transcript.database);
    await transcript.createSession(sampleSession('shared'));
    expect(await tools.memory.cas('cursor', 0, 'one')).toEqual({ ok: true, version: 1 });
    // Closing the tools' store leaves the shared connection open.
    tools.close();
    await transcript.saveTurn(sampleTurn('shared', 1));

    // Two more connections on the same file, in either order of owners.
    const otherTools = openSqliteStore(file);
    const otherTranscript = createSqliteTranscriptStore(file);
    expect(await otherTools.memory.get('cursor')).toEqual({ value: 'one', version: 1 });
    expect(await otherTranscript.listTurns('shared')).toEqual([sampleTurn('shared', 1)]);
    expect(await otherTools.memory.cas('cursor', 1, 'two')).toEqual({ ok: true, version: 2 });
    expect(await transcript.openToolStores().memory.get('cursor')).toEqual({ value: 'two', version: 2 });
    const owners = transcript.database.prepare('SELECT owner, MAX(version) AS version FROM schema_migrations GROUP BY owner ORDER BY owner').all();
    expect(owners.map((row) => row.owner)).toEqual(['controller', 'tools']);
    otherTools.close();
    await otherTranscript.close();
    await transcript.close();
  });

  it('uses a connection it is given and leaves it open on close', async () => {
    const database = openDatabase(freshFile());
    const tools = openSqliteStore(database);
    const store = createSqliteTranscriptStore(database);
    await store.createSession(sampleSession('given'));
    await store.close();
    expect(database.isOpen).toBe(true);
    expect((database.prepare('SELECT COUNT(*) AS n FROM controller_sessions').get() as { n: number }).n).toBe(1);
    tools.close();
    database.close();
  });

  it('refuses a file whose controller schema is newer (LOOP_STORE_ERROR) and fails closed use the same way', async () => {
    const file = freshFile();
    const database = openDatabase(file);
    applyMigrations(database, TRANSCRIPT_MIGRATION_OWNER, [...TRANSCRIPT_MIGRATIONS, { version: TRANSCRIPT_MIGRATIONS.length + 1, name: 'from the future', sql: 'CREATE TABLE controller_future (x INTEGER)' }]);
    database.close();
    expect(() => createSqliteTranscriptStore(file)).toThrow(expect.objectContaining({ code: 'LOOP_STORE_ERROR', message: expect.stringContaining('newer') }));
    const closed = createSqliteTranscriptStore(freshFile());
    await closed.close();
    await expect(closed.getSession('x')).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR' });
  });

  it('names the file once in an open error, whichever part of the open failed', () => {
    const occurrences = (text: string, part: string): number => text.split(part).length - 1;
    const missing = join(dir, 'no-such-folder', 'store.db');
    const unopenable = (() => {
      try {
        createSqliteTranscriptStore(missing);
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(unopenable).toMatchObject({ code: 'LOOP_STORE_ERROR' });
    expect(occurrences(String(unopenable?.message), missing)).toBe(1);
    const newer = freshFile();
    const database = openDatabase(newer);
    applyMigrations(database, TRANSCRIPT_MIGRATION_OWNER, [...TRANSCRIPT_MIGRATIONS, { version: TRANSCRIPT_MIGRATIONS.length + 1, name: 'from the future', sql: 'CREATE TABLE controller_future (x INTEGER)' }]);
    database.close();
    expect(() => createSqliteTranscriptStore(newer)).toThrow(expect.objectContaining({ message: expect.stringContaining(`open of ${newer}`) }));
  });

  it('opens a file read-only: reads what a writer saves, refuses writes, never creates or migrates', async () => {
    const file = freshFile();
    const writer = createSqliteTranscriptStore(file);
    await writer.createSession(sampleSession('seen'));
    const reader = createSqliteTranscriptStore(file, { readOnly: true });
    expect(reader.schemaVersion).toBe(TRANSCRIPT_MIGRATIONS.length);
    expect(await reader.getSession('seen')).toEqual(sampleSession('seen'));
    // A reader beside a live writer (WAL) sees each committed turn.
    await writer.saveTurn(sampleTurn('seen', 1));
    expect(await reader.listTurns('seen')).toEqual([sampleTurn('seen', 1)]);
    await expect(reader.createSession(sampleSession('other'))).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR' });
    await expect(reader.saveTurn(sampleTurn('seen', 2))).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR' });
    expect((await writer.listTurns('seen')).length).toBe(1);
    await reader.close();
    await writer.close();

    // A file from before the lease migration still reads.
    const older = freshFile();
    const database = openDatabase(older);
    applyMigrations(database, TRANSCRIPT_MIGRATION_OWNER, TRANSCRIPT_MIGRATIONS.slice(0, 1));
    database.close();
    const olderReader = createSqliteTranscriptStore(older, { readOnly: true });
    expect(olderReader.schemaVersion).toBe(1);
    expect(await olderReader.listSessions()).toEqual([]);
    await olderReader.close();

    const missing = join(dir, 'never-created.db');
    expect(() => createSqliteTranscriptStore(missing, { readOnly: true })).toThrow(expect.objectContaining({ code: 'LOOP_STORE_ERROR' }));
    expect(existsSync(missing)).toBe(false);
    const toolsOnly = freshFile();
    openSqliteStore(toolsOnly).close();
    expect(() => createSqliteTranscriptStore(toolsOnly, { readOnly: true })).toThrow(expect.objectContaining({ code: 'LOOP_STORE_ERROR', message: expect.stringContaining('no AskLoop transcript') }));
  });

  it('keeps the shared part of system texts once (by content hash), also for a read-only store and after reopening', async () => {
    const file = freshFile();
    const shared = `rules and catalogue … ✓\n${'tool.str.ToUpper(s: string) -> string\n'.repeat(40)}`;
    const writer = createSqliteTranscriptStore(file);
    await writer.createSession(sampleSession('a'));
    await writer.createSession(sampleSession('b'));
    const saved = [sampleTurn('a', 1, { system: `${shared}\n\nBudget: turn 1 of 4.` }), sampleTurn('a', 2, { system: `${shared}\n\nBudget: turn 2 of 4.` })];
    for (const turn of saved) await writer.saveTurn(turn);
    await writer.saveTurn(sampleTurn('b', 1, { system: `${shared}\n\nBudget: turn 1 of 9.` }));
    const rows = writer.database.prepare('SELECT record FROM controller_turns').all() as { record: string }[];
    expect(rows.every((row) => !row.record.includes('tool.str.ToUpper'))).toBe(true);
    expect(writer.database.prepare('SELECT count(*) AS n FROM controller_texts').get()).toEqual({ n: 1 });
    const reader = createSqliteTranscriptStore(file, { readOnly: true });
    expect(await reader.listTurns('a')).toEqual(saved);
    await reader.close();
    await writer.close();
    const again = createSqliteTranscriptStore(file);
    expect(await again.listTurns('a')).toEqual(saved);
    expect(JSON.stringify(await again.lastTurn('a'))).toBe(JSON.stringify(saved[1]));
    await again.close();
  });

  it('createAskLoop keeps the tools\' records in the transcript\'s file by default', async () => {
    const file = freshFile();
    const program = ['command', '  set r = tool.memory.CAS("/greeting", 0, "hello")', '  set got = tool.memory.Get("/greeting")', '  emit "<<<LOOP:DONE>>> " + got[0]', 'endcommand'].join('\n');
    const loop = createAskLoop({ plugins: [testPlugin({ m: [envelope(program)] })], store: createSqliteTranscriptStore(file) });
    const result = await loop.run({ agent: { name: 'w', model: 'scripted:m', policy: { allow: ['tool.memory.*'], grants: ['memory:read:/**', 'memory:write:/**'] } }, task: 't' });
    expect(result).toMatchObject({ status: 'DONE', result: 'hello' });
    await loop.close();
    const reopened = openSqliteStore(file);
    expect(await reopened.memory.get('/greeting')).toEqual({ value: 'hello', version: 1 });
    reopened.close();
  });
});

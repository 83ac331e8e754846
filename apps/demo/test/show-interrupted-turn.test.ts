/**
 * `askloop show` says when a run of a turn stopped mid-turn with nothing of
 * its end saved (a host killed or frozen, a worker's lease taken over) and a
 * later step continued the turn: the record's `interrupted`, one line per
 * such run, in yellow; from `executing`, that the program ran again from its
 * start, so a call with effects outside the store may have acted once per
 * run. The record is stored in a real SQLite sessions file.
 */
import { createSqliteTranscriptStore } from '@askloop/controller';
import { sampleTurn } from '@askloop/controller/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { seedSession } from './view-seed.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-show-interrupted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('lists the runs of a turn that stopped mid-turn, each with the phase it stopped in and when it was continued; --json keeps them', async () => {
  const db = join(dir, 'sessions.db');
  const store = createSqliteTranscriptStore(db);
  const sid = await seedSession(store, 'host-killed-mid-turn');
  const session = (await store.getSession(sid))!;
  const interrupted = [
    { phase: 'asking', at: '2026-01-02T03:04:05.000Z' },
    { phase: 'executing', at: '2026-01-02T03:05:06.000Z' },
  ] as const;
  await store.saveTurn(sampleTurn(sid, 1, { interrupted }), { ...session, turns: 1 });
  await store.close();
  const io = captureIo({ cwd: dir });
  expect(await main(['show', sid, '--db', db], io)).toBe(0);
  const lines = stripVTControlCharacters(io.out).split('\n').filter((line) => line.startsWith('  interrupted '));
  expect(lines).toEqual([
    '  interrupted a run stopped before its program started (its host stopped, lost the session, or its step failed); continued at 2026-01-02T03:04:05.000Z',
    '  interrupted a run stopped mid-program (its host stopped, lost the session, or its step failed); the program ran again from its start at 2026-01-02T03:05:06.000Z: a call with effects outside the store may have acted once per run',
  ]);
  const json = captureIo({ cwd: dir });
  expect(await main(['show', sid, '--db', db, '--json'], json)).toBe(0);
  expect((JSON.parse(json.out) as { turns: { interrupted?: unknown }[] }).turns[0]?.interrupted).toEqual(interrupted);
});

it('says how many older stopped runs a record continued more often counts but no longer lists', async () => {
  const db = join(dir, 'dropped.db');
  const store = createSqliteTranscriptStore(db);
  const sid = await seedSession(store, 'host-killed-again-and-again');
  const session = (await store.getSession(sid))!;
  await store.saveTurn(sampleTurn(sid, 1, { interrupted: [{ phase: 'executing', at: '2026-01-02T03:05:06.000Z' }], interruptedDropped: 1234 }), { ...session, turns: 1 });
  await store.close();
  const io = captureIo({ cwd: dir });
  expect(await main(['show', sid, '--db', db], io)).toBe(0);
  const lines = stripVTControlCharacters(io.out).split('\n').filter((line) => line.startsWith('  interrupted '));
  expect(lines[0]).toBe('  interrupted 1,234 earlier runs stopped mid-turn too (the record lists the latest 1)');
  expect(lines).toHaveLength(2);
});

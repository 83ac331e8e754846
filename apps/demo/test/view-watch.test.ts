/**
 * The live feed's polling never reads a long session whole: at first its
 * latest page of turns (reported once, as a whole), then the session row and
 * the last turn, and when the row changes (a turn decided) the turns from the
 * one still open on.
 */
import { createMemoryTranscriptStore, type SessionRecord, type TranscriptStore, type TurnRecord } from '@askloop/controller';
import { describe, expect, it } from 'vitest';
import { watchSession } from '../src/view/watch-session.ts';
import { seedSession, seedTurn } from './view-seed.ts';

describe('watchSession', () => {
  it('reads the latest turns on the first poll, the open turn on after the row changes, and only the last turn otherwise', async () => {
    const store = createMemoryTranscriptStore();
    const session: SessionRecord = { sid: 's', agent: 'a', agentDefinition: { name: 'a', model: 'scripted:a' }, userdata: { subject: 't', fields: {} }, status: 'running', createdAt: '2026-11-27T00:00:00.000Z', updatedAt: '2026-11-27T00:00:00.000Z', turns: 0 } as unknown as SessionRecord;
    await store.createSession(session);
    const turn = (turnIndex: number, phase: TurnRecord['phase']) =>
      ({ sid: 's', loopId: 'l', turnIndex, kind: 'normal', phase, startedAt: '2026-11-27T00:00:00.000Z', system: '', envelope: '', lints: [], diagnostics: [], emits: [], whispers: [], output: '', scratchpad: '', toolCalls: [], usage: { fuel: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 }, timings: {}, digest: null }) as TurnRecord;
    await store.saveTurn(turn(1, 'asking'));
    const reads: string[] = [];
    const counted: TranscriptStore = {
      ...store,
      listTurns: (sid) => (reads.push('list'), store.listTurns(sid)),
      listTurnRange: (sid, range) => (reads.push(`range ${JSON.stringify(range)}`), store.listTurnRange!(sid, range)),
      lastTurn: (sid) => (reads.push('last'), store.lastTurn(sid)),
    };
    const seen: string[] = [];
    const stop = new AbortController();
    const ended = new Promise<void>((resolve) => watchSession(counted, 's', 5, stop.signal, { onStart: (row, records) => seen.push(`start ${row.status} ${row.turns} [${records.map((record) => `${record.turnIndex} ${record.phase}`).join(', ')}]`), onSession: (row) => seen.push(`session ${row.status} ${row.turns}`), onTurn: (record) => seen.push(`turn ${record.turnIndex} ${record.phase}`), onEnd: resolve }));
    const until = async (test: () => boolean) => {
      while (!test()) await new Promise((resolve) => setTimeout(resolve, 2));
    };
    await until(() => reads.length >= 3);
    expect(reads.slice(0, 3)).toEqual(['range {"last":50}', 'last', 'last']);
    // The turn in progress moves on: seen through the last turn alone.
    await store.saveTurn(turn(1, 'executing'));
    await until(() => seen.includes('turn 1 executing'));
    expect(reads.filter((read) => read !== 'last')).toHaveLength(1);
    // Decided: the row changes, and the turns from the one open when last seen are read.
    await store.saveTurn({ ...turn(1, 'decided'), decision: { kind: 'DONE', result: null } }, { ...session, status: 'done', turns: 1, updatedAt: '2026-11-27T00:00:01.000Z' });
    await ended;
    expect(reads.filter((read) => read !== 'last')).toEqual(['range {"last":50}', 'range {"from":1}']);
    expect(seen).toEqual(['start running 0 [1 asking]', 'turn 1 executing', 'session done 1', 'turn 1 decided']);
  });
});

describe('watchSession of a halted session', () => {
  it('goes on watching it, and reports a resume that continues it (a page used to stay on halted)', async () => {
    const store = createMemoryTranscriptStore();
    await seedSession(store, 'halted', { turns: 2, status: 'halted' });
    const seen: string[] = [];
    let ended = false;
    const stop = new AbortController();
    watchSession(store, 'halted', 5, stop.signal, {
      onStart: (row) => seen.push(`start ${row.status} ${row.turns}`),
      onSession: (row) => seen.push(`session ${row.status} ${row.turns}`),
      onTurn: () => undefined,
      onEnd: () => {
        ended = true;
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toBe(false);
    const row = (await store.getSession('halted'))!;
    await store.updateSession({ ...row, status: 'done', turns: 3, updatedAt: '2026-11-28T00:00:00.000Z' });
    while (!ended) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen).toEqual(['start halted 2', 'session done 3']);
    stop.abort();
  });
});

describe('watchSession at first', () => {
  it('reports a long session in one report, not one per turn', async () => {
    const store = createMemoryTranscriptStore();
    await seedSession(store, 'long', { turns: 40, status: 'done' });
    const seen: string[] = [];
    await new Promise<void>((resolve) =>
      watchSession(store, 'long', 5, new AbortController().signal, {
        onStart: (row, records) => seen.push(`start ${row.status} ${records.length} turns`),
        onSession: (row) => seen.push(`session ${row.status}`),
        onTurn: (record) => seen.push(`turn ${record.turnIndex}`),
        onEnd: resolve,
      }),
    );
    expect(seen).toEqual(['start done 40 turns']);
  });
});

describe('watchSession of a long running session', () => {
  it('reads the turns of its latest page at first, then only what each decided turn changed: not the whole session each time its row changes', async () => {
    const store = createMemoryTranscriptStore();
    await seedSession(store, 'long-live', { turns: 300 });
    let records = 0;
    const counted: TranscriptStore = {
      ...store,
      listTurns: async (sid) => {
        const turns = await store.listTurns(sid);
        records += turns.length;
        return turns;
      },
      listTurnRange: async (sid, range) => {
        const turns = await store.listTurnRange!(sid, range);
        records += turns.length;
        return turns;
      },
      lastTurn: async (sid) => ((records += 1), store.lastTurn(sid)),
    };
    const first: number[] = [];
    const reported: number[] = [];
    const stop = new AbortController();
    watchSession(counted, 'long-live', 5, stop.signal, { onStart: (_row, turns) => first.push(...turns.map((turn) => turn.turnIndex)), onSession: () => undefined, onTurn: (turn) => reported.push(turn.turnIndex), onEnd: () => undefined });
    while (first.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    expect(first).toEqual(Array.from({ length: 50 }, (_, i) => 251 + i));
    const row = (await store.getSession('long-live'))!;
    const before = records;
    // Ten more turns, each decided (the row changes each time), one poll apart.
    for (let index = 301; index <= 310; index++) {
      await store.saveTurn(seedTurn('long-live', index), { ...row, turns: index, updatedAt: new Date(Date.parse(row.updatedAt) + index * 1000).toISOString() });
      while (!reported.includes(index)) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    stop.abort();
    expect(reported).toEqual(Array.from({ length: 10 }, (_, i) => 301 + i));
    // Each poll reads a turn or two (the last one, and the one decided since): it read all 300 and more each time.
    expect((records - before) / 10).toBeLessThan(20);
  });
});

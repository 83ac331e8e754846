/**
 * `askloop show` marks a tool call that was still out when its run ended
 * (cancelled, out of time): in its place among the turn's calls, in yellow,
 * `unfinished` with the record's note that it may have acted — not a result
 * it never had — and, for a turn `resume` ran again, the calls its earlier
 * runs left unfinished, apart and marked with their run. The records are the
 * controller's samples of such turns, stored in a real SQLite sessions file.
 */
import { createSqliteTranscriptStore, type TurnRecord } from '@askloop/controller';
import { sampleRerunTurn, sampleUnfinishedTurn } from '@askloop/controller/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { seedSession } from './view-seed.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-show-unfinished-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('askloop show of a turn cancelled while a write was out', () => {
  it('lists the unfinished calls in their place, each marked with its note; --json keeps the field', async () => {
    const db = join(dir, 'sessions.db');
    const store = createSqliteTranscriptStore(db);
    const sid = await seedSession(store, 'cancelled-mid-write');
    const session = (await store.getSession(sid))!;
    await store.saveTurn(sampleUnfinishedTurn(sid, 1), { ...session, turns: 1 });
    await store.close();
    const io = captureIo({ cwd: dir });
    expect(await main(['show', sid, '--db', db], io)).toBe(0);
    const lines = stripVTControlCharacters(io.out).split('\n').filter((line) => line.startsWith('  tool '));
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain('tool.memory.cas("k", 0, "v") ✗ TOOL_CAS_CONFLICT');
    expect(lines[2]).toContain('tool.http.Fetch("https://example.test/é", {"method":"POST"}) ⋯ unfinished (SCRIPT_TOOL_ERROR): an external tool, it may have acted · 950 ms');
    expect(lines[3]).toContain('tool.memory.CAS("k", 1, "w") ⋯ unfinished: a write tool, it may have acted · 12 ms');
    expect(lines[4]).toContain('mcp.files.write() ⋯ unfinished: its effect unknown, it may have acted · 0 ms');
    const json = captureIo({ cwd: dir });
    expect(await main(['show', sid, '--db', db, '--json'], json)).toBe(0);
    const shown = JSON.parse(json.out) as { turns: { toolCalls: { unfinished?: { effect?: string } }[] }[] };
    expect(shown.turns[0]?.toolCalls.map((call) => call.unfinished?.effect ?? null)).toEqual([null, null, 'external', 'write', null]);
  });

  it('lists the calls earlier runs of a turn run again left unfinished, apart and marked with their run; --json keeps them', async () => {
    const db = join(dir, 'rerun.db');
    const store = createSqliteTranscriptStore(db);
    const sid = await seedSession(store, 'cancelled-then-resumed');
    const session = (await store.getSession(sid))!;
    await store.saveTurn(sampleRerunTurn(sid, 1), { ...session, turns: 1 });
    await store.close();
    const io = captureIo({ cwd: dir });
    expect(await main(['show', sid, '--db', db], io)).toBe(0);
    const lines = stripVTControlCharacters(io.out).split('\n');
    const earlier = lines.filter((line) => line.startsWith('  earlier '));
    expect(earlier).toEqual([
      expect.stringMatching(/^  earlier  run 1 of this turn: tool\.memory\.CAS\("k", 1, "w"\) ⋯ unfinished: a write tool, it may have acted · 12 ms$/),
      expect.stringMatching(/^  earlier  run 2 of this turn: mcp\.files\.write\("\/tmp\/é ✓"\) ⋯ unfinished: its effect unknown, it may have acted · 0 ms$/),
    ]);
    // This run's calls are its own, after them: the write that ended, not marked.
    const tools = lines.filter((line) => line.startsWith('  tool '));
    expect(tools).toHaveLength(2);
    expect(tools[1]).toContain('tool.memory.CAS("k", 1, "w") → true');
    expect(lines.indexOf(earlier[1] ?? '')).toBeLessThan(lines.indexOf(tools[0] ?? ''));
    const json = captureIo({ cwd: dir });
    expect(await main(['show', sid, '--db', db, '--json'], json)).toBe(0);
    const shown = JSON.parse(json.out) as { turns: TurnRecord[] };
    expect(shown.turns[0]?.earlierUnfinished).toEqual(sampleRerunTurn(sid, 1).earlierUnfinished);
  });
});

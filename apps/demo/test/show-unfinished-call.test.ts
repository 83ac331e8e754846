/**
 * `askloop show` marks a tool call that was still out when its run ended
 * (cancelled, out of time): in its place among the turn's calls, in yellow,
 * `unfinished` with the record's note that it may have acted — not a result
 * it never had. The record is the controller's sample of such a turn, stored
 * in a real SQLite sessions file.
 */
import { createSqliteTranscriptStore } from '@askloop/controller';
import { sampleUnfinishedTurn } from '@askloop/controller/testing';
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
});

/**
 * A tool call denied for want of a grant keeps that grant in the turn's
 * failure as data (`TurnFailure.grant`: the grant unquoted and the tool
 * host's code of the denial), in the stored record and in `LoopResult`, so
 * that a host tells its operator what to add without reading the message.
 * Regression: the CLI found the grant with a pattern over the message, and
 * any rewording or cut of the message lost it. Real loop, real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import type { TurnRecord } from '../src/loop/turn-record.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
const dir = mkdtempSync(join(tmpdir(), 'askloop-denial-grant-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'a', model: 'scripted:m', policy: { allow: ['tool.memory.*'], grants: ['memory:write:other'] } };
const needed = { capability: 'memory:write:my key', code: 'POLICY_CAPABILITY_MISSING' };

/** The session's stored turns, read back from the file by a store of their own. */
async function storedTurns(file: string, sid: string): Promise<readonly TurnRecord[]> {
  const store = createSqliteTranscriptStore(file);
  try {
    return await store.listTurns(sid);
  } finally {
    await store.close?.();
  }
}

describe("a denial's grant in the turn's failure", () => {
  it('refused by the check (a literal key): stored with the record, and in the loop result', async () => {
    const file = join(dir, 'check.db');
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('call tool.memory.CAS("my key", 0, "v")')] })], store: createSqliteTranscriptStore(file), pool });
    const result = await loop.run({ agent, task: 'x' });
    await loop.close();
    expect(result.status).toBe('HALT');
    expect(result.failure).toMatchObject({ code: 'SCRIPT_TOOL_DENIED', grant: needed });
    const [turn] = await storedTurns(file, result.sid);
    expect(turn?.failure).toMatchObject({ code: 'SCRIPT_TOOL_DENIED', kind: 'permission', grant: needed });
    // What the check refused is also the diagnostic's, with the same grant.
    expect(turn?.diagnostics[0]?.grant).toEqual(needed);
  });

  it('refused at run time (a computed key): stored with the failure and with the call', async () => {
    const file = join(dir, 'run.db');
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('set k = "my" + " key"', 'call tool.memory.CAS(k, 0, "v")')] })], store: createSqliteTranscriptStore(file), pool });
    const result = await loop.run({ agent, task: 'x' });
    expect(result.failure).toMatchObject({ code: 'SCRIPT_TOOL_DENIED', grant: needed });
    const [turn] = await storedTurns(file, result.sid);
    expect(turn?.diagnostics).toEqual([]);
    expect(turn?.failure).toMatchObject({ code: 'SCRIPT_TOOL_DENIED', line: 3, grant: needed });
    expect(turn?.toolCalls[0]?.error).toMatchObject({ code: 'SCRIPT_TOOL_DENIED', grant: needed });
    // A replay answers the call from the record, grant and all (`replay-sources.test.ts`): it matches.
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true });
    await loop.close();
  });

  it('is absent when no grant can name the need, and on other failures', async () => {
    const file = join(dir, 'none.db');
    const replies = [program('call tool.memory.CAS("a,b", 0, "v")')];
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store: createSqliteTranscriptStore(file), pool });
    const result = await loop.run({ agent, task: 'x' });
    await loop.close();
    expect(result.failure?.code).toBe('SCRIPT_TOOL_DENIED');
    expect(result.failure?.message).toContain('no grant can name it exactly');
    expect(result.failure).not.toHaveProperty('grant');
  });
});

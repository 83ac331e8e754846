import { join } from 'node:path';
import { createSqliteTranscriptStore } from '@askloop/controller';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { tempFolder } from './temp-folder.ts';

const dir = tempFolder('demo');

describe('askloop demo', () => {
  it('runs Plan → Apply through the controller: plan, a mistake fed back, a refused program, DONE', async () => {
    const db = join(dir, 'json.db');
    const io = captureIo();
    expect(await main(['demo', '--db', db, '--json'], io)).toBe(0);
    const result = JSON.parse(io.out);
    expect(Object.keys(result)).toEqual(['status', 'reason', 'result', 'turns', 'sid', 'decisions']);
    expect(result).toMatchObject({ status: 'DONE', reason: null, result: 'claimed /ingest/queue/x = taken (version 1)', turns: 4 });
    expect(result.decisions).toEqual([
      { turn: 1, decision: 'CONTINUE', reason: null },
      { turn: 2, decision: 'CONTINUE', reason: null },
      { turn: 3, decision: 'CONTINUE', reason: 'repair' },
      { turn: 4, decision: 'DONE', reason: null },
    ]);

    // The stored records show what each turn did.
    const store = createSqliteTranscriptStore(db);
    const turns = await store.listTurns(result.sid);
    await store.close();
    const calls = (index: number) => turns[index]!.toolCalls.map((call) => `${call.name} → ${JSON.stringify(call.result)}`);
    expect(calls(0)).toEqual(expect.arrayContaining(['tool.policy.allow → [true,""]']));
    expect(turns[0]!.toolCalls.some((call) => call.name.includes('memory'))).toBe(false); // the plan turn writes nothing
    expect(calls(1)).toEqual(['tool.memory.get → [null,0]', 'tool.memory.cas → [true,1]']);
    expect(turns[1]!.output).toContain('SYSTEM_ERROR SCRIPT_INDEX_OUT_OF_RANGE at line 6');
    // Turn 3 is refused before anything runs: no tool call, no emit, the denial fed back.
    expect(turns[2]!.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['SCRIPT_TOOL_DENIED']);
    expect(turns[2]!.toolCalls).toEqual([]);
    expect(turns[2]!.emits).toEqual([]);
    expect(turns[2]!.output).toMatch(/^SYSTEM_ERROR SCRIPT_TOOL_DENIED at line 4/);
    expect(turns[3]!.envelope).toContain('SYSTEM_ERROR SCRIPT_TOOL_DENIED');

    const replay = captureIo();
    expect(await main(['replay', result.sid, '--db', db, '--json'], replay)).toBe(0);
    expect(JSON.parse(replay.out)).toEqual({ sid: result.sid, matched: true, turns: 4, divergence: null });
  });

  it('narrates each turn and labels the model as scripted', async () => {
    const io = captureIo();
    expect(await main(['demo', '--db', join(dir, 'text.db')], io)).toBe(0);
    expect(io.out).toContain('the scripted model (scripted:demo, shipped with askloop — not a real model)');
    expect(io.out).toContain('recovered: LINT_RECOVERED_FENCE');
    expect(io.out).toMatch(/<<<NSENV:V4:SCRATCHPAD>>>\n\s+planned 1 op, nothing written yet/);
    expect(io.out).toContain('Refused before running — nothing of the program ran:\n  4:14 SCRIPT_TOOL_DENIED');
    expect(io.out).toContain('Decision: CONTINUE — next: a repair turn');
    expect(io.out).toContain('Decision: DONE — final result: claimed /ingest/queue/x = taken (version 1)');
    expect(io.out.trimEnd().split('\n').at(-1)).toBe('claimed /ingest/queue/x = taken (version 1)');
    expect(io.err).toMatch(/^askloop: DONE after 4 turns \(session [0-9a-f-]{36}\)\n$/);
  });
});

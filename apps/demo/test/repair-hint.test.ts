/**
 * A HALT on a failure the agent's `repair` could have fed back to the model
 * (a syntax error, a denied program, …) says, after its `cause:`, that the
 * model never saw the message and how to turn repair on — for `run`,
 * `resume` and `deny` alike, in a pipe and on a terminal. Regression
 * (reviewer playing the model): the session ended with the cause alone, and
 * nothing said the model had not been told or that `--repair N` would tell it.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo, type CapturedIo } from './capture-io.ts';
import { lineAfterCause } from './line-after-cause.ts';
import { envelope } from './envelope-reply.ts';
import { tempFolder, writeFiles } from './temp-folder.ts';

const MEMORY_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const dir = tempFolder('repair-hint');
const LET = envelope('let words = 3', 'emit words');
const CAUSE = "  cause: SCRIPT_SYNTAX: 'let' is not a NeuroScript statement: to assign, write 'set name = value'.";
writeFiles(dir, {
  'let.json': JSON.stringify([LET]),
  'let-twice.json': JSON.stringify([LET, LET]),
  'let-then-done.json': JSON.stringify([LET, envelope('emit "<<<LOOP:DONE>>> fixed"')]),
  'empty.json': '[]',
  'delete.json': JSON.stringify([envelope('call tool.memory.delete_entities(["nobody"])', 'emit "deleted"')]),
  'mcp.json': JSON.stringify({ servers: { memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } } } }),
});

/** Runs `askloop ARGS` in `dir`; returns its io once `expected` was its exit code. */
async function askloop(args: string[], expected: number, io: CapturedIo = captureIo({ cwd: dir })): Promise<CapturedIo> {
  expect(await main(args, io), io.err).toBe(expected);
  return io;
}


const OFF = "  repair: off (the agent's repair is 0), so the model never saw this message; askloop run --repair 2 (or repair: 2 in the agent's file or config entry) feeds such failures back to the model to fix";

describe('the repair hint after a HALT', () => {
  it('run: repair 0 halts at the first syntax error, and says so after the cause (not in --json, whose shape is fixed)', async () => {
    const run = await askloop(['run', 'count', '--script', 'let.json', '--db', 'off.db'], 3);
    expect(run.err).toContain(`${CAUSE}\n${OFF}\n`);
    const json = await askloop(['run', 'count', '--script', 'let.json', '--db', 'off.db', '--json'], 3);
    expect(json.err).toBe('');
    expect(Object.keys(JSON.parse(json.out) as object)).toEqual(['status', 'reason', 'result', 'turns', 'sid', 'decisions', 'message', 'failure']);
  });

  it('run on a terminal: the hint follows the cause after the summary too', async () => {
    const io = captureIo({ cwd: dir });
    io.stderrTerminal = { write: (text: string) => ((io.err += text), true), columns: 400 } as unknown as NodeJS.WriteStream;
    await askloop(['run', 'count', '--script', 'let.json', '--db', 'tty.db'], 3, io);
    expect(lineAfterCause(io.err)).toBe(OFF);
  });

  it('run: a spent repair budget says after how many repairs, and offers one more', async () => {
    const run = await askloop(['run', 'count', '--script', 'let-twice.json', '--db', 'spent.db', '--repair', '1'], 3);
    expect(run.err).toContain('turn 1: CONTINUE (next: repair turn)');
    expect(lineAfterCause(run.err)).toBe("  repair: spent after 1 repair in a row (the agent's repair is 1), so the model never saw this message; askloop run --repair 2 (or repair: 2 in the agent's file or config entry) allows more");
  });

  it('run: no hint where repair fed the failure back, or cannot help (a turn ceiling, a failed model call)', async () => {
    const fixed = await askloop(['run', 'count', '--script', 'let-then-done.json', '--db', 'fixed.db', '--repair', '1'], 0);
    expect(fixed.err).not.toContain('repair:');
    // The last turn allowed failed: repair would have fed it back, but the turn ceiling halts first.
    const ceiling = await askloop(['run', 'count', '--script', 'let.json', '--db', 'ceiling.db', '--repair', '1', '--max-turns', '1'], 3);
    expect(ceiling.err).toContain('HALT ERR_MAX_TURNS_EXCEEDED');
    expect(lineAfterCause(ceiling.err)).toBeUndefined();
    const provider = await askloop(['run', 'count', '--script', 'empty.json', '--db', 'provider.db'], 3);
    expect(provider.err).toContain('HALT ERR_PROVIDER');
    expect(lineAfterCause(provider.err)).toBeUndefined();
  });

  it("resume: the hint reads the session's stored agent (its repair 1, spent)", async () => {
    const run = await askloop(['run', 'count', '--script', 'empty.json', '--db', 'resume.db', '--repair', '1', '--json'], 3);
    const { sid } = JSON.parse(run.out) as { sid: string };
    const resumed = await askloop(['resume', sid, '--script', 'let-twice.json', '--db', 'resume.db'], 3);
    expect(resumed.err).toContain('HALT ERR_SYNTAX');
    expect(lineAfterCause(resumed.err)).toBe("  repair: spent after 1 repair in a row (the agent's repair is 1), so the model never saw this message; askloop run --repair 2 (or repair: 2 in the agent's file or config entry) allows more");
  });

  it('deny: a denied program halts ERR_PERMISSIONS, and the hint says repair would have told the model', async () => {
    const run = await askloop(['run', 'tidy up', '--script', 'delete.json', '--db', 'deny.db', '--mcp-config', 'mcp.json', '--allow', 'tool.memory.*', '--grant', 'mcp:call:memory', '--json'], 4);
    const { sid } = JSON.parse(run.out) as { sid: string };
    const denied = await askloop(['deny', sid, '--db', 'deny.db'], 3);
    expect(denied.err).toContain('  cause: LOOP_APPROVAL_DENIED: a person denied the program before it ran\n');
    expect(lineAfterCause(denied.err)).toBe(OFF);
  });
});

/**
 * Crash resume with a real process: a child host runs a session on a SQLite
 * file and is killed with SIGKILL in the middle of turn 1 (its write done,
 * its program still running); this process then resumes the session from
 * the same file, once the dead host's session lease has lapsed. The turn is finished from its recorded reply (the child's
 * model is gone), the write is replayed from its idempotence record instead
 * of acting again, and the session ends DONE.
 */
import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import { CRASH_AGENT, CURSOR_KEY, finishReply, STOP_KEY } from './crash-session.ts';
import { testPlugin } from './test-plugin.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-crash-'));
const pool = createSandboxPool({ workers: 1 });
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const hostScript = fileURLToPath(new URL('./crash-host.ts', import.meta.url));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns something; gives up (failing the test) if the child exits first or after a generous bound. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, childExit: { code: number | null } | undefined = undefined, log: () => string = () => ''): Promise<T> {
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    const found = await probe();
    if (found !== undefined) return found;
    if (childExit !== undefined && childExit.code !== null) throw new Error(`the child host exited (${childExit.code}) before ${what}:\n${log()}`);
    await pause(50);
  }
  throw new Error(`gave up waiting for ${what}:\n${log()}`);
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('crash resume across processes', () => {
  it('resumes a session whose host was killed with SIGKILL mid-turn; the CAS write happened exactly once', async () => {
    const file = join(dir, 'crash.db');
    const sid = 'crashed';
    const child = spawn(process.execPath, ['--no-node-snapshot', '--conditions=@askloop/source', hostScript, file, sid], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = { code: null as number | null };
    const exited = once(child, 'exit').then(([code, signal]) => {
      exit.code = code ?? -1;
      return { code, signal };
    });

    // Watch the child's file through a second connection: turn 1 executing, and its write recorded.
    await waitFor('the database file', async () => (existsSync(file) ? true : undefined), exit, () => output);
    const store = createSqliteTranscriptStore(file);
    const tools = store.openToolStores();
    const midTurn = await waitFor(
      'turn 1 executing after its write',
      async () => {
        const [turn] = await store.listTurns(sid);
        const write = await tools.idempotence.lookup(sid, 1, 0);
        return turn?.phase === 'executing' && write !== undefined ? { turn, write } : undefined;
      },
      exit,
      () => output,
    );
    expect(midTurn.write).toMatchObject({ tool: 'tool.memory.cas', result: [true, 1] });
    // While the child lives it holds the session's lease: another host in reject mode is turned away.
    const impatient = createAskLoop({ plugins: [testPlugin({ m: [finishReply] })], store: createSqliteTranscriptStore(file), pool, busy: 'reject' });
    await expect(impatient.step(sid)).rejects.toMatchObject({ code: 'LOOP_SESSION_BUSY' });
    await impatient.close();

    const workers = execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)], { encoding: 'utf8' }).split('\n').map(Number).filter((pid) => pid > 0);
    expect(workers.length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    // The killed host's sandbox workers notice their parent is gone and exit.
    await waitFor('the killed host\'s sandbox workers to exit', async () => (workers.every((pid) => !alive(pid)) ? true : undefined));

    expect({ session: await store.getSession(sid), turns: await store.listTurns(sid) }).toMatchObject({ session: { status: 'running' } });
    expect(await tools.memory.get(CURSOR_KEY)).toEqual({ value: 'taken', version: 1 });
    // What the killed host was waiting for: the re-run turn gets past its loop.
    expect(await tools.memory.cas(STOP_KEY, 0, 'go')).toEqual({ ok: true, version: 1 });

    // A new host on the same file (it waits for the dead host's lease to lapse); its model knows only the NEXT reply, so turn 1 must come from the record.
    const loop = createAskLoop({ plugins: [testPlugin({ m: [finishReply] })], store, pool });
    const resumed = await loop.resume(sid);
    expect(resumed).toMatchObject({ status: 'DONE', result: 'finished', turns: 2, decisions: [{ turn: 1, decision: 'CONTINUE' }, { turn: 2, decision: 'DONE' }] });
    const turns = await store.listTurns(sid);
    expect(turns.map((turn) => [turn.turnIndex, turn.phase])).toEqual([[1, 'decided'], [2, 'decided']]);
    expect(turns[0]?.output).toBe('written at version 1\n');
    // The record says the turn's first run stopped mid-program, and when the new host continued it; turn 2 ran once.
    expect(turns[0]?.interrupted).toEqual([{ phase: 'executing', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
    expect(turns[1]?.interrupted).toBeUndefined();
    // Exactly one effect: the key moved once, and the only write record is the child's.
    expect(await tools.memory.get(CURSOR_KEY)).toEqual({ value: 'taken', version: 1 });
    const writes = store.database.prepare('SELECT call_index, tool, pending FROM idempotence WHERE session = ?').all(sid);
    expect(writes).toEqual([{ call_index: 0, tool: 'tool.memory.cas', pending: 0 }]);
    expect(output).toBe('');
    tools.close();
    await loop.close();
  });
});

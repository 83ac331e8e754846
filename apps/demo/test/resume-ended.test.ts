/**
 * `askloop resume` of a session that already ended (DONE, or HALT for any
 * reason but Ctrl-C) says so — its status and reason — and that nothing ran,
 * with exit 1 (the loop could not continue) and `CLI_SESSION_ENDED`; a
 * session stopped by Ctrl-C still resumes.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'askloop-resume-ended-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function runJson(args: string[]): Promise<{ code: number; out: { sid: string; status: string; reason: string | null } }> {
  const io = captureIo({ cwd: dir });
  const code = await main([...args, '--json'], io);
  return { code, out: JSON.parse(io.out) };
}

describe('askloop resume of an ended session', () => {
  it('a HALT: says it ended, with the reason, and that nothing ran (exit 1)', async () => {
    // A program that does not parse: the reply is the model's, so asking again would not be resuming.
    await writeFile(join(dir, 'one.json'), JSON.stringify([envelope('emit "step"'), envelope('emit (')]));
    const run = await runJson(['run', 't', '--script', 'one.json', '--db', 'halt.db']);
    expect({ code: run.code, status: run.out.status, reason: run.out.reason }).toEqual({ code: 3, status: 'HALT', reason: 'ERR_SYNTAX' });
    const resume = captureIo({ cwd: dir });
    expect(await main(['resume', run.out.sid, '--script', 'one.json', '--db', 'halt.db'], resume)).toBe(1);
    expect(resume.out).toBe('');
    expect(resume.err).toBe(`askloop: session ${run.out.sid} already ended (HALT ERR_SYNTAX after 2 turns); nothing ran. Only a session stopped by Ctrl-C, a crash or a failed model call (ERR_PROVIDER) can be resumed (a paused one: approve or deny it); see it with askloop show ${run.out.sid} --db ${join(dir, 'halt.db')} (CLI_SESSION_ENDED)\n`);
  });

  it('a DONE: the same, as JSON with --json; the session is left as it was', async () => {
    await writeFile(join(dir, 'done.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> fine"')]));
    const run = await runJson(['run', 't', '--script', 'done.json', '--db', 'done.db']);
    expect(run.code).toBe(0);
    const resume = captureIo({ cwd: dir });
    expect(await main(['resume', run.out.sid.slice(0, 8), '--db', 'done.db', '--json'], resume)).toBe(1);
    expect(JSON.parse(resume.out)).toEqual({ ok: false, error: { code: 'CLI_SESSION_ENDED', message: expect.stringContaining(`session ${run.out.sid} already ended (DONE after 1 turn); nothing ran`) } });
    const show = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'done.db', '--json'], show)).toBe(0);
    expect(JSON.parse(show.out)).toMatchObject([{ sid: run.out.sid, status: 'done', turns: 1 }]);
  });

  it('a refused request (HALT ERR_PROVIDER, PROVIDER_BAD_REQUEST): says why this failed model call is not resumed', async () => {
    // A loopback "Ollama" that refuses every request as too long.
    const server = createServer((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'prompt is too long for this model' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.env['OLLAMA_HOST'] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const run = await runJson(['run', 't', '--model', 'ollama:m', '--db', 'refused.db']);
      expect(run).toMatchObject({ code: 3, out: { status: 'HALT', reason: 'ERR_PROVIDER' } });
      const resume = captureIo({ cwd: dir });
      expect(await main(['resume', run.out.sid, '--db', 'refused.db'], resume)).toBe(1);
      expect(resume.err).toContain(`session ${run.out.sid} already ended (HALT ERR_PROVIDER after 1 turn: PROVIDER_BAD_REQUEST, which asking the model again would meet again); nothing ran.`);
      expect(resume.err).toContain('(CLI_SESSION_ENDED)');
      // `show` names the failure's code once a line, though the provider's message names it too.
      const shown = captureIo({ cwd: dir });
      expect(await main(['show', run.out.sid, '--db', 'refused.db'], shown)).toBe(0);
      expect(shown.out).toMatch(/failure +\[ollama:m\] PROVIDER_BAD_REQUEST: /);
      expect(shown.out).toContain('decision HALT ERR_PROVIDER: [ollama:m] PROVIDER_BAD_REQUEST: HTTP 400');
      // Once on each line that says it: the status, the failure, the decision.
      expect(shown.out.match(/PROVIDER_BAD_REQUEST/g)).toHaveLength(3);
    } finally {
      delete process.env['OLLAMA_HOST'];
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a Ctrl-C (HALT ERR_CANCELLED) still resumes', async () => {
    await writeFile(join(dir, 'cancel.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> resumed"')]));
    const io = captureIo({ cwd: dir });
    io.onInterrupt = (handler) => {
      // Once the run has begun (a signal aborted before it is LOOP_CANCELLED, nothing stored): as a Ctrl-C comes.
      queueMicrotask(() => handler('SIGINT'));
      return () => {};
    };
    expect(await main(['run', 't', '--script', 'cancel.json', '--db', 'cancel.db', '--json'], io)).toBe(3);
    const { sid } = JSON.parse(io.out) as { sid: string };
    const resumed = await runJson(['resume', sid, '--script', 'cancel.json', '--db', 'cancel.db']);
    expect({ code: resumed.code, status: resumed.out.status }).toEqual({ code: 0, status: 'DONE' });
    // `show` says the turn ran again; a turn that ran once says nothing of it.
    const shown = captureIo({ cwd: dir });
    expect(await main(['show', sid, '--db', 'cancel.db'], shown)).toBe(0);
    expect(shown.out).toMatch(/turn 1 \(run again by resume\) · /);
    const once = captureIo({ cwd: dir });
    await main(['run', 't', '--script', 'cancel.json', '--db', 'once.db', '--json'], once);
    const other = captureIo({ cwd: dir });
    expect(await main(['show', (JSON.parse(once.out) as { sid: string }).sid, '--db', 'once.db'], other)).toBe(0);
    expect(other.out).toMatch(/turn 1 · /);
    expect(other.out).not.toContain('run again');
  });
});

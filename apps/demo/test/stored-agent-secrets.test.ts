/**
 * A session's agent is stored with it, and the commands that read it from the
 * store never read the file it came from: the variables its `${NAME}`
 * references name are secrets for them all the same. Through the real CLI on
 * a real sessions file, and `askloop worker` on a real PostgreSQL server, with
 * an agent file whose instructions name `${MY_SERVICE_CRED}` (a variable not
 * named like a key) and a model that writes the credential's value:
 * `resume` and `worker` hide it in what the loop stores and in what they
 * print; `show`, `sessions` and the viewer hide it in a session a host that
 * did not know the value stored. Regression: each command knew only the
 * names of the files it read itself, so the value was kept and printed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPostgresServer, type PostgresServer } from '@askloop/postgres/testing';
import pg from 'pg';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from './envelope-reply.ts';
import { CLI_SOURCE, spawnCli } from './spawn-cli.ts';
import { tempFolder, writeFiles } from './temp-folder.ts';
import { viewerAnswers } from './viewer-answers.ts';

// Shaped like no known key, in a variable not named like one: only the stored agent's reference makes it a secret.
const CRED = 'svc-cred-7Hq2Lm9Xz4Pw';
const ENV = { MY_SERVICE_CRED: CRED };
const folder = writeFiles(tempFolder('stored-agent-secrets'), {
  'agent.yaml': 'name: signer\ninstructions: "Requests are signed with ${MY_SERVICE_CRED}; never write it."\n',
  // Turn 1 goes on; turn 2 writes the credential (the model saw it somewhere).
  'replies.json': JSON.stringify([envelope('emit "looked"'), envelope(`emit "<<<LOOP:DONE>>> signed with ${CRED}"`)]),
  'first.json': JSON.stringify([envelope('emit "looked"')]),
  // One turn that fails with the credential in its error: a HALT whose failure `worker --json` prints.
  'fails.json': JSON.stringify([envelope(`fail "refused: ${CRED}"`)]),
});

/** Every byte of a SQLite file and its write-ahead log, as text. */
function fileBytes(db: string): string {
  return [db, `${db}-wal`].filter(existsSync).map((file) => readFileSync(file).toString('latin1')).join('');
}

const cli = (args: string[], env: Record<string, string> = ENV) => spawnCli(args, { cwd: folder, env });

describe("a stored agent's ${NAME} references are secrets for the commands that read it", () => {
  it('askloop resume hides the value in what the loop stores and in what it prints', async () => {
    // The run knows the name (it read the agent file); its second turn finds no reply left: HALT ERR_PROVIDER, resumable.
    const ran = await cli(['run', 'sign it', '--agent', 'agent.yaml', '--script', 'first.json', '--db', 'resume.db', '--json']);
    expect(ran.code, ran.stderr).toBe(3);
    const { sid } = JSON.parse(ran.stdout) as { sid: string };
    // Resumed with no agent file: the name comes from the stored agent.
    const resumed = await cli(['resume', sid, '--script', 'replies.json', '--db', 'resume.db', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'DONE', result: 'signed with [REDACTED]' });
    expect(`${resumed.stdout}${resumed.stderr}`).not.toContain(CRED);
    expect(fileBytes(join(folder, 'resume.db'))).not.toContain(CRED);
  });

  it('askloop show, sessions and the viewer hide it in a session stored by a host that did not know its value', async () => {
    // Run where the variable is not set: its value is known to no one, and the model's echo of it is stored as it came.
    const ran = await cli(['run', 'sign it', '--agent', 'agent.yaml', '--script', 'replies.json', '--db', 'unknown.db', '--json'], {});
    expect(ran.code, ran.stderr).toBe(0);
    const { sid } = JSON.parse(ran.stdout) as { sid: string };
    expect(fileBytes(join(folder, 'unknown.db'))).toContain(CRED);
    for (const args of [['show', sid, '--db', 'unknown.db', '--json'], ['show', sid, '--db', 'unknown.db', '--full'], ['sessions', '--db', 'unknown.db', '--json']]) {
      const shown = await cli(args);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(args[0] === 'sessions' ? sid : 'signed with [redacted]');
      expect(`${shown.stdout}${shown.stderr}`).not.toContain(CRED);
    }
    const served = await viewerAnswers(['--db', 'unknown.db'], [sid], { cwd: folder, env: ENV });
    expect(served).toContain('signed with [redacted]');
    expect(served).not.toContain(CRED);
  });
});

describe('askloop worker', () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgresServer();
    pool = new pg.Pool({ connectionString: server.url, max: 2 });
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    server?.stop();
  });

  it("hides the value in what the loop stores and in the lines it prints, from the session's stored agent", async () => {
    const queued = await cli(['run', 'sign it', '--agent', 'agent.yaml', '--script', 'fails.json', '--no-tool-loop', '--db', server.url, '--detach', '--json']);
    expect(queued.code, queued.stderr).toBe(0);
    const { sid } = JSON.parse(queued.stdout) as { sid: string };
    // The worker reads no agent file: the session's stored agent is all that names the variable.
    const worker = spawn(process.execPath, ['--conditions=@askloop/source', '--no-warnings', CLI_SOURCE, 'worker', '--db', server.url, '--script', join(folder, 'fails.json'), '--json'], { cwd: folder, env: { ...process.env, ...ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    worker.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    worker.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    try {
      for (let waited = 0; !stdout.includes(`"sid":"${sid}"`); waited += 1) {
        if (waited > 300) throw new Error(`the worker took no step: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      worker.kill('SIGINT');
      await exited;
    }
    const step = JSON.parse(stdout.split('\n').find((line) => line.includes(`"sid":"${sid}"`)) ?? '{}') as { status?: string; failure?: { message?: string } };
    expect(step).toMatchObject({ status: 'HALT', failure: { message: expect.stringContaining('refused: [REDACTED]') } });
    expect(`${stdout}${stderr}`).not.toContain(CRED);
    const stored = await pool.query('SELECT record::text AS record FROM askloop_turns WHERE sid = $1', [sid]);
    expect(stored.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored.rows)).not.toContain(CRED);
  });
});

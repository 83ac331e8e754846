/**
 * `askloop run --db postgres://…`, `askloop run --detach` and `askloop
 * worker` end to end: the real CLI in child processes against a real
 * PostgreSQL server started for this file (`@askloop/postgres/testing`), the
 * real controller, sandbox and tools, the scripted model.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTROLLER_MIGRATIONS, migrateOwner } from '@askloop/postgres';
import { startPostgresServer, type PostgresServer } from '@askloop/postgres/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SOURCE, spawnCli } from './spawn-cli.ts';
import { envelope } from './envelope-reply.ts';

let dir: string;
let server: PostgresServer;
let pool: pg.Pool;
const workers: ChildProcess[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'askloop-pg-cli-'));
  server = await startPostgresServer();
  pool = new pg.Pool({ connectionString: server.url, max: 2 });
}, 60_000);
afterAll(async () => {
  for (const worker of workers) worker.kill('SIGKILL');
  await pool?.end();
  server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const TWO_TURNS = [envelope('emit "step one"'), envelope('emit "<<<LOOP:DONE>>> " + tool.str.ToUpper(userdata["subject"])')];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function scriptFile(): Promise<string> {
  const path = join(dir, 'two-turns.json');
  await writeFile(path, JSON.stringify(TWO_TURNS));
  return path;
}

function startWorker(args: string[], cwd?: string): { child: ChildProcess; output: () => { stdout: string; stderr: string }; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--conditions=@askloop/source', '--no-warnings', CLI_SOURCE, 'worker', ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(cwd === undefined ? {} : { cwd }) });
  workers.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => ({ stdout, stderr }), exited };
}

describe('askloop on PostgreSQL', () => {
  it('run --db postgres://… runs a session in this process and stores it on the server', async () => {
    const run = await spawnCli(['run', 'in place', '--script', await scriptFile(), '--db', server.url, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { sid: string };
    expect(result).toMatchObject({ status: 'DONE', result: 'IN PLACE', turns: 2 });
    const stored = await pool.query('SELECT status, turns FROM askloop_sessions WHERE sid = $1', [result.sid]);
    expect(stored.rows).toEqual([{ status: 'done', turns: 2 }]);
  });

  it('run --detach queues sessions; two workers take their turns; Ctrl-C stops a worker after its step', async () => {
    const script = await scriptFile();
    const sids: string[] = [];
    for (const task of ['alpha', 'beta', 'gamma', 'delta']) {
      const run = await spawnCli(['run', task, '--script', script, '--db', server.url, '--detach', '--json']);
      expect(run.code).toBe(0);
      const queued = JSON.parse(run.stdout) as { ok: boolean; sid: string; status: string };
      expect(queued).toEqual({ ok: true, sid: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'QUEUED' });
      sids.push(queued.sid);
    }
    const pending = await pool.query("SELECT count(*)::int AS n FROM askloop_queue WHERE state = 'ready' AND sid = ANY($1)", [sids]);
    expect(pending.rows[0]).toEqual({ n: 4 });

    const hosts = [startWorker(['--db', server.url, '--script', script, '--json', '--lease-ms', '5000']), startWorker(['--db', server.url, '--script', script, '--json', '--lease-ms', '5000'])];
    for (let waited = 0; ; waited += 1) {
      const done = await pool.query("SELECT count(*)::int AS n FROM askloop_sessions WHERE status = 'done' AND sid = ANY($1)", [sids]);
      if ((done.rows[0] as { n: number }).n === sids.length) break;
      if (waited > 600) throw new Error(`workers did not finish: ${JSON.stringify(hosts.map((host) => host.output()))}`);
      await pause(50);
    }
    // A worker still starting (the other took every session) has no Ctrl-C handler yet: Node's default would kill it.
    for (let waited = 0; !hosts.every((host) => host.output().stderr.includes('taking turns')); waited += 1) {
      if (waited > 600) throw new Error(`a worker never started: ${JSON.stringify(hosts.map((host) => host.output()))}`);
      await pause(50);
    }
    for (const host of hosts) host.child.kill('SIGINT');
    expect(await Promise.all(hosts.map((host) => host.exited))).toEqual([0, 0]);
    const lines = hosts.flatMap((host) => host.output().stdout.trim().split('\n').filter((line) => line !== '')).map((line) => JSON.parse(line) as { sid: string; outcome: string; status: string; turns: number });
    expect(lines.every((line) => line.outcome === 'committed')).toBe(true);
    for (const sid of sids) {
      // Each turn once; the two workers' outputs are read one after the other, so order them by turn.
      expect(lines.filter((line) => line.sid === sid).map((line) => [line.turns, line.status]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
        [1, 'RUNNING'],
        [2, 'DONE'],
      ]);
    }
    const results = await pool.query("SELECT record FROM askloop_sessions WHERE sid = ANY($1)", [sids]);
    expect(results.rows.map((row) => (JSON.parse(row.record as string) as { lastDecision: { result: string } }).lastDecision.result).sort()).toEqual(['ALPHA', 'BETA', 'DELTA', 'GAMMA']);
    for (const host of hosts) expect(host.output().stderr).toMatch(/taking turns[\s\S]*turns? committed, 0 leases lost, 0 conflicts retried, 0 failed steps\n$/);
  });

  it('a worker whose role may read but not write the queue stops with PG_QUERY_FAILED naming the rights, instead of retrying forever', async () => {
    await pool.query('CREATE ROLE reader_only LOGIN');
    await pool.query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader_only');
    const url = new URL(server.url);
    url.username = 'reader_only';
    url.password = '';
    const worker = await spawnCli(['worker', '--db', url.toString(), '--json']);
    expect(worker.code).toBe(1);
    expect(JSON.parse(worker.stdout.trim().split('\n').at(-1)!).error).toMatchObject({ code: 'PG_QUERY_FAILED', message: expect.stringContaining('the role lacks rights a host needs, which waiting does not give') });
    expect(worker.stderr).not.toContain('trying again');
    // run in place with the same role: the session's first write is refused, and the error names the rights, not the store.
    const run = await spawnCli(['run', 'refused', '--script', await scriptFile(), '--db', url.toString(), '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error).toMatchObject({ code: 'PG_QUERY_FAILED', message: expect.stringMatching(/^the sessions database refused this host: .*permission denied.*; the role lacks rights a host needs, which waiting does not give: SELECT, INSERT/) });
    // Queued for a worker with the same role: the same error, naming the rights (it named none).
    const detached = await spawnCli(['run', 'refused', '--script', await scriptFile(), '--db', url.toString(), '--detach', '--json']);
    expect(detached.code).toBe(1);
    expect(JSON.parse(detached.stdout).error).toMatchObject({ code: 'PG_QUERY_FAILED', message: expect.stringContaining('the role lacks rights a host needs, which waiting does not give: SELECT, INSERT') });
    // A session paused with a full role, continued with the read-only one: resume, approve and deny say the same.
    const awaiting = join(dir, 'await-rights.json');
    await writeFile(awaiting, JSON.stringify([envelope('emit "[[loop:await]]"')]));
    const paused = await spawnCli(['run', 'wait', '--script', awaiting, '--dialect', 'v1', '--db', server.url, '--json']);
    expect(paused.code).toBe(4);
    const { sid } = JSON.parse(paused.stdout) as { sid: string };
    for (const command of ['resume', 'approve', 'deny']) {
      const continued = await spawnCli([command, sid, '--script', awaiting, '--db', url.toString(), '--json']);
      expect({ command, code: continued.code }).toEqual({ command, code: 1 });
      expect(JSON.parse(continued.stdout).error).toMatchObject({ code: 'PG_QUERY_FAILED', message: expect.stringContaining('the role lacks rights a host needs') });
    }
  });

  it('a worker whose role lacks a right only a step uses stops at the first refused step, naming the rights, instead of parking every session', async () => {
    const script = await scriptFile();
    const queued = await spawnCli(['run', 'rights', '--script', script, '--db', server.url, '--detach', '--json']);
    const { sid } = JSON.parse(queued.stdout) as { sid: string };
    await pool.query('CREATE ROLE host_partial LOGIN');
    await pool.query('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO host_partial');
    await pool.query('GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO host_partial');
    // A hardened site: functions run only where granted, and the grant lacks the session lease's check.
    await pool.query('REVOKE EXECUTE ON FUNCTION askloop_require_session_lease(text, text, bigint) FROM PUBLIC');
    await pool.query('GRANT EXECUTE ON FUNCTION askloop_require_lease(text, bigint) TO host_partial');
    try {
      const url = new URL(server.url);
      url.username = 'host_partial';
      url.password = '';
      const worker = await spawnCli(['worker', '--db', url.toString(), '--script', script, '--json']);
      expect(worker.code).toBe(1);
      const lines = worker.stdout.trim().split('\n').map((line) => JSON.parse(line) as { sid?: string; outcome?: string; error?: { code: string; message: string } });
      expect(lines.filter((line) => line.outcome === 'failed')).toHaveLength(1);
      expect(lines.at(-1)?.error).toMatchObject({ code: 'PG_QUERY_FAILED', message: expect.stringContaining('EXECUTE on askloop_require_lease and askloop_require_session_lease') });
      expect((await pool.query('SELECT state FROM askloop_queue WHERE sid = $1', [sid])).rows).toEqual([{ state: 'ready' }]);
    } finally {
      await pool.query('GRANT EXECUTE ON FUNCTION askloop_require_session_lease(text, text, bigint) TO PUBLIC');
    }
  });

  it('run --detach whose queue write fails says so with the PG_ code, names the session it created and how to queue it; resume --detach too', async () => {
    await pool.query('CREATE DATABASE detach_broken');
    const url = new URL(server.url);
    url.pathname = '/detach_broken';
    const script = await scriptFile();
    expect((await spawnCli(['run', 'first', '--script', script, '--db', url.toString(), '--detach', '--json'])).code).toBe(0);
    const broken = new pg.Pool({ connectionString: url.toString(), max: 1 });
    try {
      await broken.query('DROP TABLE askloop_queue CASCADE');
      const detached = await spawnCli(['run', 'second', '--script', script, '--db', url.toString(), '--detach', '--json']);
      expect(detached.code).toBe(1);
      const { error } = JSON.parse(detached.stdout) as { error: { code: string; message: string } };
      expect(error.code).toMatch(/^PG_/);
      const sid = /session ([0-9a-f-]{36}) was created but not queued: once the cause is fixed, queue it with askloop resume \1 --detach --db /.exec(error.message)?.[1];
      expect(sid).toBeDefined();
      const requeued = await spawnCli(['resume', sid!, '--db', url.toString(), '--detach', '--json']);
      expect(requeued.code).toBe(1);
      expect((JSON.parse(requeued.stdout) as { error: { code: string } }).error.code).toMatch(/^PG_/);
      expect(requeued.stderr).not.toContain('unexpected error');
    } finally {
      await broken.end();
    }
  });

  it('replay, resume, approve and deny of a database without the schema create nothing there, and say no session is there', async () => {
    await pool.query('CREATE DATABASE replay_empty');
    const url = new URL(server.url);
    url.pathname = '/replay_empty';
    // resume, approve and deny created the whole schema in a mistyped database before saying "no session" (they migrate).
    for (const command of ['replay', 'resume', 'approve', 'deny']) {
      const continued = await spawnCli([command, 'abcd1234', '--db', url.toString(), '--json']);
      expect(continued.code, command).toBe(1);
      expect(JSON.parse(continued.stdout).error, command).toMatchObject({ code: 'LOOP_SESSION_NOT_FOUND', message: expect.stringContaining('holds no AskLoop sessions') });
    }
    const empty = new pg.Pool({ connectionString: url.toString(), max: 1 });
    try {
      const { rows } = await empty.query("SELECT count(*)::int AS tables FROM pg_tables WHERE tablename LIKE 'askloop%'");
      expect(rows[0]).toEqual({ tables: 0 });
    } finally {
      await empty.end();
    }
  });

  it('replay and resume take --db postgres://… too', async () => {
    const run = await spawnCli(['run', 'again', '--script', await scriptFile(), '--db', server.url, '--json']);
    const { sid } = JSON.parse(run.stdout) as { sid: string };
    const replay = await spawnCli(['replay', sid, '--db', server.url]);
    expect(replay.stdout).toBe(`replay of ${sid}: matched (2 turns)\n`);
    expect(replay.code).toBe(0);
    // resume finds the session on the server; it is DONE, so it says so and runs nothing.
    const resume = await spawnCli(['resume', sid, '--db', server.url, '--json']);
    expect(resume.code).toBe(1);
    expect(JSON.parse(resume.stdout).error).toMatchObject({ code: 'CLI_SESSION_ENDED', message: expect.stringContaining(`session ${sid} already ended (DONE after 2 turns); nothing ran`) });
    // The show it suggests reads the same store, and works there.
    const suggested = (JSON.parse(resume.stdout).error as { message: string }).message.split('see it with askloop ')[1]!.split(' ');
    expect(suggested).toEqual(['show', sid, '--db', server.url]);
    expect((await spawnCli(suggested)).code).toBe(0);
  });

  it('resume --detach queues a session a worker parked failed again, and a worker finishes it; an ended or a file session is refused', async () => {
    const script = await scriptFile();
    const queued = await spawnCli(['run', 'parked', '--script', script, '--db', server.url, '--detach', '--json']);
    const { sid } = JSON.parse(queued.stdout) as { sid: string };
    // As three failed steps leave it (a worker without the plugin its agent needs, say).
    await pool.query("UPDATE askloop_queue SET state = 'failed', failures = 3, last_error = 'no provider' WHERE sid = $1", [sid]);
    const requeued = await spawnCli(['resume', sid, '--db', server.url, '--detach', '--json']);
    expect(requeued.code, requeued.stderr).toBe(0);
    expect(JSON.parse(requeued.stdout)).toEqual({ ok: true, sid, status: 'QUEUED' });
    expect((await pool.query('SELECT state, failures, last_error FROM askloop_queue WHERE sid = $1', [sid])).rows[0]).toEqual({ state: 'ready', failures: 0, last_error: null });
    const worker = startWorker(['--db', server.url, '--script', script, '--json']);
    for (let waited = 0; (await pool.query("SELECT state FROM askloop_queue WHERE sid = $1", [sid])).rows[0]?.state !== 'finished'; waited += 1) {
      if (waited > 300) throw new Error(`not finished: ${JSON.stringify(worker.output())}`);
      await pause(50);
    }
    worker.child.kill('SIGINT');
    await worker.exited;
    const again = await spawnCli(['resume', sid, '--db', server.url, '--detach', '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error).toMatchObject({ code: 'CLI_SESSION_ENDED' });
    // A session that waits for a person is answered, not queued; a sessions file has no queue.
    const awaiting = join(dir, 'await.json');
    await writeFile(awaiting, JSON.stringify([envelope('emit "[[loop:await]]"')]));
    for (const db of [server.url, join(dir, 'detach.db')]) {
      const paused = await spawnCli(['run', 'wait', '--script', awaiting, '--dialect', 'v1', '--db', db, '--json']);
      expect(paused.code).toBe(4);
      const waiting = (JSON.parse(paused.stdout) as { sid: string }).sid;
      const refused = await spawnCli(['resume', waiting, '--db', db, '--detach']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(db === server.url ? `session ${waiting} waits for a person: answer it with askloop approve ${waiting}` : '--detach queues the session for `askloop worker`, which needs a PostgreSQL store');
    }
  });

  it('a worker without --script leaves a scripted session to one that has it (no failure counted); a parked session is shown so, with how to queue it again', async () => {
    const script = await scriptFile();
    const queued = await spawnCli(['run', 'needs the script', '--script', script, '--db', server.url, '--detach', '--json']);
    const { sid } = JSON.parse(queued.stdout) as { sid: string };
    const worker = startWorker(['--db', server.url]);
    for (let waited = 0; !worker.output().stderr.includes(`${sid}: left to another worker`); waited += 1) {
      if (waited > 600) throw new Error(`not left: ${JSON.stringify(worker.output())}`);
      await pause(50);
    }
    worker.child.kill('SIGINT');
    await worker.exited;
    const { stderr } = worker.output();
    expect(stderr).toContain('; a session run with --script needs a worker started with --script FILE (LOOP_PROVIDER_NOT_FOUND); this worker looks at it again in a minute');
    // Before, three such steps parked it, though a worker with the script could have run it.
    expect((await pool.query('SELECT state, failures, last_error FROM askloop_queue WHERE sid = $1', [sid])).rows[0]).toMatchObject({ state: 'ready', failures: 0, last_error: expect.stringContaining('scripted') });
    // Waiting for a worker that has the script, it is listed as queued (walkthrough: it read plain running).
    const waiting = await spawnCli(['sessions', '--db', server.url, '--status', 'running', '--json']);
    expect((JSON.parse(waiting.stdout) as { sid: string; queued?: boolean }[]).find((row) => row.sid === sid)?.queued).toBe(true);
    expect((await spawnCli(['sessions', '--db', server.url, '--status', 'running'])).stdout.split('\n').find((line) => line.includes(sid))).toContain('running (queued)');
    // As repeated failed steps of another cause leave a session: parked.
    await pool.query("UPDATE askloop_queue SET state = 'failed', failures = 3, last_error = 'unknown provider \"scripted\"' WHERE sid = $1", [sid]);
    // show says so too, where the session's status still reads running.
    const shown = await spawnCli(['show', sid, '--db', server.url]);
    expect(shown.stdout).toMatch(/ {2}status {3}running/);
    expect(shown.stdout).toMatch(new RegExp(`  queue {4}parked after 3 failed steps \\(last: .*\\); no worker takes it until askloop resume ${sid} --db \\S+ --detach queues it again`));
    const json = await spawnCli(['show', sid, '--db', server.url, '--json']);
    expect(JSON.parse(json.stdout).queue).toMatchObject({ state: 'failed', failures: 3, lastError: expect.stringContaining('scripted') });
    // And sessions marks it, in the table and in --json; the other running sessions are not marked.
    const listed = await spawnCli(['sessions', '--db', server.url, '--status', 'running', '--json']);
    const rows = JSON.parse(listed.stdout) as { sid: string; parked?: boolean }[];
    expect(rows.find((row) => row.sid === sid)?.parked).toBe(true);
    expect(rows.filter((row) => row.parked === true).map((row) => row.sid)).toEqual([sid]);
    const table = await spawnCli(['sessions', '--db', server.url, '--status', 'running']);
    expect(table.stdout.split('\n').find((line) => line.includes(sid))).toContain('running (parked)');
  });

  it('reads store: postgres://… from askloop.config.yaml', async () => {
    const project = join(dir, 'project');
    await rm(project, { recursive: true, force: true });
    await mkdir(project);
    await writeFile(join(project, 'askloop.config.yaml'), `store: ${server.url}\n`);
    const run = await spawnCli(['run', 'from config', '--script', await scriptFile(), '--detach'], { cwd: project });
    expect(run.code).toBe(0);
    const sid = run.stdout.trim();
    expect((await pool.query("SELECT state FROM askloop_queue WHERE sid = $1", [sid])).rows).toEqual([{ state: 'ready' }]);
    // The worker it names carries what a worker needs of this run (the config with its store, the scripted replies), and works pasted elsewhere.
    const named = new RegExp(`askloop: session ${sid} queued; an \`askloop worker\` on the same store runs it: askloop worker (.+)\n`).exec(run.stderr)?.[1];
    expect(named).toBe(`--config ${join(project, 'askloop.config.yaml')} --script ${join(dir, 'two-turns.json')}`);
    const pasted = startWorker(named!.split(' '), tmpdir());
    for (let waited = 0; (await pool.query("SELECT 1 FROM askloop_sessions WHERE sid = $1 AND status = 'done'", [sid])).rows.length === 0; waited += 1) {
      if (waited > 600) throw new Error(`the pasted worker did not finish it: ${JSON.stringify(pasted.output())}`);
      await pause(50);
    }
    pasted.child.kill('SIGINT');
    expect(await pasted.exited).toBe(0);
  });

  it("a worker takes the config's http: { specialAddresses: granted }, so a net pattern reaches a loopback service", async () => {
    const service = createServer((_request, response) => response.end('internal answer'));
    await new Promise<void>((listening) => service.listen(0, '127.0.0.1', listening));
    try {
      const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}/`;
      const project = join(dir, 'http-project');
      await mkdir(project, { recursive: true });
      await writeFile(join(project, 'askloop.config.yaml'), `store: ${server.url}\nhttp:\n  specialAddresses: granted\n`);
      const script = join(project, 'fetch.json');
      await writeFile(script, JSON.stringify([envelope(`set r = tool.http.Fetch("${url}")`, 'emit "<<<LOOP:DONE>>> " + r["body"]')]));
      const run = await spawnCli(['run', 'fetch', '--script', script, '--allow', 'tool.http.Fetch', '--grant', 'net:read:*', '--detach', '--json'], { cwd: project });
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      const { sid } = JSON.parse(run.stdout) as { sid: string };
      const host = startWorker(['--script', script, '--json', '--lease-ms', '5000'], project);
      for (let waited = 0; ; waited += 1) {
        const done = await pool.query("SELECT status, record FROM askloop_sessions WHERE sid = $1 AND status <> 'running'", [sid]);
        if (done.rows.length === 1) {
          expect(done.rows[0].status, JSON.stringify(host.output())).toBe('done');
          expect((JSON.parse(done.rows[0].record as string) as { lastDecision: { result: string } }).lastDecision.result).toBe('internal answer');
          break;
        }
        if (waited > 600) throw new Error(`the worker did not finish: ${JSON.stringify(host.output())}`);
        await pause(50);
      }
      host.child.kill('SIGINT');
      expect(await host.exited).toBe(0);
    } finally {
      await new Promise<void>((closed) => service.close(() => closed()));
    }
  });

  it("a worker serves sessions of the config's agents with the config's plugin packages", async () => {
    const project = join(dir, 'plugin-project');
    await mkdir(join(project, 'node_modules'), { recursive: true });
    await symlink(fileURLToPath(new URL('./fixtures/plugin-project/askloop-plugin-acme', import.meta.url)), join(project, 'node_modules', 'askloop-plugin-acme'), 'dir');
    const fixture = await readFile(fileURLToPath(new URL('./fixtures/plugin-project/askloop.config.yaml', import.meta.url)), 'utf8');
    await writeFile(join(project, 'askloop.config.yaml'), `${fixture}\nstore: ${server.url}\n`);
    const run = await spawnCli(['run', '--agent', 'greeter', 'Ada', '--detach', '--json'], { cwd: project });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const { sid } = JSON.parse(run.stdout) as { sid: string };
    const host = startWorker(['--json', '--lease-ms', '5000'], project);
    for (let waited = 0; ; waited += 1) {
      const done = await pool.query("SELECT record FROM askloop_sessions WHERE sid = $1 AND status <> 'running'", [sid]);
      if (done.rows.length === 1) {
        expect((JSON.parse(done.rows[0].record as string) as { lastDecision: { result: string } }).lastDecision.result).toBe('Hello, Ada, from ACME!');
        break;
      }
      if (waited > 600) throw new Error(`the worker did not finish: ${JSON.stringify(host.output())}`);
      await pause(50);
    }
    host.child.kill('SIGINT');
    expect(await host.exited).toBe(0);
  });

  it("never prints a key of its environment that a failed step's error quotes (a plugin hook's), in text or --json", async () => {
    const KEY = 'acme-live-7Hq2Lm9Xz4Pw';
    const project = join(dir, 'leaky-project');
    await mkdir(join(project, 'node_modules'), { recursive: true });
    await symlink(fileURLToPath(new URL('./fixtures/plugin-project/askloop-plugin-leaky', import.meta.url)), join(project, 'node_modules', 'askloop-plugin-leaky'), 'dir');
    await writeFile(join(project, 'askloop.config.yaml'), `plugins:\n  - askloop-plugin-leaky\nstore: ${server.url}\n`);
    const script = await scriptFile();
    // The worker reads the key from its environment (spawned with this process's), and the hook throws with it.
    Object.assign(process.env, { ACME_API_KEY: KEY, LEAKY_HOOK: '1' });
    try {
      for (const json of [true, false]) {
        const run = await spawnCli(['run', 'leaky', '--script', script, '--detach', '--json'], { cwd: project });
        expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
        const host = startWorker([...(json ? ['--json'] : []), '--script', script, '--lease-ms', '5000'], project);
        for (let waited = 0; !/hook: bad key/.test(json ? host.output().stdout : host.output().stderr); waited += 1) {
          if (waited > 600) throw new Error(`the worker printed no failed step: ${JSON.stringify(host.output())}`);
          await pause(50);
        }
        host.child.kill('SIGKILL');
        await host.exited;
        const printed = `${host.output().stdout}${host.output().stderr}`;
        expect(printed).toContain('hook: bad key [redacted]');
        expect(printed).not.toContain(KEY);
      }
      // What the queue keeps of the failed steps (lastError, read by other hosts) has it redacted too.
      const stored = (await pool.query<{ last_error: string }>("SELECT last_error FROM askloop_queue WHERE last_error LIKE '%hook: bad key%'")).rows;
      expect(stored.length).toBeGreaterThan(0);
      for (const row of stored) expect(row.last_error).toContain('hook: bad key [redacted]');
      expect(JSON.stringify(stored)).not.toContain(KEY);
    } finally {
      delete process.env.ACME_API_KEY;
      delete process.env.LEAKY_HOOK;
    }
  });

  it("a worker without the tools a session's agent allows (tool.fs.*, no --fs-root) leaves it to one that has them; run --detach warns that --fs-root stays behind", async () => {
    const root = join(dir, 'fs-root');
    await mkdir(root, { recursive: true });
    await writeFile(join(root, 'note.txt'), 'from the root');
    const script = join(dir, 'fs-read.json');
    await writeFile(script, JSON.stringify([envelope('emit "<<<LOOP:DONE>>> " + tool.fs.Read("/note.txt")')]));
    const queued = await spawnCli(['run', 'read the note', '--script', script, '--allow', 'tool.fs.*', '--grant', 'fs:read:/**', '--fs-root', root, '--db', server.url, '--detach', '--json']);
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stderr).toContain('askloop: warning: --fs-root is not passed to the workers, which run the session with their own options: start them with --fs-root DIR');
    const { sid } = JSON.parse(queued.stdout) as { sid: string };
    // Without --fs-root: the step fails (LOOP_TOOLS_MISSING) and the session stays running, not halted ERR_PERMISSIONS.
    const lacking = startWorker(['--db', server.url, '--script', script, '--json', '--lease-ms', '5000']);
    for (let waited = 0; !lacking.output().stdout.includes('LOOP_TOOLS_MISSING'); waited += 1) {
      if (waited > 600) throw new Error(`the worker failed no step: ${JSON.stringify(lacking.output())}`);
      await pause(50);
    }
    lacking.child.kill('SIGINT');
    await lacking.exited;
    const line = lacking.output().stdout.split('\n').find((text) => text.includes('LOOP_TOOLS_MISSING'))!;
    expect(JSON.parse(line)).toMatchObject({ sid, outcome: 'skipped', code: 'LOOP_TOOLS_MISSING', error: expect.stringContaining("its agent allows 'tool.fs.*', and this worker has no such tool (tool.fs.* is there with --fs-root DIR)") });
    expect((await pool.query('SELECT status FROM askloop_sessions WHERE sid = $1', [sid])).rows).toEqual([{ status: 'running' }]);
    // Left to another worker, not counted toward parking it (three such steps parked it, a capable worker or not).
    expect((await pool.query('SELECT state, failures FROM askloop_queue WHERE sid = $1', [sid])).rows).toEqual([{ state: 'ready', failures: 0 }]);
    // A worker with it finishes the session.
    const having = startWorker(['--db', server.url, '--script', script, '--fs-root', root, '--json', '--lease-ms', '5000']);
    for (let waited = 0; (await pool.query("SELECT 1 FROM askloop_sessions WHERE sid = $1 AND status = 'done'", [sid])).rows.length === 0; waited += 1) {
      if (waited > 600) throw new Error(`the worker did not finish it: ${JSON.stringify(having.output())}`);
      await pause(50);
    }
    having.child.kill('SIGINT');
    await having.exited;
    const done = await pool.query('SELECT record FROM askloop_sessions WHERE sid = $1', [sid]);
    expect((JSON.parse(done.rows[0].record as string) as { lastDecision: { result: string } }).lastDecision.result).toBe('from the root');
  });

  it("a worker's closing tally counts in the singular what it did once (1 turn committed, 1 session left to other workers)", async () => {
    await pool.query('CREATE DATABASE worker_tally');
    const url = new URL(server.url);
    url.pathname = '/worker_tally';
    const script = join(dir, 'one-turn.json');
    await writeFile(script, JSON.stringify([envelope('emit "<<<LOOP:DONE>>> once"')]));
    const { sid } = JSON.parse((await spawnCli(['run', 'once', '--script', script, '--db', url.toString(), '--detach', '--json'])).stdout) as { sid: string };
    // Without --script: the session is left to another worker, once.
    const lacking = startWorker(['--db', url.toString()]);
    for (let waited = 0; !lacking.output().stderr.includes(`${sid}: left to another worker`); waited += 1) {
      if (waited > 600) throw new Error(`not left: ${JSON.stringify(lacking.output())}`);
      await pause(50);
    }
    lacking.child.kill('SIGINT');
    expect(await lacking.exited).toBe(0);
    expect(lacking.output().stderr).toMatch(/askloop worker: 0 turns committed, 0 leases lost, 0 conflicts retried, 0 failed steps, 1 session left to other workers\n$/);
    const having = startWorker(['--db', url.toString(), '--script', script]);
    for (let waited = 0; !having.output().stderr.includes(`${sid}: turn 1 DONE`); waited += 1) {
      if (waited > 600) throw new Error(`not done: ${JSON.stringify(having.output())}`);
      await pause(50);
    }
    having.child.kill('SIGINT');
    expect(await having.exited).toBe(0);
    expect(having.output().stderr).toMatch(/askloop worker: 1 turn committed, 0 leases lost, 0 conflicts retried, 0 failed steps\n$/);
  });

  it('--detach and worker need a PostgreSQL store (usage error, exit 2); an unreachable server is PG_QUERY_FAILED without its password', async () => {
    const detached = await spawnCli(['run', 'x', '--script', await scriptFile(), '--db', join(dir, 'file.db'), '--detach']);
    expect(detached.code).toBe(2);
    expect(detached.stderr).toContain('--detach');
    const worker = await spawnCli(['worker', '--db', join(dir, 'file.db')]);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toContain('PostgreSQL');
    const refused = await spawnCli(['worker', '--db', 'postgres://someone:hunter2@127.0.0.1:1/none', '--json']);
    expect(refused.code).toBe(1);
    const error = JSON.parse(refused.stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(error).toMatchObject({ ok: false, error: { code: 'PG_QUERY_FAILED' } });
    expect(refused.stdout + refused.stderr).not.toContain('hunter2');
    // A URL pasted from a printed next step with its *** placeholder: said, as the server only says the login failed.
    const pasted = await spawnCli(['sessions', '--db', 'postgres://someone:***@127.0.0.1:1/none', '--json']);
    expect(pasted.code).toBe(1);
    expect(JSON.parse(pasted.stdout).error.message).toContain("the URL's password is ***, which askloop prints in place of a hidden one: give the real password");
  });
});

describe('readers of a PostgreSQL store', () => {
  it("sessions' footer says a hidden --db password must be given again (a pasted *** fails to log in)", async () => {
    await spawnCli(['run', 'listed', '--script', await scriptFile(), '--db', server.url, '--json']);
    const url = new URL(server.url);
    url.password = 'footer-pass-123';
    const table = await spawnCli(['sessions', '--db', url.toString()]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain("askloop show SID --db 'postgres://");
    expect(table.stdout).toContain(':***@');
    expect(table.stdout).toContain('(the password of --db is not shown: pass the same --db as this run)');
    expect(table.stdout + table.stderr).not.toContain('footer-pass-123');
  });

  it('sessions and show read it, as they read a sessions file: the session run in place and the one a worker finished after --detach', async () => {
    const script = await scriptFile();
    const inPlace = JSON.parse((await spawnCli(['run', 'read me', '--script', script, '--db', server.url, '--json'])).stdout) as { sid: string };
    const queued = JSON.parse((await spawnCli(['run', 'queued one', '--script', script, '--db', server.url, '--detach', '--json'])).stdout) as { sid: string };
    const host = startWorker(['--db', server.url, '--script', script, '--json', '--lease-ms', '5000']);
    for (let waited = 0; (await pool.query("SELECT 1 FROM askloop_sessions WHERE sid = $1 AND status = 'done'", [queued.sid])).rows.length === 0; waited += 1) {
      if (waited > 600) throw new Error(`the worker did not finish: ${JSON.stringify(host.output())}`);
      await pause(50);
    }
    host.child.kill('SIGINT');
    await host.exited;

    const listed = await spawnCli(['sessions', '--db', server.url, '--json']);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as { sid: string; task: string; status: string; turns: number }[];
    expect(rows.find((row) => row.sid === inPlace.sid)).toMatchObject({ task: 'read me', status: 'done', turns: 2 });
    expect(rows.find((row) => row.sid === queued.sid)).toMatchObject({ task: 'queued one', status: 'done', turns: 2 });
    const table = await spawnCli(['sessions', '--db', server.url]);
    expect(table.stdout).toContain(`in ${server.url}`);

    const shown = await spawnCli(['show', queued.sid.slice(0, 8), '--db', server.url, '--json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ ok: true, session: { sid: queued.sid, status: 'done' }, turns: [{ turnIndex: 1 }, { turnIndex: 2 }] });
    const text = await spawnCli(['show', queued.sid, '--db', server.url]);
    expect(text.stdout).toContain(`session ${queued.sid}`);
    expect(text.stdout).toContain('QUEUED ONE');
    const missing = await spawnCli(['show', 'ffffffff', '--db', server.url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('LOOP_SESSION_NOT_FOUND');
  });

  it('show says a session queued by run --detach waits for a worker, where its status reads running', async () => {
    await pool.query('CREATE DATABASE show_queued');
    const url = new URL(server.url);
    url.pathname = '/show_queued';
    const { sid } = JSON.parse((await spawnCli(['run', 'not yet', '--script', await scriptFile(), '--db', url.toString(), '--detach', '--json'])).stdout) as { sid: string };
    const shown = await spawnCli(['show', sid, '--db', url.toString()]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/ {2}status {3}running\n {2}queue {4}waiting for an askloop worker on this store to take its next turn\n/);
    expect(JSON.parse((await spawnCli(['show', sid, '--db', url.toString(), '--json'])).stdout).queue).toMatchObject({ state: 'ready', failures: 0 });
    // After failed steps (a provider that was down, say): how many, and the last error.
    const queuedDb = new pg.Pool({ connectionString: url.toString(), max: 1 });
    try {
      await queuedDb.query("UPDATE askloop_queue SET failures = 2, last_error = 'the provider was down' WHERE sid = $1", [sid]);
    } finally {
      await queuedDb.end();
    }
    expect((await spawnCli(['show', sid, '--db', url.toString()])).stdout).toContain('waiting for an askloop worker on this store to take its next turn (2 failed steps so far; last: the provider was down)\n');
  });

  it('a database no session ran on has no sessions, and reading it creates nothing', async () => {
    await pool.query('DROP DATABASE IF EXISTS unused');
    await pool.query('CREATE DATABASE unused');
    const url = server.url.replace(/\/postgres$/, '/unused');
    const listed = await spawnCli(['sessions', '--db', url, '--json']);
    expect({ code: listed.code, stdout: listed.stdout }).toEqual({ code: 0, stdout: '[]\n' });
    const shown = await spawnCli(['show', 'abcd', '--db', url]);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain('LOOP_SESSION_NOT_FOUND');
    const other = new pg.Pool({ connectionString: url, max: 1 });
    try {
      expect((await other.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).rows).toEqual([{ n: 0 }]);
    } finally {
      await other.end();
    }
  });

  it('a search of a database not yet migrated to the task column is PG_SCHEMA_OLDER, as the store error it is (text and --json)', async () => {
    await pool.query('DROP DATABASE IF EXISTS older');
    await pool.query('CREATE DATABASE older');
    const url = server.url.replace(/\/postgres$/, '/older');
    const other = new pg.Pool({ connectionString: url, max: 1 });
    try {
      // The controller's first three migrations only: the schema of a database an earlier askloop wrote.
      await migrateOwner(other, 'controller', CONTROLLER_MIGRATIONS.slice(0, 3));
    } finally {
      await other.end();
    }
    const listed = await spawnCli(['sessions', '--db', url, '--json']);
    expect({ code: listed.code, stdout: listed.stdout }).toEqual({ code: 0, stdout: '[]\n' });
    const text = await spawnCli(['sessions', '--db', url, '--search', 'report']);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/migrate the database first .*\(PG_SCHEMA_OLDER\)\n$/);
    expect(text.stderr).not.toContain('unexpected error');
    const json = await spawnCli(['sessions', '--db', url, '--search', 'report', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'PG_SCHEMA_OLDER' } });
  });

  it('an unreachable server is PG_QUERY_FAILED without its password; view refuses a PostgreSQL store, naming what reads one', async () => {
    const refused = await spawnCli(['sessions', '--db', 'postgres://someone:hunter2@127.0.0.1:1/none']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('(PG_QUERY_FAILED)');
    expect(refused.stderr).not.toContain('hunter2');
    const view = await spawnCli(['view', '--db', server.url, '--no-open']);
    expect(view.code).toBe(2);
    expect(view.stderr).toContain('askloop view reads a SQLite sessions file only; read a PostgreSQL store with askloop sessions --db postgres://… and askloop show SID --db postgres://… (CLI_USAGE)');
  });
});

/**
 * A session's agent is stored with it, and a `${NAME}` in it is text for the
 * model, never filled in: it names no secret, for the run that read the agent
 * file nor for the commands that read the session from the store. Through
 * the real CLI on a real sessions file, with an agent file whose instructions
 * name `${PROJECT_NAME}` and a model that writes the project's name:
 * `resume` stores and prints it as written, and `show`, `sessions` and the
 * viewer serve it. Regression: every command counted a stored agent's
 * references as secrets, so the name became `[REDACTED]` in every reply, so
 * in every program that ran. What stays a secret for a command that reads a
 * stored session — a variable the config hands to an MCP server — is still
 * hidden by `askloop worker` (on a real PostgreSQL server), which reads no
 * agent file, in what it stores and prints; and `run --detach` refused for
 * such a value in what the agent is names the variable, never the value.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgresServer, type PostgresServer } from '@askloop/postgres/testing';
import pg from 'pg';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from './envelope-reply.ts';
import { CLI_SOURCE, spawnCli } from './spawn-cli.ts';
import { tempFolder, writeFiles } from './temp-folder.ts';
import { viewerAnswers } from './viewer-answers.ts';
import { fileBytes } from './sqlite-file-bytes.ts';

// An ordinary value of 8 characters or more, which the instructions mention by name.
const PROJECT = 'acme-webshop';
// Shaped like no known key, in a variable not named like one: only the config's handing it to a server makes it a secret.
const CRED = 'svc-cred-7Hq2Lm9Xz4Pw';
const ENV = { PROJECT_NAME: PROJECT, MY_SERVICE_CRED: CRED };
const FIXTURE_SERVER = fileURLToPath(new URL('./fixtures/mcp-fixture-server.ts', import.meta.url));
const root = tempFolder('stored-agent-secrets');
const folder = writeFiles(join(root, 'plain'), {
  'agent.yaml': 'name: deployer\ninstructions: "The project is ${PROJECT_NAME}; name it in your answer."\n',
  // Turn 1 goes on; turn 2 writes the project's name.
  'replies.json': JSON.stringify([envelope('emit "looked"'), envelope(`emit "<<<LOOP:DONE>>> deployed ${PROJECT}"`)]),
  'first.json': JSON.stringify([envelope('emit "looked"')]),
});
// A config whose MCP server is handed MY_SERVICE_CRED; one turn that fails with the credential in its error.
const project = writeFiles(join(root, 'project'), {
  'askloop.config.yaml': `mcpServers:\n  svc:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FIXTURE_SERVER)}]\n    env:\n      SERVICE_AUTH: \${MY_SERVICE_CRED}\n`,
  'fails.json': JSON.stringify([envelope(`fail "refused: ${CRED}"`)]),
});

const cli = (args: string[], cwd = folder) => spawnCli(args, { cwd, env: ENV });

describe("a stored agent's ${NAME} is text, not a secret", () => {
  it('askloop resume stores and prints the value as the model wrote it; show, sessions and the viewer serve it', async () => {
    // Its second turn finds no reply left: HALT ERR_PROVIDER, resumable.
    const ran = await cli(['run', 'deploy', '--agent', 'agent.yaml', '--script', 'first.json', '--db', 'resume.db', '--json']);
    expect(ran.code, ran.stderr).toBe(3);
    const { sid } = JSON.parse(ran.stdout) as { sid: string };
    // Resumed with no agent file: the stored agent is all the command reads.
    const resumed = await cli(['resume', sid, '--script', 'replies.json', '--db', 'resume.db', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'DONE', result: `deployed ${PROJECT}` });
    expect(fileBytes(join(folder, 'resume.db'))).toContain(`deployed ${PROJECT}`);
    for (const args of [['show', sid, '--db', 'resume.db', '--json'], ['show', sid, '--db', 'resume.db', '--full'], ['sessions', '--db', 'resume.db', '--json']]) {
      const shown = await cli(args);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(args[0] === 'sessions' ? sid : `deployed ${PROJECT}`);
      expect(shown.stdout).not.toContain('[redacted]');
    }
    const served = await viewerAnswers(['--db', 'resume.db'], [sid], { cwd: folder, env: ENV });
    expect(served).toContain(`deployed ${PROJECT}`);
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

  it('hides the value of a variable the config hands to an MCP server in what the loop stores and in the lines it prints', async () => {
    const queued = await cli(['run', 'sign it', '--script', 'fails.json', '--no-tool-loop', '--db', server.url, '--detach', '--json'], project);
    expect(queued.code, queued.stderr).toBe(0);
    const { sid } = JSON.parse(queued.stdout) as { sid: string };
    // The worker reads no agent file: the config it loads names the variable.
    const worker = spawn(process.execPath, ['--conditions=@askloop/source', '--no-warnings', CLI_SOURCE, 'worker', '--db', server.url, '--script', join(project, 'fails.json'), '--json'], { cwd: project, env: { ...process.env, ...ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
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

  it('run --detach refused for such a value in a grant of the agent names the variable, never the value, and queues nothing', async () => {
    const queued = await spawnCli(['run', 'list', '--script', 'fails.json', '--grant', 'fs:read:/workspace/**', '--db', server.url, '--detach', '--json'], { cwd: project, env: { ...ENV, MY_SERVICE_CRED: 'workspace' } });
    expect(queued.code, queued.stderr).toBe(1);
    const { error } = JSON.parse(queued.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('LOOP_AGENT_INVALID');
    expect(error.message).toContain("agent 'cli': policy.grants[0] holds the value of the environment variable MY_SERVICE_CRED, a secret to askloop because a file this command read hands it to an MCP server");
    expect(`${queued.stdout}${queued.stderr}`).not.toContain('workspace');
    const sessions = await pool.query("SELECT count(*)::int AS n FROM askloop_sessions WHERE task = 'list'");
    expect(sessions.rows[0].n).toBe(0);
  });
});

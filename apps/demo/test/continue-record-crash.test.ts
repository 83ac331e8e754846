/**
 * The options a run's next steps need again (`--script`, `--mcp-config`, …)
 * are kept with its session before its loop starts, so a host killed in the
 * middle of the run leaves them too: `resume SID --db FILE` then names them.
 * Regression: they were kept only once the loop ended, and a SIGKILLed run's
 * `resume` hint lacked them. A run that never starts a session keeps none.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSqlite } from '@askloop/tools';
import { envelope } from './envelope-reply.ts';
import { CLI_SOURCE, spawnCli } from './spawn-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-continue-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a run killed mid-turn', () => {
  it('leaves its --script for resume to name', async () => {
    // A fetch that never answers holds the turn open while the host is killed.
    let reached!: () => void;
    const fetched = new Promise<void>((resolve) => (reached = resolve));
    const server = createServer(() => reached());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const script = join(dir, 'replies.json');
    writeFileSync(script, JSON.stringify([envelope(`emit tool.http.Fetch("http://127.0.0.1:${port}/")["body"]`)]));
    const db = join(dir, 'sessions.db');
    const child = spawn(process.execPath, ['--conditions=@askloop/source', '--no-node-snapshot', '--no-warnings', CLI_SOURCE, 'run', 'fetch it', '--script', script, '--db', db, '--allow', 'tool.http.Fetch', '--grant', `net:read:127.0.0.1:${port}`], { stdio: 'ignore' });
    try {
      await fetched;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    } finally {
      server.closeAllConnections();
      server.close();
    }
    const database = new (loadSqlite().DatabaseSync)(db, { readOnly: true });
    const sid = (database.prepare('SELECT sid FROM controller_sessions').get() as { sid: string }).sid;
    database.close();
    // Without --script, resume refuses (the session's scripted model has no replies here) and names the file its run used.
    const resumed = await spawnCli(['resume', sid, '--db', db]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(`askloop resume ${sid} --db ${db} --script ${script}`);
  });

  it('keeps no options for a run that never started a session', async () => {
    const db = join(dir, 'refused.db');
    const script = join(dir, 'replies.json');
    // Refused before the loop starts a session: an agent whose cost ceiling its scripted model could never reach.
    const agent = join(dir, 'agent.json');
    writeFileSync(agent, JSON.stringify({ name: 'a', ceilings: { costUsd: 1 } }));
    const refused = await spawnCli(['run', 'x', '--script', script, '--db', db, '--agent', agent]);
    expect(refused.code).toBe(1);
    const database = new (loadSqlite().DatabaseSync)(db, { readOnly: true });
    const table = database.prepare("SELECT name FROM sqlite_master WHERE name = 'askloop_cli_continue'").get();
    const rows = table === undefined ? [] : database.prepare('SELECT sid FROM askloop_cli_continue').all();
    database.close();
    expect(rows).toEqual([]);
  });
});

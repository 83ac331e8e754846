/**
 * `askloop view --config FILE` serves, for a session no host runs, the resume
 * command with the sessions file the config names. Regression (review): it
 * was built from `--db` alone, so with the store from `--config` the command
 * read `askloop resume SID` and, pasted, looked in the default store.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_SOURCE } from './spawn-cli.ts';
import { seedSession, sessionsFileIn } from './view-seed.ts';
import { tempFolder } from './temp-folder.ts';

const dir = tempFolder('view-config');

describe('askloop view --config', () => {
  it("gives a session no host runs the resume command with the config's sessions file", async () => {
    const { db, store } = sessionsFileIn(dir, 'team.db');
    const sid = await seedSession(store, 'orphaned-config', { createdAt: new Date(Date.now() - 60_000).toISOString() });
    expect(await store.acquireLease!(sid, 'dead-host', 1)).toBe(true);
    await store.close();
    writeFileSync(join(dir, 'team.yaml'), 'store:\n  path: team.db\n');
    const child = spawn(process.execPath, ['--conditions=@askloop/source', '--no-warnings', '--no-node-snapshot', CLI_SOURCE, 'view', '--config', join(dir, 'team.yaml'), '--no-open'], {
      cwd: dir,
      env: { ...process.env, XDG_DATA_HOME: join(dir, 'elsewhere') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (text: string) => {
          stdout += text;
          const match = /askloop view: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        child.on('close', () => reject(new Error('exited before printing the URL')));
      });
      const { session } = (await (await fetch(new URL(`/api/sessions/${sid}`, url))).json()) as { session: Record<string, unknown> };
      expect(session).toMatchObject({ orphaned: true, resume: `askloop resume ${sid} --db ${db}` });
    } finally {
      child.kill('SIGINT');
    }
  });
});

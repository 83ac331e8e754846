/**
 * The built CLI (`dist/cli.js`, after `pnpm build`) runs what the sources do:
 * the bundler once turned `node:sqlite` into a bare `sqlite` import, which
 * only the built file shows. Skipped when there is no build.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { envelope } from './envelope-reply.ts';
import { spawnCli } from './spawn-cli.ts';

const BUILT = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'askloop-built-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe.skipIf(!existsSync(BUILT))('the built CLI', () => {
  it('runs a session and keeps its continuation options beside it (node:sqlite in the bundle)', async () => {
    writeFileSync(join(temp, 'one.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> built"')]));
    const run = await spawnCli(['run', 'x', '--script', 'one.json', '--db', 's.db'], { script: BUILT, node: process.execPath, cwd: temp, env: { HOME: temp } });
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: 'built\n' });
    const database = new DatabaseSync(join(temp, 's.db'), { readOnly: true });
    try {
      expect(database.prepare('SELECT options FROM askloop_cli_continue').all()).toEqual([{ options: JSON.stringify({ script: join(temp, 'one.json') }) }]);
    } finally {
      database.close();
    }
  });
});

/**
 * A plugin tool that quotes the environment's key (in its result and in its
 * error) never gets it to the model's envelope, the sessions file or what
 * `askloop run` and `askloop ns run` print. Regression: the key reached the
 * next turn's OUTPUT and `controller_turns`, and `ns run` printed it; only
 * what `run` printed was masked.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

// Not shaped like a known key (`sk-…`): only its being the value of a key-like variable can hide it.
const KEY = 'acme-live-7Hq2Lm9Xz4Pw';
const PLUGIN = fileURLToPath(new URL('./fixtures/plugin-project/askloop-plugin-leaky', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'askloop-tool-secrets-'));
const saved = process.env.ACME_API_KEY;
beforeAll(() => {
  // The plugin reads the process's environment; the CLI reads its io's.
  process.env.ACME_API_KEY = KEY;
});
afterAll(() => {
  if (saved === undefined) delete process.env.ACME_API_KEY;
  else process.env.ACME_API_KEY = saved;
  rmSync(dir, { recursive: true, force: true });
});
mkdirSync(join(dir, 'node_modules'));
symlinkSync(PLUGIN, join(dir, 'node_modules', 'askloop-plugin-leaky'), 'dir');
writeFileSync(join(dir, 'leaky.yaml'), 'plugins:\n  - askloop-plugin-leaky\n');
writeFileSync(join(dir, 'script.json'), JSON.stringify([envelope('emit tool.leaky.Check(false)', 'call tool.leaky.Check(true)'), envelope('emit "<<<LOOP:DONE>>> " + "stopped"')]));
writeFileSync(join(dir, 'leak.ns'), 'command\n  emit tool.leaky.Check(false)\n  call tool.leaky.Check(true)\nendcommand\n');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ cwd: dir });
  Object.assign(io.env, { ACME_API_KEY: KEY });
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

describe("a plugin tool quoting the environment's key", () => {
  it('askloop run: the sessions file, the next envelope and the output hold [REDACTED] instead', async () => {
    const db = join(dir, 'sessions.db');
    const ran = await cli(['run', 'check the key', '--config', 'leaky.yaml', '--script', 'script.json', '--allow', 'tool.leaky.*', '--db', db, '--json']);
    expect(ran.code, ran.err).toBe(0);
    expect(JSON.parse(ran.out)).toMatchObject({ status: 'DONE', turns: 2 });
    const stored = readFileSync(db).toString('latin1') + readFileSync(`${db}-wal`, { flag: 'a+' }).toString('latin1');
    expect(stored).toContain('bad key [REDACTED]');
    expect(stored).not.toContain(KEY);
    expect(`${ran.out}${ran.err}`).not.toContain(KEY);
    const shown = await cli(['show', JSON.parse(ran.out).sid as string, '--db', db, '--full']);
    expect(shown.out).toContain('using [REDACTED]');
    expect(`${shown.out}${shown.err}`).not.toContain(KEY);
  });

  it('askloop ns run: the emitted result and the failure print [REDACTED], in text and --json', async () => {
    for (const json of [false, true]) {
      const ran = await cli(['ns', 'run', 'leak.ns', '--config', 'leaky.yaml', '--allow', 'tool.leaky.*', ...(json ? ['--json'] : [])]);
      expect(ran.code).toBe(1);
      expect(`${ran.out}${ran.err}`).toContain('using [REDACTED]');
      expect(`${ran.out}${ran.err}`).toContain('bad key [REDACTED]');
      expect(`${ran.out}${ran.err}`).not.toContain(KEY);
    }
  });

  it('askloop ns run: a key the program rebuilds from parts is printed [redacted] too, emitted or failed, in text and --json', async () => {
    // No tool gives it back, so the tool host's redaction never sees it: only what the CLI prints can hide it.
    writeFileSync(join(dir, 'rebuild.ns'), `command\n  emit "key: " + "${KEY.slice(0, 8)}" + "${KEY.slice(8)}"\n  fail "bad " + "${KEY.slice(0, 8)}" + "${KEY.slice(8)}"\nendcommand\n`);
    for (const json of [false, true]) {
      const ran = await cli(['ns', 'run', 'rebuild.ns', ...(json ? ['--json'] : [])]);
      expect(ran.code).toBe(1);
      expect(`${ran.out}${ran.err}`).toContain('key: [redacted]');
      expect(`${ran.out}${ran.err}`).toContain('bad [redacted]');
      expect(`${ran.out}${ran.err}`).not.toContain(KEY);
    }
  });
});

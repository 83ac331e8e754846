/**
 * A store value that looks like a URL but is no PostgreSQL one (a mistyped
 * `postgress://`, `mysql://`) is refused with the accepted forms named —
 * for `--db` on every command that takes it, and for the config's
 * `store: { path }` — and no file or folder is created for it.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

const temp = mkdtempSync(join(tmpdir(), 'askloop-store-url-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
writeFileSync(join(temp, 'one.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> hi"')]));

async function cli(args: string[], cwd = temp): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ cwd });
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

describe('a --db URL that is not postgres://', () => {
  const commands = [['run', 'x', '--script', 'one.json'], ['demo'], ['sessions'], ['show', 'abcd'], ['replay', 'abcd'], ['resume', 'abcd'], ['approve', 'abcd'], ['deny', 'abcd'], ['view', '--no-open']];
  for (const url of ['postgress://askloop@db/askloop', 'mysql://u:hunter2@h/db']) {
    for (const args of commands) {
      it(`${args[0]} --db ${url}: CLI_OPTION_INVALID naming the accepted forms, nothing created`, async () => {
        const before = readdirSync(temp).sort();
        // (view has no --json: its error is the line on standard error.)
        const json = args[0] !== 'view';
        const result = await cli([...args, '--db', url, ...(json ? ['--json'] : [])]);
        expect(result.code).toBe(2);
        const error = json ? (JSON.parse(result.out) as { error: { code: string; message: string } }).error : { code: 'CLI_OPTION_INVALID', message: result.err };
        expect(error.code).toBe('CLI_OPTION_INVALID');
        expect(error.message).toContain('not a store askloop can use');
        expect(error.message).toContain('postgres://USER@HOST:PORT/DB');
        expect(error.message).not.toContain('hunter2');
        expect(readdirSync(temp).sort()).toEqual(before);
      });
    }
  }

  it('a plain path and postgres:// are still taken', async () => {
    expect((await cli(['run', 'x', '--script', 'one.json', '--db', 'plain.db'])).code).toBe(0);
    expect(existsSync(join(temp, 'plain.db'))).toBe(true);
  });
});

describe("the config's store: { path } that is a URL", () => {
  it('is CONFIG_INVALID at store.path', async () => {
    writeFileSync(join(temp, 'url.yaml'), 'store:\n  path: "postgress://askloop@db/askloop"\n');
    const result = await cli(['run', 'x', '--script', 'one.json', '--config', 'url.yaml', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out).error).toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('a file path, not a URL') });
    expect(existsSync(join(temp, 'postgress:'))).toBe(false);
  });
});

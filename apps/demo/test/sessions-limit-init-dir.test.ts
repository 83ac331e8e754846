/**
 * `askloop sessions --limit N` says when it shows only some of the sessions
 * ("showing 1 of 3"), and `askloop init DIR` says DIR is a directory instead
 * of calling it an existing file that --force would overwrite.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-limit-init-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('askloop sessions --limit', () => {
  beforeAll(async () => {
    writeFileSync(join(dir, 'done.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> ok"')]));
    for (const task of ['a', 'b', 'c']) expect(await main(['run', task, '--script', 'done.json', '--db', 'three.db', '--json'], captureIo({ cwd: dir }))).toBe(0);
  });

  it('says "showing 1 of 3" when the limit cuts the list', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'three.db', '--limit', '1'], io)).toBe(0);
    expect(io.out).toContain(`showing 1 of 3 sessions in ${join(dir, 'three.db')}`);
    expect(io.out).not.toMatch(/^1 session in/m);
  });

  it('says how many there are when the limit does not cut it, and keeps --json an array of the rows shown', async () => {
    const all = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'three.db', '--limit', '3'], all)).toBe(0);
    expect(all.out).toContain(`\n3 sessions in ${join(dir, 'three.db')} · askloop show SID --db ${join(dir, 'three.db')}\n`);
    const json = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'three.db', '--limit', '2', '--json'], json)).toBe(0);
    expect(JSON.parse(json.out)).toHaveLength(2);
  });
});

describe('askloop sessions --search', () => {
  beforeAll(async () => {
    for (const task of ['write the Report', 'plan the trip', 'report again']) expect(await main(['run', task, '--script', 'done.json', '--db', 'tasks.db', '--json'], captureIo({ cwd: dir }))).toBe(0);
  });

  it('lists the sessions whose id, agent or task holds the text, A–Z in either case, and says so when none does', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'tasks.db', '--search', 'REPORT', '--json'], io)).toBe(0);
    expect((JSON.parse(io.out) as { task: string }[]).map((row) => row.task)).toEqual(['report again', 'write the Report']);
    const none = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'three.db', '--search', 'nothing like it'], none)).toBe(0);
    expect(none.out).toBe(`No sessions in ${join(dir, 'three.db')} matching "nothing like it".\n`);
    const limited = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'tasks.db', '--search', 'report', '--limit', '1'], limited)).toBe(0);
    // The footer names the filter, and the show command finds the same file.
    expect(limited.out).toContain(`showing 1 of 2 sessions in ${join(dir, 'tasks.db')} matching "report" (newest first; --limit N) · askloop show SID --db ${join(dir, 'tasks.db')}\n`);
  });

  it('refuses a search no store can take (exit 2)', async () => {
    for (const search of ['tab\there', 'x'.repeat(1001)]) {
      const io = captureIo({ cwd: dir });
      expect(await main(['sessions', '--db', 'three.db', '--search', search], io)).toBe(2);
      expect(io.err).toMatch(/--search/);
    }
  });
});

describe('askloop init DIR', () => {
  it('says the path is a directory (exit 2, CONFIG_UNREADABLE) and suggests a file in it, with or without --force', async () => {
    mkdirSync(join(dir, 'project'));
    for (const args of [['init', 'project'], ['init', 'project', '--force']]) {
      const io = captureIo({ cwd: dir });
      expect(await main([...args, '--json'], io)).toBe(2);
      expect(JSON.parse(io.out)).toEqual({ ok: false, error: { code: 'CONFIG_UNREADABLE', message: `is a directory; give a file name, e.g. askloop init ${join('project', 'askloop.config.yaml')}`, file: 'project' } });
    }
    const text = captureIo({ cwd: dir });
    expect(await main(['init', 'project'], text)).toBe(2);
    expect(text.err).not.toContain('--force');
  });
});

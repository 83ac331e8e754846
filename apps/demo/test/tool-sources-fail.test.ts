/**
 * Tool sources (MCP servers) that fail: one that does not start fails the
 * command before any session is stored (`run`) or anything is decided
 * (`approve`); one that fails after the session started names the session
 * it left unfinished and how to resume it; Ctrl-C while one is slow to
 * start stops the command at once, with nothing stored.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'askloop-tool-sources-'));
  await writeFile(join(dir, 'bad-mcp.json'), JSON.stringify({ servers: { memory: { command: join(dir, 'no-such-server') } } }));
  await writeFile(join(dir, 'replies.json'), JSON.stringify([envelope('emit "[[loop:await]]"'), envelope('emit "[[loop:done]] ok"')]));
  await writeFile(join(dir, 'three.json'), JSON.stringify([envelope('emit "one"'), envelope('emit "two"'), envelope('emit "<<<LOOP:DONE>>> three"')]));
  // A tool source that answers twice (the controller's listing before it stores the session, turn 1's), then fails: a
  // server that dies mid-session.
  await writeFile(
    join(dir, 'flaky-plugin.mjs'),
    `let calls = 0;
export default { name: 'flaky', specificationVersion: 'v1', toolSources: [{ name: 'flaky', async toolPacks() { calls += 1; if (calls > 2) throw new Error('server went away'); return []; } }] };
`,
  );
  await writeFile(join(dir, 'flaky.yaml'), 'plugins:\n  - ./flaky-plugin.mjs\n');
  // A tool source whose start never ends.
  await writeFile(join(dir, 'stuck-plugin.mjs'), `export default { name: 'stuck', specificationVersion: 'v1', toolSources: [{ name: 'stuck', toolPacks: () => new Promise(() => {}) }] };\n`);
  await writeFile(join(dir, 'stuck.yaml'), 'plugins:\n  - ./stuck-plugin.mjs\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function sessions(db: string): Promise<{ sid: string; status: string; turns: number }[]> {
  const io = captureIo({ cwd: dir });
  expect(await main(['sessions', '--db', db, '--json'], io)).toBe(0);
  return JSON.parse(io.out);
}

describe('a tool source that does not start', () => {
  it('run: exit 1 with LOOP_PLUGIN_ERROR, and no session is stored', async () => {
    const io = captureIo({ cwd: dir });
    // A first session on the file, so the file exists and the listing shows there is no second one.
    expect(await main(['run', 'first', '--script', 'three.json', '--db', 'start.db', '--json'], captureIo({ cwd: dir }))).toBe(0);
    expect(await main(['run', 'x', '--script', 'replies.json', '--mcp-config', 'bad-mcp.json', '--db', 'start.db'], io)).toBe(1);
    expect(io.err).toMatch(/MCP server 'memory' did not start: .*; no session was created \(LOOP_PLUGIN_ERROR\)\n$/);
    expect((await sessions('start.db')).map((session) => session.status)).toEqual(['done']);
  });

  it('approve: exit 1 before the approval is recorded; the session stays paused and can be approved later', async () => {
    const run = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--script', 'replies.json', '--dialect', 'v1', '--db', 'approve.db', '--json'], run)).toBe(4);
    const { sid } = JSON.parse(run.out) as { sid: string };
    const failed = captureIo({ cwd: dir });
    expect(await main(['approve', sid, '--script', 'replies.json', '--mcp-config', 'bad-mcp.json', '--db', 'approve.db', '--json'], failed)).toBe(1);
    expect(JSON.parse(failed.out).error).toMatchObject({ code: 'LOOP_PLUGIN_ERROR', message: expect.stringContaining(`nothing ran and session ${sid} is as it was`) });
    expect(await sessions('approve.db')).toMatchObject([{ sid, status: 'paused' }]);
    const approved = captureIo({ cwd: dir });
    expect(await main(['approve', sid, '--script', 'replies.json', '--db', 'approve.db', '--json'], approved)).toBe(0);
    expect(JSON.parse(approved.out)).toMatchObject({ status: 'DONE', result: 'ok' });
  });
});

describe('a tool source that is slow to start', () => {
  it('Ctrl-C stops the wait at once: exit 130 with LOOP_CANCELLED, and no session is stored', async () => {
    const io = captureIo({ cwd: dir });
    io.onInterrupt = (handler) => {
      const timer = setTimeout(() => handler('SIGINT'), 50);
      return () => clearTimeout(timer);
    };
    expect(await main(['run', 'x', '--script', 'three.json', '--config', 'stuck.yaml', '--db', 'stuck.db'], io)).toBe(130);
    expect(io.err).toMatch(/askloop: interrupted: cancelled while the tool sources \(MCP servers\) started; no session was stored \(LOOP_CANCELLED\)\n$/);
    expect(await sessions('stuck.db')).toEqual([]);
  });
});

describe('a tool source that fails after the session started', () => {
  it('names the session it left unfinished, and the resume command with the options it needs', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--script', 'three.json', '--config', 'flaky.yaml', '--db', 'flaky.db'], io)).toBe(1);
    const [stored] = await sessions('flaky.db');
    expect(stored).toMatchObject({ status: 'running', turns: 1 });
    expect(io.err).toContain(`server went away; session ${stored!.sid} is left unfinished (no decision was made); once the cause is fixed, continue with: askloop resume ${stored!.sid} --db ${join(dir, 'flaky.db')} --config ${join(dir, 'flaky.yaml')} --script ${join(dir, 'three.json')} (LOOP_PLUGIN_ERROR)`);
  });
});

/**
 * A host whose lease lapsed (frozen: its renewal has not run yet) is still running turn 1 when the host that took the
 * session over finished turn 1 and wrote in turn 2. The stale host's next write of turn 1 must replay the new host's
 * record of it, not act a second time. Regression: turn 2's first write removed turn 1's records, however young, so
 * the stale host's write acted again (`idempotenceRetentionMs` now keeps them an hour by default).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxPool } from '@askloop/interpreter';
import { createScriptedProvider } from '@askloop/providers';
import { defineTool, defineToolPack } from '@askloop/tools';
import { afterAll, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import { envelope, type EffectLog } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 2 });
const dir = mkdtempSync(join(tmpdir(), 'askloop-stale-host-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.test.*'] } };

/** A plugin whose `tool.test.Pause` waits for `pause` (a read), and whose `tool.test.Bump` counts into `effects` (a write). */
function plugin(replies: string[], effects: EffectLog, pause: () => Promise<void>) {
  return definePlugin({
    name: 'test',
    specificationVersion: 'v1',
    providers: { scripted: createScriptedProvider({ models: { m: replies } }) },
    toolPacks: [
      defineToolPack('test', [
        defineTool({ name: 'tool.test.Pause', description: 'Waits.', args: [], returns: 'nil' }, async () => {
          await pause();
          return null;
        }),
        defineTool({ name: 'tool.test.Bump', description: 'Counts.', args: [{ name: 'key', type: 'string' }], returns: 'int', effect: 'write' }, (args) => {
          const key = String(args.key);
          const next = (effects.get(key) ?? 0) + 1;
          effects.set(key, next);
          return next;
        }),
      ]),
    ],
  });
}

it("a stale host's later write in its turn replays the record of the host that took the session over", async () => {
  const file = join(dir, 'stale.db');
  const effects: EffectLog = new Map();
  let entered!: () => void;
  const paused = new Promise<void>((resolve) => (entered = resolve));
  let wake!: () => void;
  const woken = new Promise<void>((resolve) => (wake = resolve));
  // Host A: a long lease whose renewal (every 20 s) does not come during the test — as for a frozen host.
  const turnOne = program('set a = tool.test.Bump("k")', 'set p = tool.test.Pause()', 'set b = tool.test.Bump("k2")', 'emit "one"');
  const hostA = createAskLoop({
    plugins: [plugin([turnOne], effects, () => (entered(), woken))],
    store: createSqliteTranscriptStore(file),
    pool,
    sessionLeaseMs: 60_000,
  });
  // Host B: its clock 2 minutes on, so it finds A's lease lapsed and takes the session over.
  const ahead = { now: () => Date.now() + 120_000 };
  const hostB = createAskLoop({
    plugins: [plugin([program('set c = tool.test.Bump("j")', 'emit "<<<LOOP:DONE>>> two"')], effects, async () => undefined)],
    store: createSqliteTranscriptStore(file, { clock: ahead }),
    pool,
    clock: ahead,
  });
  const runA = hostA.run({ agent, task: 't', sid: 'stale' }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  await paused;
  // A is paused in turn 1 after Bump("k"). B finishes turn 1 (k replayed, k2 acts once) and runs turn 2.
  expect(await hostB.resume('stale')).toMatchObject({ status: 'DONE', turns: 2 });
  expect([effects.get('k'), effects.get('k2'), effects.get('j')]).toEqual([1, 1, 1]);
  // A wakes: its Bump("k2") is call 2 of turn 1, which B recorded.
  wake();
  const outcomeA = await runA;
  expect((outcomeA as { error?: { code?: string } }).error?.code).toBe('LOOP_LEASE_LOST');
  expect(effects.get('k2')).toBe(1);
  await hostA.close();
  await hostB.close();
});

/**
 * The age of idempotence records is measured on the clock of the store that stamped them, not the loop's. The
 * stores the controller opens itself get the loop's clock; an injected `toolStores` keeps its own. Regression: the
 * tool host computed the cut-off on the loop's clock, so a loop whose clock ran two hours ahead of its injected
 * store removed turn 1's seconds-old records at turn 2's first write, although the retention is an hour — the
 * records a host that stalled mid-turn needs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createSandboxPool } from '@askloop/interpreter';
import { openSqliteStore } from '@askloop/tools';
import { afterAll, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
const dir = mkdtempSync(join(tmpdir(), 'askloop-store-clock-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));

it("keeps a turn's seconds-old records through the next turn's first write when the tool stores were injected", async () => {
  const file = join(dir, 'tools.db');
  const toolStores = openSqliteStore(file); // the system clock
  const twoHoursOn = { now: () => Date.now() + 7_200_000 };
  const claimer = { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.memory.*'], grants: ['memory:read:/jobs/**', 'memory:write:/jobs/**'] } };
  const claim = (last: boolean) => program('set cur = tool.memory.Get("/jobs/n")', 'set out = tool.memory.CAS("/jobs/n", cur[1], cur[1] + 1)', `emit "${last ? '<<<LOOP:DONE>>> ' : ''}at " + out[1]`);
  const loop = createAskLoop({ plugins: [testPlugin({ m: [claim(false), claim(true)] })], store: createMemoryTranscriptStore(), pool, toolStores, clock: twoHoursOn });
  expect(await loop.run({ agent: claimer, task: 'count', sid: 'injected' })).toMatchObject({ status: 'DONE', turns: 2 });
  const reader = new DatabaseSync(file);
  const turns = reader.prepare('SELECT turn FROM idempotence WHERE session = ? ORDER BY turn, call_index').all('injected').map((row) => row.turn);
  reader.close();
  await loop.close();
  toolStores.close();
  // Default retention one hour: both turns' records were made seconds ago.
  expect(turns).toEqual([1, 1, 2, 2]);
});

it('keeps records an hour by default, or ten session leases when that is longer; a retention given is kept as given', async () => {
  const { idempotenceRetention, IDEMPOTENCE_RETENTION_MS } = await import('../src/check-ask-loop-options.ts');
  expect(IDEMPOTENCE_RETENTION_MS).toBe(3_600_000);
  expect(idempotenceRetention({})).toBe(3_600_000);
  expect(idempotenceRetention({ sessionLeaseMs: 60_000 })).toBe(3_600_000);
  // `askloop worker --lease-ms 3600000`: a worker that stalls past its hour-long lease still finds its records.
  expect(idempotenceRetention({ sessionLeaseMs: 3_600_000 })).toBe(36_000_000);
  expect(idempotenceRetention({ sessionLeaseMs: 3_600_000, idempotenceRetentionMs: 0 })).toBe(0);
  expect(idempotenceRetention({ idempotenceRetentionMs: Number.POSITIVE_INFINITY })).toBe(Number.POSITIVE_INFINITY);
});

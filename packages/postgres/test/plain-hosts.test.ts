/**
 * Hosts that share the PostgreSQL transcript store without the work queue
 * (`createAskLoop({ store: createPostgresTranscriptStore(pool) })` on each,
 * one pool each): the controller's session lease keeps one turn in flight
 * across them, and its fencing token keeps a host that stalled past its
 * lease from writing over the host that took the session over.
 */
import { createAskLoop, definePlugin } from '@askloop/controller';
import { createScriptedProvider } from '@askloop/providers';
import { createSafeToolPacks } from '@askloop/tools';
import type pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { applyPostgresMigrations } from '../src/migrate/postgres-migrations.ts';
import { createPostgresToolStores } from '../src/tools/postgres-tool-stores.ts';
import { createPostgresTranscriptStore } from '../src/transcript/postgres-transcript-store.ts';
import { databaseAndSandbox } from './support/database-and-sandbox.ts';
import { envelope } from './support/envelope.ts';

const setup = databaseAndSandbox();


describe('plain hosts on one PostgreSQL store', () => {
  it('a host whose lease is taken over while it waits for its model fails the step with LOOP_LEASE_LOST and writes nothing after the takeover', async () => {
    const pools = await setup.database().schema();
    await applyPostgresMigrations(pools({ max: 1 }));
    // The model answers when the test says so, and says when it was asked.
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const plugin = definePlugin({
      name: 'held-model',
      specificationVersion: 'v1',
      providers: {
        scripted: createScriptedProvider({
          models: {
            held: async () => {
              asked();
              await answered;
              return envelope(['command', '  emit "late"', 'endcommand'].join('\n'));
            },
          },
        }),
      },
    });
    // A long lease, renewed only every 20 s: no renewal runs during the test, so what refuses A's writes is the check
    // in their statements (AL002), not a renewal that found the lease taken over.
    const hostA = createAskLoop({ plugins: [plugin], store: createPostgresTranscriptStore(pools()), pool: setup.sandbox(), sessionLeaseMs: 60_000 });
    const sid = await hostA.create({ agent: { name: 'worker', model: 'scripted:held' }, task: 'takeover' });
    const stepping = hostA.step(sid);
    await wasAsked;

    // Host A waits for its model. Its lease lapses (as if it had stalled) and host B takes the session over.
    const poolB = pools();
    const hostB = createPostgresTranscriptStore(poolB);
    await poolB.query('UPDATE askloop_session_leases SET expires_at = clock_timestamp() WHERE sid = $1', [sid]);
    expect(await hostB.acquireLease?.(sid, 'host-b', 60_000)).toBe(true);
    const before = await hostB.listTurns(sid);
    expect(before.map((turn) => turn.phase)).toEqual(['asking']);
    answer();
    await expect(stepping).rejects.toMatchObject({ code: 'LOOP_LEASE_LOST', sid });

    // Nothing A did after the takeover was kept: the turn is as it was when B took over, and so is the session row.
    expect(await hostB.listTurns(sid)).toEqual(before);
    expect((await hostB.getSession(sid))?.turns).toBe(0);
    const decisions = await poolB.query<{ n: number }>('SELECT count(*)::integer AS n FROM askloop_decisions WHERE sid = $1', [sid]);
    expect(decisions.rows[0]?.n).toBe(0);
    await hostA.close();
  });

  it("a host's tools measure scratch TTLs on the database's clock, not on the host's (one two minutes behind wrote entries already expired for every other host)", async () => {
    const pools = await setup.database().schema();
    await applyPostgresMigrations(pools({ max: 1 }));
    const plugin = definePlugin({
      name: 'scratch-writer',
      specificationVersion: 'v1',
      providers: { scripted: createScriptedProvider({ models: { put: () => envelope(['command', '  set put = tool.scratch.PutCAS("lock", 0, "held", 60)', '  emit "<<<LOOP:DONE>>> " + put[0]', 'endcommand'].join('\n')) } }) },
      toolPacks: createSafeToolPacks(),
    });
    // No toolStores given: the loop opens the transcript store's own (`openToolStores`), as `askloop run --db` does.
    const host = createAskLoop({ plugins: [plugin], store: createPostgresTranscriptStore(pools()), pool: setup.sandbox() });
    const trueNow = Date.now.bind(Date);
    const behind = vi.spyOn(Date, 'now').mockImplementation(() => trueNow() - 120_000);
    try {
      expect(await host.run({ agent: { name: 'writer', model: 'scripted:put', policy: { allow: ['tool.scratch.*'] } }, task: 'hold the lock', sid: 'sid-clock' })).toMatchObject({ status: 'DONE', result: 'true' });
    } finally {
      behind.mockRestore();
      await host.close();
    }
    // Another host (its clock right) sees the 60-second entry live.
    expect(await createPostgresToolStores(pools()).scratch.get('sid-clock', 'lock')).toEqual({ value: 'held', version: 1 });
  });
});

/**
 * Hosts that share the PostgreSQL transcript store without the work queue
 * (`createAskLoop({ store: createPostgresTranscriptStore(pool) })` on each,
 * one pool each): the controller's session lease keeps one turn in flight
 * across them, and its fencing token keeps a host that stalled past its
 * lease from writing over the host that took the session over.
 */
import { createAskLoop, definePlugin } from '@askloop/controller';
import { createScriptedProvider } from '@askloop/providers';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { applyPostgresMigrations } from '../src/migrate/postgres-migrations.ts';
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
});

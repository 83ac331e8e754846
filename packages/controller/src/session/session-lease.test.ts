/**
 * The lease check before a tool's write (`leaseConfirmOf`): while renewals keep the lease confirmed it costs no store
 * call; once a stall held them back for half a lease it renews first, and a lease another host took over stops the
 * write and the step. The store here answers as a server's would (a fake: only its answers matter).
 */
import { describe, expect, it } from 'vitest';
import { leaseConfirmOf, leaseSignalOf } from './lease-scope.ts';
import { leaseSessions } from './session-lease.ts';
import { createSessionGate } from './session-gate.ts';

/** Blocks this thread for `ms`: no timer (no renewal) runs meanwhile, as in a stalled host. */
function block(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

describe('the lease check before a write', () => {
  it('costs no store call while the lease was confirmed lately; renews after a stall; refuses once another host took it', async () => {
    let calls = 0;
    let takenOver = false;
    const store = {
      acquireLease: async () => {
        calls += 1;
        return !takenOver;
      },
      releaseLease: async () => undefined,
    };
    const gate = leaseSessions(createSessionGate('wait'), store, { holder: 'a', leaseMs: 400, busy: 'wait' });
    await gate.run('s', async () => {
      const confirm = leaseConfirmOf('s');
      expect(confirm).toBeDefined();
      const taken = calls;
      await confirm?.();
      expect(calls).toBe(taken);
      // A stall past half the lease: the check renews before the write acts, and the lease is still this host's.
      block(250);
      await confirm?.();
      expect(calls).toBe(taken + 1);
      // Another stall, and another host took the lease over meanwhile: the write is refused, and the step told to stop.
      block(250);
      takenOver = true;
      await expect(confirm?.()).rejects.toMatchObject({ code: 'LOOP_LEASE_LOST' });
      expect(leaseSignalOf('s')?.aborted).toBe(true);
      // From then on without asking the store.
      const after = calls;
      await expect(confirm?.()).rejects.toMatchObject({ code: 'LOOP_LEASE_LOST' });
      expect(calls).toBe(after);
    });
    // Outside a step there is nothing to check.
    expect(leaseConfirmOf('s')).toBeUndefined();
  });
});

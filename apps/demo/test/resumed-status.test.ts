/**
 * A session resumed after a halt (a Ctrl-C) is running: `sessions` and
 * `show` say so, not the halt its resume goes past. Regression (walkthrough):
 * while the resume ran, the list read `running (ERR_CANCELLED)` and `show`
 * `status running · HALT ERR_CANCELLED`.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { seedSession, sessionsFileIn } from './view-seed.ts';
import { tempFolder } from './temp-folder.ts';

const dir = tempFolder('resumed-status');

describe('a session resumed after a halt', () => {
  it('reads running in sessions and show; a halted one keeps its reason', async () => {
    const { db, store } = sessionsFileIn(dir);
    const cancelled = { kind: 'HALT', reason: 'ERR_CANCELLED', message: 'aborted by the caller' } as const;
    const resumed = await seedSession(store, 'resumed-now', { turns: 1, lastDecision: cancelled });
    const halted = await seedSession(store, 'still-halted', { turns: 1, status: 'halted', lastDecision: cancelled });
    await store.close();

    const list = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', db], list)).toBe(0);
    const line = (sid: string) => list.out.split('\n').find((row) => row.includes(sid)) ?? '';
    expect(line(resumed)).toMatch(/running\s/);
    expect(line(resumed)).not.toContain('ERR_CANCELLED');
    expect(line(halted)).toContain('halted (ERR_CANCELLED)');

    const shown = captureIo({ cwd: dir });
    expect(await main(['show', resumed, '--db', db], shown)).toBe(0);
    expect(shown.out).toMatch(/status {3}running · resumed after HALT ERR_CANCELLED: aborted by the caller/);
    const haltedShown = captureIo({ cwd: dir });
    expect(await main(['show', halted, '--db', db], haltedShown)).toBe(0);
    expect(haltedShown.out).toMatch(/status {3}halted · HALT ERR_CANCELLED/);
  });
});

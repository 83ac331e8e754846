/**
 * `askloop sessions` marks a `running` session whose host stopped
 * mid-session (its lease lapsed, quiet since) as `show` and the viewer do:
 * "running (no host)", a line with the resume that continues it, and
 * `"orphaned": true` in `--json`. Regression: the list read plain
 * `running` for good.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { seedSession, sessionsFileIn } from './view-seed.ts';
import { tempFolder } from './temp-folder.ts';

const dir = tempFolder('sessions-orphaned');

describe('askloop sessions with a session whose host crashed', () => {
  it('marks only that one, says how to continue it, and leaves a held, a given-up and an unleased session alone', async () => {
    const { db, store } = sessionsFileIn(dir);
    const quietSince = new Date(Date.now() - 60_000).toISOString();
    const crashed = await seedSession(store, 'crashed-host', { createdAt: quietSince });
    const held = await seedSession(store, 'held-lease', { createdAt: quietSince });
    const givenUp = await seedSession(store, 'given-up', { createdAt: quietSince });
    const unleased = await seedSession(store, 'never-leased', { createdAt: quietSince });
    expect(await store.acquireLease!(crashed, 'host-a', 1)).toBe(true);
    expect(await store.acquireLease!(held, 'host-b', 600_000)).toBe(true);
    expect(await store.acquireLease!(givenUp, 'host-c', 600_000)).toBe(true);
    await store.releaseLease!(givenUp, 'host-c');
    await store.close();
    await new Promise((resolve) => setTimeout(resolve, 20));

    const json = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', db, '--json'], json)).toBe(0);
    const rows = JSON.parse(json.out) as Array<{ sid: string; orphaned?: boolean }>;
    expect(Object.fromEntries(rows.map((row) => [row.sid, row.orphaned ?? false]))).toEqual({ [crashed]: true, [held]: false, [givenUp]: false, [unleased]: false });

    const text = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', db], text)).toBe(0);
    expect(text.out).toMatch(new RegExp(`${crashed}.*running \\(no host\\)`));
    expect(text.out.match(/no host\)/g)).toHaveLength(1);
    expect(text.out).toContain(`1 running session has no host (it stopped mid-session): askloop resume ${crashed} --db ${db} continues it`);
  });
});

/**
 * `askloop show` says when no host runs a `running` session (its host
 * crashed: its lease lapsed, and it has been quiet since), with the resume
 * that continues it, as the viewer does. Regression: it read plain
 * `running` for good.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { seedSession, sessionsFileIn } from './view-seed.ts';
import { tempFolder } from './temp-folder.ts';

const dir = tempFolder('show-orphaned');

describe('askloop show of a session whose host crashed', () => {
  it('says no host runs it and how to continue it; not for one a host holds or never leased', async () => {
    const { db, store } = sessionsFileIn(dir);
    const quietSince = new Date(Date.now() - 60_000).toISOString();
    const sid = await seedSession(store, 'crashed-host', { createdAt: quietSince });
    const show = async () => {
      const text = captureIo({ cwd: dir });
      expect(await main(['show', sid, '--db', db], text)).toBe(0);
      const json = captureIo({ cwd: dir });
      expect(await main(['show', sid, '--db', db, '--json'], json)).toBe(0);
      return { text: text.out, orphaned: (JSON.parse(json.out) as { orphaned?: boolean }).orphaned };
    };
    // Never leased (queued for a worker, say): nothing said.
    expect(await show()).toMatchObject({ orphaned: undefined });
    // A host that died left its lease to lapse (here one of 1 ms), and the session has been quiet for a minute.
    expect(await store.acquireLease!(sid, 'host-a', 1)).toBe(true);
    await store.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const shown = await show();
    expect(shown.orphaned).toBe(true);
    expect(shown.text).toContain(`  host     none: the host running it stopped mid-session (its lease lapsed); askloop resume ${sid} --db ${db} continues it`);
  });
});

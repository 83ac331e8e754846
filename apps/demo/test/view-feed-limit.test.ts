/**
 * The viewer serves a bounded number of live feeds at once, over real
 * loopback HTTP and a real SQLite file. Each feed polls the store on its own
 * and reads the session's turns whenever its row changes: a hundred feeds
 * opened on one running session stalled the server for seconds at a time and
 * held gigabytes. One feed more than the limit is a JSON 503.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_LIVE_FEEDS, startViewer } from '../src/view/index.ts';
import { tempFolder } from './temp-folder.ts';
import { seedSession, sessionsFileIn } from './view-seed.ts';

const { store } = sessionsFileIn(tempFolder('view-feed-limit'));
afterAll(() => store.close());

describe('live feeds', () => {
  it('are refused past the limit with VIEW_TOO_MANY_FEEDS, and served again once one closes', async () => {
    const sid = await seedSession(store, 'feed0000-limit', { turns: 1 });
    const viewer = await startViewer({ store, pollMs: 20, maxLiveFeeds: 2 });
    const feed = new URL(`/api/sessions/${sid}/live`, viewer.url);
    const open: AbortController[] = [];
    try {
      for (let n = 0; n < 2; n++) {
        const controller = new AbortController();
        open.push(controller);
        const response = await fetch(feed, { signal: controller.signal });
        expect(response.status).toBe(200);
      }
      expect(viewer.liveFeeds()).toBe(2);
      const refused = await fetch(feed);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toEqual({ error: { code: 'VIEW_TOO_MANY_FEEDS', message: '2 live feeds are open already, the most this viewer serves at once; close another page of it (a hidden tab holds none) and reload' } });
      // The rest of the API still answers.
      expect((await fetch(new URL(`/api/sessions/${sid}`, viewer.url))).status).toBe(200);
      open.shift()?.abort();
      await expect.poll(() => viewer.liveFeeds()).toBe(1);
      const controller = new AbortController();
      open.push(controller);
      expect((await fetch(feed, { signal: controller.signal })).status).toBe(200);
    } finally {
      for (const controller of open) controller.abort();
      await viewer.close();
    }
  });

  it('are 32 at most by default, and the limit is a positive whole number', async () => {
    expect(MAX_LIVE_FEEDS).toBe(32);
    await expect(startViewer({ store, maxLiveFeeds: 0 })).rejects.toThrow('maxLiveFeeds must be a positive safe integer, not 0');
  });
});

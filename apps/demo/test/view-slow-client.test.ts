/**
 * A live feed whose client does not read (a stalled tab, a script that opens
 * the feed and never reads it) over real loopback TCP and a real SQLite file:
 * the viewer used to go on polling and write every saved turn into the
 * response, where Node kept it in memory for as long as the session ran (a
 * feed stalled on a running session with 200 KB turns grew the heap by about
 * 200 KB a turn). It now stops polling while what it sent is unread, and sends
 * what changed meanwhile once the client reads again.
 */
import { connect } from 'node:net';
import type { TranscriptStore } from '@askloop/controller';
import { sampleSession } from '@askloop/controller/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { startViewer } from '../src/view/index.ts';
import { tempFolder } from './temp-folder.ts';
import { seedTurn, sessionsFileIn } from './view-seed.ts';

const { store } = sessionsFileIn(tempFolder('view-slow-client'));
afterAll(() => store.close());

/** The store, counting the session reads each poll of a live feed starts with. */
function countingReads(inner: TranscriptStore): { readonly store: TranscriptStore; reads(): number } {
  let reads = 0;
  const counted = new Proxy(inner, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key === 'getSession') reads += 1;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: counted, reads: () => reads };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a live feed whose client does not read', () => {
  it('stops polling while what it sent is unread, then sends what it missed', async () => {
    const sid = 'slow0000-client';
    const session = sampleSession(sid, { status: 'running' });
    await store.createSession(session);
    // About 200 KB a turn as the feed sends it (twelve emits of 16 Ki characters: what a turn keeps of its texts,
    // bound-turn.ts): 40 of them are more than the kernel's socket buffers hold, so the server's own buffer is where
    // they would pile up.
    const emits = Array.from({ length: 12 }, () => 's'.repeat(16 * 1024));
    let turns = 0;
    const addTurn = async () => {
      turns += 1;
      await store.saveTurn(seedTurn(sid, turns, emits), { ...session, turns, updatedAt: new Date(Date.parse(session.updatedAt) + turns * 1000).toISOString() });
    };
    await addTurn();
    const counted = countingReads(store);
    const viewer = await startViewer({ store: counted.store, pollMs: 10 });
    const socket = connect(viewer.port, '127.0.0.1');
    try {
      socket.pause();
      socket.write(`GET /api/sessions/${sid}/live HTTP/1.1\r\nHost: 127.0.0.1:${viewer.port}\r\n\r\n`);
      for (let n = 0; n < 40; n++) {
        await addTurn();
        await sleep(15);
      }
      await sleep(100);
      const before = counted.reads();
      await sleep(500);
      // About 50 polls of 10 ms went by: the feed made at most the one it was in.
      expect(counted.reads() - before).toBeLessThanOrEqual(1);
      expect(viewer.liveFeeds()).toBe(1);

      // The client reads again: every turn reaches it, the last one included, and the feed goes on.
      let received = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        // Only what is needed to see the turn indexes, not 40 MB of text kept.
        received = (received + chunk.replace(/s{64,}/g, '')).slice(-1_000_000);
      });
      socket.resume();
      await expect.poll(() => received.includes(`"turnIndex":${turns},`), { timeout: 20_000, interval: 50 }).toBe(true);
      await addTurn();
      await expect.poll(() => received.includes(`"turnIndex":${turns},`), { timeout: 20_000, interval: 50 }).toBe(true);
    } finally {
      socket.destroy();
      await viewer.close();
    }
  }, 60_000);
});

/**
 * A typed session id: the exact id, or the start of exactly one; many matches
 * are counted, not listed (two rows tell one from many).
 */
import { createMemoryTranscriptStore, type ListSessionsOptions, type TranscriptStore } from '@askloop/controller';
import { sampleSession } from '@askloop/controller/testing';
import { describe, expect, it } from 'vitest';
import { matchSessionId } from '../src/view/match-session-id.ts';

/** A memory store holding `sids`, recording the options of every listing. */
async function storeWith(sids: readonly string[]): Promise<{ store: TranscriptStore; listings: ListSessionsOptions[] }> {
  const inner = createMemoryTranscriptStore();
  for (const sid of sids) await inner.createSession(sampleSession(sid));
  const listings: ListSessionsOptions[] = [];
  const store: TranscriptStore = {
    ...inner,
    listSessions: (options = {}) => {
      listings.push(options);
      return inner.listSessions(options);
    },
  };
  return { store, listings };
}

describe('matchSessionId', () => {
  it('finds the exact id, or the one id a prefix starts', async () => {
    const { store } = await storeWith(['cafe0001', 'beef0001']);
    expect(await matchSessionId(store, 'beef0001')).toMatchObject({ kind: 'found', session: { sid: 'beef0001' } });
    expect(await matchSessionId(store, 'cafe')).toMatchObject({ kind: 'found', session: { sid: 'cafe0001' } });
    expect(await matchSessionId(store, 'caf')).toEqual({ kind: 'none', tooShort: true });
    expect(await matchSessionId(store, 'dead')).toEqual({ kind: 'none', tooShort: false });
  });

  it('counts the ids an ambiguous prefix starts, listing at most two of them', async () => {
    const { store, listings } = await storeWith(['cafe0001', 'cafe0002', 'cafe0003', 'cafe0004', 'beef0001']);
    expect(await matchSessionId(store, 'cafe')).toEqual({ kind: 'ambiguous', count: 4 });
    expect(listings.filter((options) => options.sidPrefix === 'cafe').every((options) => options.limit === 2)).toBe(true);
  });
});

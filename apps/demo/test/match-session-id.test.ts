/**
 * A typed session id: the exact id, or the start of exactly one; many matches
 * are counted, and the first few named.
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

  it('counts the ids an ambiguous prefix starts, and names at most five of them (walkthrough: only the count was said)', async () => {
    const sids = ['cafe0001', 'cafe0002', 'cafe0003', 'cafe0004', 'cafe0005', 'cafe0006', 'beef0001'];
    const { store, listings } = await storeWith(sids);
    const match = await matchSessionId(store, 'cafe');
    expect(match).toMatchObject({ kind: 'ambiguous', count: 6 });
    expect(match.kind === 'ambiguous' ? match.examples : []).toHaveLength(5);
    expect((match.kind === 'ambiguous' ? match.examples : []).every((sid) => sid.startsWith('cafe'))).toBe(true);
    expect(listings.filter((options) => options.sidPrefix === 'cafe').every((options) => options.limit !== undefined && options.limit <= 5)).toBe(true);
  });

  it('reads an id typed in capitals as the lower-case id it names (walkthrough: show A8F7 found nothing)', async () => {
    const { store } = await storeWith(['a8f70001-0000', 'Upper0001']);
    expect(await matchSessionId(store, 'A8F7')).toMatchObject({ kind: 'found', session: { sid: 'a8f70001-0000' } });
    expect(await matchSessionId(store, 'A8F70001-0000')).toMatchObject({ kind: 'found', session: { sid: 'a8f70001-0000' } });
    // An id of capitals is still found as it is.
    expect(await matchSessionId(store, 'Upper0001')).toMatchObject({ kind: 'found', session: { sid: 'Upper0001' } });
  });
});

import { describe, expect, it } from 'vitest';
import { createMemoryTranscriptStore } from '../store/memory-transcript-store.ts';
import { sampleSession, sampleTurn } from '../testing/transcript-fixtures.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import { sessionEnd } from './session-end.ts';

/** A store holding session `s` whose last turn (the 3rd) is `last`, or no turn at all. */
async function storeWith(last: Partial<TurnRecord> | undefined, session = sampleSession('s')) {
  const store = createMemoryTranscriptStore();
  await store.createSession(session);
  if (last !== undefined) await store.saveTurn(sampleTurn('s', 3, last));
  return store;
}

const providerFailure = (code: string) => ({ code, kind: 'provider', message: 'the call failed' }) as unknown as TurnRecord['failure'];

describe('sessionEnd', () => {
  it('a DONE turn ends the session, with its turn count', async () => {
    expect(await sessionEnd(await storeWith({ decision: { kind: 'DONE', result: 'ok' } }), 's')).toMatchObject({ decision: { kind: 'DONE' }, turns: 3 });
  });

  it('a HALT resume does not run again ends it; its failure comes with it', async () => {
    const end = await sessionEnd(await storeWith({ decision: { kind: 'HALT', reason: 'ERR_PROVIDER', message: 'refused' }, failure: providerFailure('PROVIDER_BAD_REQUEST') }), 's');
    expect(end).toMatchObject({ decision: { kind: 'HALT', reason: 'ERR_PROVIDER' }, turns: 3, failure: { code: 'PROVIDER_BAD_REQUEST' } });
    expect(await sessionEnd(await storeWith({ decision: { kind: 'HALT', reason: 'ERR_MAX_TURNS_EXCEEDED', message: 'ceiling' } }), 's')).toMatchObject({ decision: { reason: 'ERR_MAX_TURNS_EXCEEDED' } });
  });

  it('a Ctrl-C or a model call asking again may mend does not end it', async () => {
    expect(await sessionEnd(await storeWith({ decision: { kind: 'HALT', reason: 'ERR_CANCELLED', message: 'cancelled' } }), 's')).toBeUndefined();
    expect(await sessionEnd(await storeWith({ decision: { kind: 'HALT', reason: 'ERR_PROVIDER', message: 'down' }, failure: providerFailure('PROVIDER_UNAVAILABLE') }), 's')).toBeUndefined();
  });

  it('nor does a turn that continues, waits for approval or stopped mid-turn', async () => {
    expect(await sessionEnd(await storeWith({ decision: { kind: 'CONTINUE' } }), 's')).toBeUndefined();
    expect(await sessionEnd(await storeWith({ phase: 'awaiting-approval', decision: { kind: 'PAUSE', reason: 'AWAITING_APPROVAL', message: 'wait' } }), 's')).toBeUndefined();
    const { decision: _decision, ...unfinished } = sampleTurn('s', 3, { phase: 'executing' });
    expect(await sessionEnd(await storeWith(unfinished), 's')).toBeUndefined();
  });

  it('a session halted before its first turn has ended; a fresh one or an unknown id has not', async () => {
    const halted = sampleSession('s', { status: 'halted', lastDecision: { kind: 'HALT', reason: 'ERR_USERDATA_SCHEMA', message: 'not USERDATA' } });
    expect(await sessionEnd(await storeWith(undefined, halted), 's')).toEqual({ decision: halted.lastDecision, turns: 0 });
    expect(await sessionEnd(await storeWith(undefined), 's')).toBeUndefined();
    expect(await sessionEnd(await storeWith(undefined), 'ghost')).toBeUndefined();
  });
});

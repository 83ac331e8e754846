/**
 * Wraps a transcript store so anything it throws that is not already a
 * `LoopError` reaches the caller as `LOOP_STORE_ERROR` with the cause
 * attached: one code for "the store failed", whichever store it is.
 */
import { isLoopError, LoopError } from '../errors/loop-error.ts';
import type { TranscriptStore } from './transcript-store.ts';

/**
 * The store's transcript methods (not `openToolStores` or the leases, which
 * `createAskLoop` calls on the store itself), their failures rewrapped.
 */
export function guardStore(store: TranscriptStore): TranscriptStore {
  const guard = <A extends unknown[], R>(action: string, fn: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try {
      return await fn.apply(store, args);
    } catch (error) {
      if (isLoopError(error)) throw error;
      throw new LoopError({ code: 'LOOP_STORE_ERROR', message: `the transcript store failed in ${action}: ${error instanceof Error ? error.message : String(error)}`, cause: error });
    }
  };
  return {
    createSession: guard('createSession', store.createSession),
    getSession: guard('getSession', store.getSession),
    updateSession: guard('updateSession', store.updateSession),
    listSessions: guard('listSessions', store.listSessions),
    saveTurn: guard('saveTurn', store.saveTurn),
    listTurns: guard('listTurns', store.listTurns),
    ...(store.listTurnRange === undefined ? {} : { listTurnRange: guard('listTurnRange', store.listTurnRange) }),
    lastTurn: guard('lastTurn', store.lastTurn),
    close: guard('close', store.close),
  };
}

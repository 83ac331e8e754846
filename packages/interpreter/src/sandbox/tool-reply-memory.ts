/**
 * How a tool call's answer reaches the isolate: the second piece of memory a
 * context shares with its worker (a `SharedArrayBuffer`, beside
 * `__host.checkpoint`). The isolate's thread sends the call with a plain
 * synchronous call into the worker's thread, then waits on this memory
 * (`Atomics.wait`) until the worker writes the answer and wakes it
 * (`Atomics.notify`).
 *
 * Why not isolated-vm's `applySyncPromise`, which waits for a promise of the
 * worker's thread: its wake-up signals a condition variable that lives on the
 * waiting thread's stack after releasing the lock that guards it, so a
 * waiting thread that finds the answer already there returns and reuses that
 * stack while the signal is still on its way. About once in a million calls
 * here the worker's main thread then hung for ever inside
 * `pthread_cond_signal` (seen with gdb: `ivm::ApplyRunner::AsyncCallback` →
 * `___pthread_cond_signal` → `__condvar_quiesce_and_switch_g1`), and the run
 * was ended 10 s later by the host's backstop as `SCRIPT_TIMEOUT`. A
 * synchronous call (`applySync`) signals before it lets the caller go, so it
 * cannot race that way.
 *
 * Layout: `Int32Array` cells `[0]` the state (`REPLY_WAITING` while the call is
 * out, `REPLY_READY` once answered) and `[1]` the answer's length in UTF-16
 * units, or `REPLY_TAKE` when it did not fit and the isolate takes it with a
 * synchronous call; then the answer's UTF-16 units from byte
 * `REPLY_TEXT_OFFSET`. The worker only writes this memory, never reads it, so
 * what a runtime writes there changes nothing but its own answer. No imports:
 * the bootstrap source names the same numbers.
 */

/** `[0]` while a call is out. */
export const REPLY_WAITING = 0;
/** `[0]` once the worker wrote the answer. */
export const REPLY_READY = 1;
/** `[1]` when the answer is longer than the memory holds: the isolate takes it with a call. */
export const REPLY_TAKE = -1;
/** Where the answer's UTF-16 units start, in bytes. */
export const REPLY_TEXT_OFFSET = 8;
/** UTF-16 units of an answer the memory holds (16 KiB); a longer one crosses by a synchronous call. */
export const REPLY_TEXT_UNITS = 8 * 1024;
/** The size of a context's reply memory in bytes. */
export const REPLY_MEMORY_BYTES = REPLY_TEXT_OFFSET + REPLY_TEXT_UNITS * Uint16Array.BYTES_PER_ELEMENT;

/** The worker's view of a context's reply memory. */
export interface ReplyMemory {
  readonly state: Int32Array;
  readonly text: Uint16Array;
}

/** A fresh reply memory and the worker's view of it. */
export function createReplyMemory(): { readonly shared: SharedArrayBuffer; readonly memory: ReplyMemory } {
  const shared = new SharedArrayBuffer(REPLY_MEMORY_BYTES);
  return { shared, memory: { state: new Int32Array(shared, 0, 2), text: new Uint16Array(shared, REPLY_TEXT_OFFSET) } };
}

/**
 * Writes `reply` for the waiting isolate and wakes it. Returns false when the
 * reply does not fit: then `[1]` says `REPLY_TAKE` and the caller keeps the
 * reply for the isolate's synchronous call.
 */
export function deliverReply(memory: ReplyMemory, reply: string): boolean {
  const fits = reply.length <= REPLY_TEXT_UNITS;
  if (fits) {
    const { text } = memory;
    for (let index = 0; index < reply.length; index += 1) text[index] = reply.charCodeAt(index);
  }
  memory.state[1] = fits ? reply.length : REPLY_TAKE;
  Atomics.store(memory.state, 0, REPLY_READY);
  Atomics.notify(memory.state, 0);
  return fits;
}

/**
 * The two small pieces of JavaScript the worker runs inside each fresh
 * context, around the runtime bundle. They are the only code that touches
 * isolated-vm objects inside the isolate; what they leave on the global is a
 * frozen `__host` of plain functions that take and return plain data.
 */
import { REPLY_TAKE, REPLY_TEXT_OFFSET, REPLY_WAITING } from './tool-reply-memory.ts';

/**
 * Installs `globalThis.__host`. Run with `evalClosure`: `$0` is a Reference to
 * the worker's tool-call function, `$1` a Reference to its event function,
 * `$2` this context's token, `$3` a SharedArrayBuffer of 16 bytes the worker
 * shares with the context: `__host.checkpoint`, a Float64Array over it (the
 * layout is `checkpoint-memory.ts`), is where the runtime may write where it
 * is (`[0]` a source line, `[1]` steps taken); the worker reads it as it
 * forwards each tool call and after the isolate is gone, and reports it with
 * a run that was stopped (out of memory or time, cancelled). `$4` is the
 * context's reply memory (`tool-reply-memory.ts`) and `$5` a Reference to the
 * worker's function that hands over an answer too long for it. A tool call is
 * a synchronous call into the worker (`applySync`), which sends it to the host
 * and returns at once — or returns the answer itself when there is nothing to
 * wait for — and then a wait on the reply memory until the worker writes the
 * answer there (never `applySyncPromise`: see `tool-reply-memory.ts`). The
 * References stay in this closure's scope,
 * unreachable from any global or value; the functions copy everything as JSON
 * text and pass the token, so the worker ignores calls from any context but
 * the active run's (a stale context's finalizer, say). `JSON`, `Atomics` and
 * the string and array functions used here are captured first so a runtime
 * that replaces them cannot change what crosses.
 *
 * The worker answers a tool call with `TOOL_REPLY` text: the ms the call
 * waited on a busy host (not the run's time), a space, the outcome JSON.
 * `__host.now()` is the run's clock: `Date.now()` less those waits, so the
 * evaluator's wall-clock quota counts what the worker's does. The string
 * methods it reads the reply with are captured too. (The worker's clock, not
 * this one, is what stops a run: a runtime that tampers with this one can
 * only lose its typed `SCRIPT_TIMEOUT`.)
 */
export const BOOTSTRAP_SOURCE = `
const callToolRef = $0;
const eventRef = $1;
const token = $2;
const checkpoint = new Float64Array($3);
const stringify = JSON.stringify;
const parse = JSON.parse;
const toText = String;
const dateNow = Date.now;
const apply = Reflect.apply;
const indexOf = String.prototype.indexOf;
const slice = String.prototype.slice;
const fromCharCode = String.fromCharCode;
const subarray = Object.getPrototypeOf(Uint16Array.prototype).subarray;
const atomicsLoad = Atomics.load;
const atomicsStore = Atomics.store;
const atomicsWait = Atomics.wait;
const replyState = new Int32Array($4, 0, 2);
const replyText = new Uint16Array($4, ${REPLY_TEXT_OFFSET});
const takeReplyRef = $5;
let excusedMs = 0;
const readReply = () => {
  const length = replyState[1];
  if (length === ${REPLY_TAKE}) return takeReplyRef.applySync(undefined, [token]);
  let text = '';
  for (let at = 0; at < length; at += 4096) text += apply(fromCharCode, undefined, apply(subarray, replyText, [at, at + 4096 < length ? at + 4096 : length]));
  return text;
};
const awaitReply = (sent) => {
  if (typeof sent === 'string') return sent;
  while (atomicsLoad(replyState, 0) === ${REPLY_WAITING}) atomicsWait(replyState, 0, ${REPLY_WAITING});
  return readReply();
};
const callToolJson = (name, argsJson) => {
  atomicsStore(replyState, 0, ${REPLY_WAITING});
  const reply = awaitReply(callToolRef.applySync(undefined, [token, toText(name), toText(argsJson)]));
  const space = apply(indexOf, reply, [' ']);
  const waited = +apply(slice, reply, [0, space]);
  if (waited > 0) excusedMs += waited;
  return apply(slice, reply, [space + 1]);
};
const eventJson = (kind, payloadJson) => { eventRef.applySync(undefined, [token, toText(kind), toText(payloadJson)]); };
const host = {
  callTool: (name, args) => parse(callToolJson(name, stringify(args === undefined ? null : args))),
  callToolJson,
  event: (kind, payload) => eventJson(kind, stringify(payload === undefined ? null : payload)),
  eventJson,
  now: () => dateNow() - excusedMs,
  checkpoint,
};
Object.defineProperty(globalThis, '__host', { value: Object.freeze(host), enumerable: false, writable: false, configurable: false });
`;

/** A tool call's answer as `BOOTSTRAP_SOURCE` reads it: `excusedMs` (a non-negative number) and the outcome JSON. */
export function toolReply(excusedMs: number, outcomeJson: string): string {
  return `${excusedMs} ${outcomeJson}`;
}

/** The status of an entry call, copied out of the isolate as a plain object. */
export type InvokeOutcome =
  | { readonly status: 'ok'; readonly json: string }
  | { readonly status: 'pending' }
  | { readonly status: 'thrown'; readonly name: string; readonly message: string }
  | { readonly status: 'no-entry' }
  | { readonly status: 'not-json'; readonly message: string };

/** Where INVOKE_SOURCE parks the promise of an async entry for AWAIT_SOURCE. */
const PENDING = `Symbol.for('askloop.sandbox.pending')`;

/**
 * Calls the runtime's entry. Run with `evalClosure`: `$0` is the entry's
 * global name, `$1` the input as JSON text. Returns an `InvokeOutcome`; when
 * the entry returns a promise it is parked and the outcome is `pending`, and
 * the worker then runs AWAIT_SOURCE (proxying a promise across costs ~50 µs,
 * so sync entries do not pay for it). A thrown value is described, never
 * passed out.
 */
export const INVOKE_SOURCE = `
const describe = (error) => {
  try {
    if (error instanceof Error) return { status: 'thrown', name: String(error.name), message: String(error.message) };
    return { status: 'thrown', name: 'Thrown', message: String(error) };
  } catch { return { status: 'thrown', name: 'Thrown', message: 'a value that cannot be described' }; }
};
const encode = (value) => {
  try {
    const json = JSON.stringify(value === undefined ? null : value);
    if (typeof json !== 'string') return { status: 'not-json', message: 'the entry returned a ' + typeof value };
    return { status: 'ok', json };
  } catch (error) { return { status: 'not-json', message: String(error && error.message) }; }
};
const entry = globalThis[$0];
if (typeof entry !== 'function') return { status: 'no-entry' };
let result;
try { result = entry(JSON.parse($1)); } catch (error) { return describe(error); }
if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
  globalThis[${PENDING}] = Promise.resolve(result).then(encode, describe);
  return { status: 'pending' };
}
return encode(result);
`;

/** Settles an async entry parked by INVOKE_SOURCE; run with `evalClosure` and `result: { promise: true, copy: true }`. */
export const AWAIT_SOURCE = `
const pending = globalThis[${PENDING}];
delete globalThis[${PENDING}];
return pending;
`;

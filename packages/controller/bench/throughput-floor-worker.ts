/**
 * The sandbox worker of the throughput floor (`throughput-floor.ts`): a child
 * process holding one isolate, which runs each script it is sent in a fresh
 * context, with one call to the host in the middle (a tool call's round
 * trip: the isolate waits while this process asks the host over IPC), and
 * sends back the result. Nothing else: no runtime, no quotas beyond the
 * isolate's memory limit, no checks — the least a sandboxed turn with one
 * host-run tool needs. The isolate waits as the sandbox's does (a
 * synchronous call that sends the request, then `Atomics.wait` on memory
 * this process writes the answer to; see the interpreter's
 * `tool-reply-memory.ts`): with `applySyncPromise` this worker hung now and
 * then inside isolated-vm, and the floor with it.
 */
import ivm from 'isolated-vm';

interface RunMessage { readonly kind: 'run'; readonly id: number; readonly source: string }
interface ToolReplyMessage { readonly kind: 'tool-reply'; readonly id: number; readonly result: string }

/**
 * Runs an isolate takes before it is replaced: contexts made and released one after another still grow its heap,
 * and after some thousands of runs it reached its memory limit and the process died (the sandbox's own workers are
 * replaced after `maxRunsPerWorker` runs). A new isolate every 1,000 runs costs a few µs a run.
 */
const RUNS_PER_ISOLATE = 1000;
let isolate = new ivm.Isolate({ memoryLimit: 128 });
let runs = 0;
/** Answers waiting for the host, by run: written to the run's shared memory (`[1]`), then `[0]` set and the isolate woken. */
const waiting = new Map<number, Int32Array>();
/** The host's side of a tool call: ask the host and return; the isolate waits on its memory for the answer. */
const callHost = new ivm.Reference((id: number, argument: string) => {
  process.send?.({ kind: 'tool-call', id, argument });
});

process.on('message', (message: RunMessage | ToolReplyMessage) => {
  if (message.kind === 'tool-reply') {
    const answer = waiting.get(message.id);
    waiting.delete(message.id);
    if (answer === undefined) return;
    answer[1] = Number(message.result);
    Atomics.store(answer, 0, 1);
    Atomics.notify(answer, 0);
    return;
  }
  void (async () => {
    runs += 1;
    if (runs % RUNS_PER_ISOLATE === 0) {
      isolate.dispose();
      isolate = new ivm.Isolate({ memoryLimit: 128 });
    }
    const context = await isolate.createContext();
    try {
      const answer = new SharedArrayBuffer(8);
      waiting.set(message.id, new Int32Array(answer));
      await context.global.set('__callHost', callHost);
      await context.global.set('__answer', new ivm.ExternalCopy(answer).copyInto({ release: true }));
      await context.global.set('__id', message.id);
      const result = await context.eval(message.source, { timeout: 1000 });
      process.send?.({ kind: 'done', id: message.id, result: String(result) });
    } catch (error) {
      // Said, not swallowed: the host fails the benchmark rather than wait for ever.
      process.send?.({ kind: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) });
    } finally {
      waiting.delete(message.id);
      context.release();
    }
  })();
});
process.send?.({ kind: 'ready' });

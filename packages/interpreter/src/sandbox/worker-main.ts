/**
 * Entry of a sandbox worker process, forked by the pool with
 * `--no-node-snapshot`. It hosts one isolate (see `isolate-host.ts`) and
 * talks to the host over IPC (`worker-protocol.ts`). If the host goes away
 * the worker exits; if a runaway kills this process the host sees it exit and
 * replaces it.
 */
import { writeSync } from 'node:fs';
import { IsolateHost } from './isolate-host.ts';
import { watchParent } from './parent-watch.ts';
import { WATCHDOG_STDERR_LINE, type ParentMessage, type WorkerMessage } from './worker-protocol.ts';

/**
 * How long after a run the worker waits before making its next context. Not
 * at once: the host is reading the result then, and on a busy machine the
 * ~0.25 ms of `createContext` competed with it for the core (the idle run cost
 * 1.9× its floor with the context made right away, 1.2× with it made 1 ms
 * later, both versions measured side by side at load 1.6). A run that arrives
 * sooner makes its own.
 */
const PREPARE_DELAY_MS = 1;

/**
 * How long an event may wait in the worker before it is sent. Events reach
 * this thread one by one (each a short synchronous call from the isolate, one
 * turn of the event loop each); sending each at once cost the host one
 * wake-up and one message per emit (10 streamed emits made a run 2× slower
 * than one without). They leave together: after this delay, or inside the
 * run's next message (tool call, result, memory report) when that comes
 * first, or once `EVENT_FLUSH_BYTES` are waiting — so order holds and a worker
 * the host kills for a runaway still delivers what came before.
 */
// ASKLOOP_SANDBOX_EVENT_FLUSH_MS only for tests that must see events ride in the next message whatever the machine's load.
const EVENT_FLUSH_MS = numberFromEnvironment('ASKLOOP_SANDBOX_EVENT_FLUSH_MS') ?? 2;
const EVENT_FLUSH_BYTES = 64 * 1024;

/** Events of the active run not yet sent: kind and payload JSON, alternating. */
let pendingEvents: string[] = [];
let pendingEventsRunId = -1;
let pendingEventsLength = 0;
let flushTimer: NodeJS.Timeout | undefined;

/** Sends the buffered events as one message. */
function flushEvents(): void {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  if (pendingEvents.length === 0) return;
  const events = pendingEvents;
  pendingEvents = [];
  pendingEventsLength = 0;
  if (process.connected) process.send?.({ type: 'events', runId: pendingEventsRunId, events } satisfies WorkerMessage);
}

/** Sends `message`; events of its run still buffered ride in it (delivered first), any other run's go before it. */
const send = (message: WorkerMessage): void => {
  let carried = message;
  if (pendingEvents.length > 0 && 'runId' in message && message.runId === pendingEventsRunId && message.type !== 'started' && message.type !== 'events') {
    carried = { ...message, events: pendingEvents };
    clearTimeout(flushTimer);
    flushTimer = undefined;
    pendingEvents = [];
    pendingEventsLength = 0;
  } else {
    flushEvents();
  }
  if (process.connected) process.send?.(carried);
};

function queueEvent(runId: number, kind: string, payloadJson: string): void {
  if (pendingEventsRunId !== runId) flushEvents();
  pendingEventsRunId = runId;
  pendingEvents.push(kind, payloadJson);
  pendingEventsLength += kind.length + payloadJson.length;
  if (pendingEventsLength >= EVENT_FLUSH_BYTES) flushEvents();
  else flushTimer ??= setTimeout(flushEvents, EVENT_FLUSH_MS);
}

let prepareTimer: NodeJS.Timeout | undefined;

const host = new IsolateHost(
  {
    toolCall: (runId, callId, name, argsJson, remainingMs, checkpoint) =>
      send({ type: 'tool-call', runId, callId, name, argsJson, remainingMs, ...(checkpoint === undefined ? {} : { checkpoint }) }),
    started: (runId) => send({ type: 'started', runId }),
    event: queueEvent,
    memoryExceeded: (runId, rssBytes, checkpoint) => {
      // Said on stderr first, synchronously: when the message below is still queued behind a large one (the host
      // slow to read) and the kill comes first, the host learns the cause from the stderr tail (`deathError`).
      try {
        writeSync(2, `${WATCHDOG_STDERR_LINE} (${Math.round(rssBytes / 2 ** 20)} MiB resident)\n`);
      } catch {
        // stderr closed: the message is all there is.
      }
      send({ type: 'memory-exceeded', runId, rssBytes, ...(checkpoint === undefined ? {} : { checkpoint }) });
      // The host kills this process on that message; should it not, do it ourselves.
      setTimeout(() => process.kill(process.pid, 'SIGKILL'), 1_000).unref();
    },
  },
  {
    rssFactor: numberFromEnvironment('ASKLOOP_SANDBOX_RSS_FACTOR'),
    rssFloorMb: numberFromEnvironment('ASKLOOP_SANDBOX_RSS_FLOOR_MB'),
  },
);

process.on('message', (message: ParentMessage) => {
  switch (message.type) {
    case 'run':
      clearTimeout(prepareTimer);
      if (message.evict !== undefined) host.evict(message.evict);
      void host.run(message).then((done) => {
        send(done);
        // Make the next run's context once the host has had the core to read this result.
        prepareTimer = setTimeout(() => host.prepare(), PREPARE_DELAY_MS);
      });
      break;
    case 'tool-result':
      host.toolResult(message.runId, message.callId, message.outcomeJson, message.toolMs, message.toolDataLeft);
      break;
    case 'cancel':
      host.cancel(message.runId);
      break;
  }
});
// Exit when the host is gone, however it died (disconnect, plus a periodic parent check).
watchParent();
// An error nothing caught (a message to a host that is gone fails as an 'error' event) ends the worker at once, by
// SIGKILL: Node's ordinary exit waits for a busy isolate thread, and a worker seen hung there, its host gone, stayed
// behind (re-parented, every thread waiting). The host learns why from the stderr tail.
const dieAtOnce = (error: unknown): void => {
  try {
    writeSync(2, `askloop sandbox worker: uncaught ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  } finally {
    process.kill(process.pid, 'SIGKILL');
  }
};
process.on('uncaughtException', dieAtOnce);
process.on('unhandledRejection', dieAtOnce);

host.warm(numberFromEnvironment('ASKLOOP_SANDBOX_MEMORY_MB') ?? 64);
send({ type: 'ready' });

function numberFromEnvironment(name: string): number | undefined {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

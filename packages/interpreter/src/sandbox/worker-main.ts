/**
 * Entry of a sandbox worker process, forked by the pool with
 * `--no-node-snapshot`. It hosts one isolate (see `isolate-host.ts`) and
 * talks to the host over IPC (`worker-protocol.ts`). If the host goes away
 * the worker exits; if a runaway kills this process the host sees it exit and
 * replaces it.
 */
import { IsolateHost } from './isolate-host.ts';
import { watchParent } from './parent-watch.ts';
import type { ParentMessage, WorkerMessage } from './worker-protocol.ts';

const send = (message: WorkerMessage): void => {
  if (process.connected) process.send?.(message);
};

const host = new IsolateHost(
  {
    toolCall: (runId, callId, name, argsJson) => send({ type: 'tool-call', runId, callId, name, argsJson }),
    started: (runId) => send({ type: 'started', runId }),
    event: (runId, kind, payloadJson) => send({ type: 'event', runId, kind, payloadJson }),
    memoryExceeded: (runId, rssBytes) => {
      send({ type: 'memory-exceeded', runId, rssBytes });
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
      if (message.evict !== undefined) host.evict(message.evict);
      void host.run(message).then((done) => {
        send(done);
        // Make the next run's context while the host reads this result.
        setImmediate(() => host.prepare());
      });
      break;
    case 'tool-result':
      host.toolResult(message.runId, message.callId, message.outcomeJson);
      break;
    case 'cancel':
      host.cancel(message.runId);
      break;
  }
});
// Exit when the host is gone, however it died (disconnect, plus a periodic parent check).
watchParent();

host.warm(numberFromEnvironment('ASKLOOP_SANDBOX_MEMORY_MB') ?? 64);
send({ type: 'ready' });

function numberFromEnvironment(name: string): number | undefined {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

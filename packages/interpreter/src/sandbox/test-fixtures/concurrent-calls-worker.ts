/**
 * A custom sandbox worker for tests that makes two tool calls at once (call
 * ids 0 and 1, the protocol allows it), then reports the run done with both
 * outcomes once both answered. It runs no isolate: only what the host sees of
 * a run matters here.
 */
import type { ParentMessage, WorkerMessage } from '../worker-protocol.ts';

const send = (message: WorkerMessage): void => void process.send?.(message);
const answers = new Map<number, Map<number, string>>();

process.on('message', (message: ParentMessage) => {
  if (message.type === 'run') {
    answers.set(message.runId, new Map());
    send({ type: 'started', runId: message.runId });
    for (const callId of [0, 1]) {
      send({ type: 'tool-call', runId: message.runId, callId, name: `tool.call${callId}`, argsJson: '[]', remainingMs: message.limits.wallMs });
    }
  } else if (message.type === 'tool-result') {
    const received = answers.get(message.runId);
    if (received === undefined) return;
    received.set(message.callId, message.outcomeJson);
    if (received.size === 2) {
      answers.delete(message.runId);
      const valueJson = JSON.stringify([...received.entries()].sort(([a], [b]) => a - b).map(([, outcome]) => JSON.parse(outcome) as unknown));
      send({ type: 'done', runId: message.runId, outcome: { ok: true, valueJson }, cpuMs: 0, heapBytes: 0, rssBytes: process.memoryUsage.rss() });
    }
  }
});
send({ type: 'ready' });

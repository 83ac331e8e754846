/**
 * One run of the memory aim in a fresh process (a process's RSS never shrinks
 * back, so each run needs its own): a warm-up of 10 sessions, then SESSIONS
 * (default 10,000) one-turn sessions at once, sampling the peak RSS of this
 * process and its sandbox workers. Forked by `concurrency.bench.ts` with the
 * model server's PORT; prints one JSON line with the figures.
 */
import { benchAgent, createBenchHost, runSessions } from './bench-host.ts';
import { sampleMemory } from './process-memory.ts';

const port = Number(process.env.PORT);
const sessions = Number(process.env.SESSIONS ?? 10_000);
const host = await createBenchHost(port);
for (let index = 0; index < 10; index += 1) await host.loop.run({ agent: benchAgent(2), task: 'warm-up' });
(globalThis as { gc?: () => void }).gc?.();
const idleRssBytes = process.memoryUsage.rss();
const memory = sampleMemory(new Set());
const result = await runSessions(host.loop, sessions, 1);
const peak = memory.stop();
await host.close();
const sorted = [...result.finishedMs].sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    sessions,
    turns: result.turns,
    turnsPerSecond: result.turns / (result.wallMs / 1000),
    wallMs: result.wallMs,
    firstFinishedMs: sorted[0],
    lastFinishedMs: sorted.at(-1),
    peakRssBytes: peak.peakTotal,
    peakHostRssBytes: peak.peakHost,
    idleHostRssBytes: idleRssBytes,
    children: peak.children,
    outcomes: result.halts,
  })}\n`,
);

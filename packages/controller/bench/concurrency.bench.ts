/**
 * `pnpm bench` (controller): many sessions at once against a model that takes
 * 200 ms — a loopback OpenAI-compatible server in its own process, reached
 * over real HTTP through `createOpenAICompatibleProvider` (streaming SSE).
 * The host is one process with a SQLite transcript file and a warm sandbox
 * pool of 2 workers.
 *
 * 1. 10,000 sessions at once (one turn each), three times, each run in a
 *    fresh process (`ten-thousand-sessions.ts`, the same host from
 *    `bench-host.ts`): peak RSS of that process and its sandbox workers,
 *    first/last finish; the figure is the median run.
 * 2. Throughput: many sessions of 3 turns at once → turns per second, and the
 *    spread between the first and the last session to finish.
 * 3. Added latency: one session alone (the peer), then 100 sessions at once;
 *    each turn's wall time minus the server's 200 ms.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { formatMs, formatRatio, formatStats, QUICK, report, stats } from '../../../scripts/bench-harness.ts';
import { benchAgent, createBenchHost, runSessions } from './bench-host.ts';
import { replyEnvelope, turnProgram } from './bench-programs.ts';

const MODEL_DELAY_MS = 200;
// REQ_N: the server puts the request's number there, so every reply is a new program (nothing is parsed from a cache).
const program = turnProgram(1024, 1, 'REQ_N').replace('emit "turn REQ_N: "', 'emit "turn " + turn_index + " REQ_N: "');
const server = fork(new URL('./loopback-model-server.ts', import.meta.url), [], {
  env: { ...process.env, DELAY_MS: String(MODEL_DELAY_MS), REPLY: replyEnvelope(program) },
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const port = await new Promise<number>((resolve, reject) => {
  server.once('error', reject);
  server.stdout?.once('data', (data: Buffer) => resolve((JSON.parse(String(data)) as { port: number }).port));
});

const host = await createBenchHost(port);
const { loop } = host;

/** Runs `sessions` sessions of `turns` turns at once, stepping each; returns per-turn wall times and finish times. */
async function stepSessions(sessions: number, turns: number): Promise<{ turnMs: number[]; finishedMs: number[]; wallMs: number }> {
  const started = performance.now();
  const turnMs: number[] = [];
  const finishedMs: number[] = [];
  await Promise.all(
    Array.from({ length: sessions }, async () => {
      const sid = await loop.create({ agent: benchAgent(turns), task: 'bench' });
      for (let turn = 0; turn < turns; turn += 1) {
        const before = performance.now();
        const result = await loop.step(sid);
        turnMs.push(performance.now() - before);
        if (result.status === 'HALT' && result.reason !== 'ERR_MAX_TURNS_EXCEEDED') throw new Error(`session halted: ${result.reason}`);
      }
      finishedMs.push(performance.now() - started);
    }),
  );
  return { turnMs, finishedMs, wallMs: performance.now() - started };
}

await stepSessions(QUICK ? 2 : 10, 2); // warm-up: the provider's SDK, connections, JIT

const spread = (finished: number[]) => {
  const sorted = [...finished].sort((a, b) => a - b);
  return { first: sorted[0] ?? Number.NaN, last: sorted.at(-1) ?? Number.NaN };
};

// --- 1. 10,000 sessions at once, each run in a fresh process (RSS never shrinks back): peak memory, no starving. ---
/** Fresh-process runs of the memory aim; its figure is their median (V8 collects when it likes, so one run can be far off). */
const MEMORY_RUNS = QUICK ? 1 : 3;
const memorySessions = QUICK ? 200 : 10_000;
interface MemoryRun { turnsPerSecond: number; wallMs: number; firstFinishedMs: number; lastFinishedMs: number; peakRssBytes: number; peakHostRssBytes: number; idleHostRssBytes: number; children: number; outcomes: Record<string, number> }
const memoryRuns: MemoryRun[] = [];
for (let run = 0; run < MEMORY_RUNS; run += 1) {
  const child = fork(new URL('./ten-thousand-sessions.ts', import.meta.url), [], {
    env: { ...process.env, PORT: String(port), SESSIONS: String(memorySessions) },
    execArgv: process.execArgv,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the ${memorySessions}-session run exited with ${code}`);
  memoryRuns.push(JSON.parse(output) as MemoryRun);
}
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
const peaks = stats(memoryRuns.map((run) => run.peakRssBytes));
const memoryRows = memoryRuns.map((run, index) => [
  `run ${index + 1} of ${MEMORY_RUNS}`,
  run.turnsPerSecond.toFixed(0),
  `${(run.wallMs / 1000).toFixed(1)} s`,
  `${formatMs(run.firstFinishedMs)} / ${formatMs(run.lastFinishedMs)}`,
  `${mib(run.peakRssBytes)} (host ${mib(run.peakHostRssBytes)} + ${run.children} children)`,
  Object.entries(run.outcomes).map(([key, count]) => `${count} ${key}`).join(', '),
]);
memoryRows.push([`median of ${MEMORY_RUNS}`, '', '', '', `${mib(peaks.median)} (${mib(Math.min(...memoryRuns.map((run) => run.peakRssBytes)))} – ${mib(Math.max(...memoryRuns.map((run) => run.peakRssBytes)))})`, '']);
const medianRun = [...memoryRuns].sort((a, b) => a.peakRssBytes - b.peakRssBytes)[Math.floor(memoryRuns.length / 2)] as MemoryRun;
report({
  id: 'controller.concurrency-memory',
  title: `${memorySessions.toLocaleString('en-US')} sessions at once, each run in a fresh process: peak memory and finishing spread (model answers after 200 ms over loopback HTTP)`,
  peer: 'the host before the sessions (idle RSS after a warm-up of 10 sessions, in the note)',
  note: `Aim: 10,000 concurrent sessions under 2 GB peak RSS (the host process plus its sandbox workers, sampled every 50 ms; the model server is another process and not counted); no session starves (first / last to finish). One turn each; the figure is the median of ${MEMORY_RUNS} runs, each in a fresh process, because the peak depends on when V8 collects garbage (the live set is far smaller than the peak). Idle host RSS before each run: ${memoryRuns.map((run) => mib(run.idleHostRssBytes)).join(', ')}.`,
  columns: ['run', 'turns/s', 'wall', 'first / last finished', 'peak RSS', 'outcomes'],
  rows: memoryRows,
  data: [
    ...memoryRuns.map((run, index) => ({ sessions: memorySessions, run: index + 1, ...run })),
    { sessions: memorySessions, summary: 'median', runs: MEMORY_RUNS, peakRssBytes: peaks.median, minPeakRssBytes: Math.min(...memoryRuns.map((run) => run.peakRssBytes)), maxPeakRssBytes: Math.max(...memoryRuns.map((run) => run.peakRssBytes)), firstFinishedMs: medianRun.firstFinishedMs, lastFinishedMs: medianRun.lastFinishedMs },
  ],
});

// --- 2. Throughput: the median of repeated runs of 1,000 sessions × 3 turns (after one of 300 × 3). ---
const rows: string[][] = [];
const data: unknown[] = [];
/** How often the throughput row (1,000 sessions × 3 turns) runs: its figure is the median of these runs. */
const THROUGHPUT_RUNS = QUICK ? 2 : 5;
const throughputShape: [number, number] = QUICK ? [50, 2] : [1000, 3];
const throughputRuns: number[] = [];
const plan: [number, number][] = [...(QUICK ? [] : [[300, 3]]) as [number, number][], ...Array.from({ length: THROUGHPUT_RUNS }, () => throughputShape)];
for (const [sessions, turns] of plan) {
  const result = await runSessions(loop, sessions, turns);
  const { first, last } = spread(result.finishedMs);
  const perSecond = result.turns / (result.wallMs / 1000);
  const repeated = sessions === throughputShape[0] && turns === throughputShape[1];
  if (repeated) throughputRuns.push(perSecond);
  // Each session waits ≥ turns × 200 ms for the model however fast the host is.
  const ceiling = (sessions * turns) / ((turns * MODEL_DELAY_MS) / 1000);
  rows.push([
    `${sessions} × ${turns} turns${repeated ? ` (run ${throughputRuns.length} of ${THROUGHPUT_RUNS})` : ''}`,
    perSecond.toFixed(0),
    ceiling.toFixed(0),
    `${(result.wallMs / 1000).toFixed(1)} s`,
    `${formatMs(first)} / ${formatMs(last)}`,
    Object.entries(result.halts).map(([key, count]) => `${count} ${key}`).join(', '),
  ]);
  data.push({ sessions, turnsPerSession: turns, ...(repeated ? { run: throughputRuns.length } : {}), turns: result.turns, turnsPerSecond: perSecond, ceilingTurnsPerSecond: ceiling, wallMs: result.wallMs, firstFinishedMs: first, lastFinishedMs: last, outcomes: result.halts });
}
const throughputStats = stats(throughputRuns);
rows.push([
  `${throughputShape[0]} × ${throughputShape[1]} turns, median of ${THROUGHPUT_RUNS} runs`,
  `${throughputStats.median.toFixed(0)} (${Math.min(...throughputRuns).toFixed(0)} – ${Math.max(...throughputRuns).toFixed(0)})`,
  '', '', '', '',
]);
data.push({ sessions: throughputShape[0], turnsPerSession: throughputShape[1], summary: 'median', runs: throughputRuns.length, turnsPerSecond: throughputStats.median, minTurnsPerSecond: Math.min(...throughputRuns), maxTurnsPerSecond: Math.max(...throughputRuns) });
report({
  id: 'controller.concurrency-throughput',
  title: 'Sessions at once: turns per second (model answers after 200 ms over loopback HTTP)',
  peer: 'the ceiling a host with zero cost would reach (every session waits 200 ms per turn for the model)',
  note: `Aim: ≥ 500 turns/s on 2 cores: the median of the ${THROUGHPUT_RUNS} runs of ${throughputShape[0]} × ${throughputShape[1]} turns (min – max beside it), in one process after a warm-up${QUICK ? "" : " and a run of 300 × 3"}. Program: about 1 KB, one tool call; default quotas (a run's wall clock starts when a sandbox worker takes it, so waiting for a run slot or a worker is not counted); sessions end at their turn ceiling (HALT ERR_MAX_TURNS_EXCEEDED), each turn saved to the SQLite file.`,
  columns: ['sessions × turns', 'turns/s', 'zero-cost ceiling', 'wall', 'first / last finished', 'outcomes'],
  rows,
  data,
});

// --- 3. Added latency per turn. ---
const latencyTurns = QUICK ? 2 : 20;
/** The latency pair runs this often (alone, then 100 at once); each side's samples are pooled across the runs. */
const LATENCY_RUNS = QUICK ? 1 : 3;
const alone = { turnMs: [] as number[] };
const many = { turnMs: [] as number[], finishedMs: [] as number[] };
const manyMedians: number[] = [];
for (let run = 0; run < LATENCY_RUNS; run += 1) {
  alone.turnMs.push(...(await stepSessions(1, latencyTurns)).turnMs);
  const crowd = await stepSessions(QUICK ? 10 : 100, QUICK ? 2 : 10);
  many.turnMs.push(...crowd.turnMs);
  many.finishedMs.push(...crowd.finishedMs);
  manyMedians.push(stats(crowd.turnMs).median - MODEL_DELAY_MS);
}
const added = (times: number[]) => stats(times.map((ms) => ms - MODEL_DELAY_MS));
const aloneAdded = added(alone.turnMs);
const manyAdded = added(many.turnMs);
const manySpread = spread(many.finishedMs);
report({
  id: 'controller.concurrency-latency',
  title: 'Added latency per turn: one session alone vs 100 sessions at once (model answers after 200 ms over loopback HTTP)',
  peer: 'one session alone, same process and server, same run',
  note: `Added latency = the turn's wall time (\`loop.step\`) minus the server's 200 ms. Aim: ≤ 10 ms p50 at 100 sessions. The pair ran ${LATENCY_RUNS === 1 ? "once" : `${LATENCY_RUNS} times`}, each side's turns pooled; each run's own median at ${QUICK ? 10 : 100} sessions: ${manyMedians.map((value) => formatMs(value)).join(', ')}. ${QUICK ? 10 : 100} sessions × ${QUICK ? 2 : 10} turns: first session finished after ${formatMs(manySpread.first)}, last after ${formatMs(manySpread.last)} (over all runs, each from its own start).`,
  columns: ['sessions at once', 'turns measured', 'added latency, median (p10 – p90)', 'vs alone'],
  rows: [
    ['1', String(alone.turnMs.length), formatStats(aloneAdded), '1.00×'],
    [QUICK ? '10' : '100', String(many.turnMs.length), formatStats(manyAdded), formatRatio(manyAdded.median / aloneAdded.median)],
  ],
  data: [
    { sessions: 1, addedMs: aloneAdded },
    { sessions: QUICK ? 10 : 100, addedMs: manyAdded, firstFinishedMs: manySpread.first, lastFinishedMs: manySpread.last },
  ],
});


await host.close();
server.kill();

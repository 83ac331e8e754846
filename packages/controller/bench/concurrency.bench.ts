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
 *    CPU per turn of the host process, its sandbox workers and the model
 *    server, from the same runs.
 * 3. Added latency: one session alone (the peer), then 100 sessions at once;
 *    each turn's wall time minus the server's 200 ms, beside the floor (bare
 *    HTTP requests to the same server, 1 and 100 at once) and stage by stage
 *    from the loop's events.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { formatMs, formatRatio, formatStats, QUICK, report, stats } from '../../../scripts/bench-harness.ts';
import { benchAgent, createBenchHost, runSessions } from './bench-host.ts';
import { replyEnvelope, turnProgram } from './bench-programs.ts';
import { bareHttpAdded } from './http-floor.ts';
import { startThroughputFloor } from './throughput-floor.ts';
import { startCpuTally, type CpuTally } from './process-cpu.ts';
import { createTurnStages, stageStats } from './turn-stages.ts';

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

/**
 * Runs `sessions` sessions of `turns` turns at once, stepping each; returns per-turn wall times and finish times.
 * With `stages`, each step's events are stamped for the stage breakdown.
 */
async function stepSessions(sessions: number, turns: number, stages?: ReturnType<typeof createTurnStages>): Promise<{ turnMs: number[]; finishedMs: number[]; wallMs: number }> {
  const started = performance.now();
  const turnMs: number[] = [];
  const finishedMs: number[] = [];
  await Promise.all(
    Array.from({ length: sessions }, async () => {
      const sid = await loop.create({ agent: benchAgent(turns), task: 'bench' });
      for (let turn = 0; turn < turns; turn += 1) {
        const before = performance.now();
        const result = await loop.step(sid, stages === undefined ? {} : { onEvent: stages.listener });
        const after = performance.now();
        turnMs.push(after - before);
        stages?.stepped(sid, before, after);
        if (result.status === 'HALT' && result.reason !== 'ERR_MAX_TURNS_EXCEEDED') throw new Error(`session halted: ${result.reason}`);
      }
      finishedMs.push(performance.now() - started);
    }),
  );
  return { turnMs, finishedMs, wallMs: performance.now() - started };
}

await stepSessions(QUICK ? 2 : 10, 2); // warm-up: the provider's SDK, connections, JIT
// The floors' requests are as large as the host's (the server keeps the size of the last one it served), and the
// throughput floor's rows as large as a turn record.
const requestBytes = Number(await (await fetch(`http://127.0.0.1:${port}/last-request-bytes`)).text());
const [lastSession] = await host.store.listSessions({ limit: 1 });
const recordBytes = JSON.stringify(lastSession === undefined ? {} : await host.store.lastTurn(lastSession.sid)).length;

const fixed = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(2) : '–');
const formatCpu = (cpu: { host: number; workers: number; server: number }) => [cpu.host, cpu.workers, cpu.server].map(fixed).join(' / ') + ' ms';
/** The host's main thread: on a core / waiting for one, and its event-loop utilisation. */
const formatMainThread = (cpu: { hostMain: number; hostMainWaiting: number; hostUtilization: number }) =>
  `${fixed(cpu.hostMain)} / ${fixed(cpu.hostMainWaiting)} ms, ${Number.isFinite(cpu.hostUtilization) ? cpu.hostUtilization.toFixed(2) : '–'}`;

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
/** CPU per turn of each part of the host, in ms: `host / sandbox workers / model server`. */
const cpuPerTurn = (cpu: CpuTally, turns: number) => ({
  host: cpu.hostMs / turns,
  workers: cpu.childrenMs / turns,
  server: (cpu.namedMs.server ?? Number.NaN) / turns,
  hostMain: cpu.hostMainMs / turns,
  hostMainWaiting: cpu.hostMainWaitingMs / turns,
  hostUtilization: cpu.hostEventLoopUtilization,
  workersMain: cpu.childrenMainMs / turns,
});
const cpuRuns: ReturnType<typeof cpuPerTurn>[] = [];
/** The floor's runs, each right after a repeated run of the host (same shape), and their CPU per turn. */
const floor = await startThroughputFloor(port, requestBytes, recordBytes);
await floor.run(QUICK ? 10 : 100, 2); // warm-up: connections, JIT
const floorRuns: number[] = [];
let floorFailure: string | undefined;
const floorCpuRuns: ReturnType<typeof cpuPerTurn>[] = [];
for (const [sessions, turns] of plan) {
  const tally = startCpuTally(server.pid === undefined ? {} : { server: server.pid });
  const result = await runSessions(loop, sessions, turns);
  const cpu = cpuPerTurn(tally.stop(), result.turns);
  const { first, last } = spread(result.finishedMs);
  const perSecond = result.turns / (result.wallMs / 1000);
  const repeated = sessions === throughputShape[0] && turns === throughputShape[1];
  let floorPerSecond: number | undefined;
  if (repeated) {
    throughputRuns.push(perSecond);
    cpuRuns.push(cpu);
    if (floorFailure === undefined) {
      const floorTally = startCpuTally(server.pid === undefined ? {} : { server: server.pid });
      try {
        const floorResult = await floor.run(sessions, turns);
        floorCpuRuns.push(cpuPerTurn(floorTally.stop(), floorResult.turns));
        floorPerSecond = floorResult.turns / (floorResult.wallMs / 1000);
        floorRuns.push(floorPerSecond);
      } catch (error) {
        // The floor is a peer: its failure is reported, and the host's runs go on.
        floorFailure = error instanceof Error ? error.message : String(error);
        console.error(`the throughput floor failed: ${floorFailure}`);
      }
    }
  }
  // Each session waits ≥ turns × 200 ms for the model however fast the host is.
  const ceiling = (sessions * turns) / ((turns * MODEL_DELAY_MS) / 1000);
  rows.push([
    `${sessions} × ${turns} turns${repeated ? ` (run ${throughputRuns.length} of ${THROUGHPUT_RUNS})` : ''}`,
    perSecond.toFixed(0),
    floorPerSecond === undefined ? '' : `${floorPerSecond.toFixed(0)} (${formatRatio(perSecond / floorPerSecond)})`,
    ceiling.toFixed(0),
    `${(result.wallMs / 1000).toFixed(1)} s`,
    `${formatMs(first)} / ${formatMs(last)}`,
    formatCpu(cpu),
    formatMainThread(cpu),
    Object.entries(result.halts).map(([key, count]) => `${count} ${key}`).join(', '),
  ]);
  data.push({ sessions, turnsPerSession: turns, ...(repeated ? { run: throughputRuns.length, floorTurnsPerSecond: floorPerSecond, floorCpuMsPerTurn: floorCpuRuns.at(-1) } : {}), turns: result.turns, turnsPerSecond: perSecond, ceilingTurnsPerSecond: ceiling, wallMs: result.wallMs, firstFinishedMs: first, lastFinishedMs: last, cpuMsPerTurn: cpu, outcomes: result.halts });
}
await floor.close();
const throughputStats = stats(throughputRuns);
const floorStats = stats(floorRuns);
/** The host's turns per second over the floor's, run by run (each pair ran back to back). */
const floorRatios = floorRuns.map((floorPerSecond, index) => (throughputRuns[index] as number) / floorPerSecond);
const floorCpu = (key: keyof (typeof floorCpuRuns)[number]) => stats(floorCpuRuns.map((cpu) => cpu[key])).median;
const medianOf = (key: keyof (typeof cpuRuns)[number]) => stats(cpuRuns.map((cpu) => cpu[key])).median;
const medianCpu = {
  host: medianOf('host'),
  workers: medianOf('workers'),
  server: medianOf('server'),
  hostMain: medianOf('hostMain'),
  hostMainWaiting: medianOf('hostMainWaiting'),
  hostUtilization: medianOf('hostUtilization'),
  workersMain: medianOf('workersMain'),
};
rows.push([
  `${throughputShape[0]} × ${throughputShape[1]} turns, median of ${THROUGHPUT_RUNS} runs`,
  `${throughputStats.median.toFixed(0)} (${Math.min(...throughputRuns).toFixed(0)} – ${Math.max(...throughputRuns).toFixed(0)})`,
  floorRuns.length === 0
    ? '–'
    : `${floorStats.median.toFixed(0)} (${Math.min(...floorRuns).toFixed(0)} – ${Math.max(...floorRuns).toFixed(0)}); host ${formatRatio(stats(floorRatios).median)} (${formatRatio(Math.min(...floorRatios))} – ${formatRatio(Math.max(...floorRatios))})`,
  '', '', '',
  formatCpu(medianCpu),
  formatMainThread(medianCpu),
  '',
]);
data.push({
  sessions: throughputShape[0],
  turnsPerSession: throughputShape[1],
  summary: 'median',
  runs: throughputRuns.length,
  turnsPerSecond: throughputStats.median,
  minTurnsPerSecond: Math.min(...throughputRuns),
  maxTurnsPerSecond: Math.max(...throughputRuns),
  cpuMsPerTurn: medianCpu,
  ...(floorFailure === undefined ? {} : { floorFailure }),
  floorTurnsPerSecond: floorStats.median,
  minFloorTurnsPerSecond: Math.min(...floorRuns),
  maxFloorTurnsPerSecond: Math.max(...floorRuns),
  vsFloor: stats(floorRatios).median,
  floorCpuMsPerTurn: { host: floorCpu('host'), workers: floorCpu('workers'), server: floorCpu('server'), hostMain: floorCpu('hostMain') },
});
report({
  id: 'controller.concurrency-throughput',
  title: 'Sessions at once: turns per second (model answers after 200 ms over loopback HTTP)',
  peer: 'the floor: a host that does only what no host can skip on a turn (a bare HTTP request, a fresh isolate context in a worker process with one call to the host, one SQLite commit), run right after each repeated run; and the ceiling a host with zero cost would reach (every session waits 200 ms per turn for the model)',
  note: `Aim: ≥ 500 turns/s on 2 cores: the median of the ${THROUGHPUT_RUNS} runs of ${throughputShape[0]} × ${throughputShape[1]} turns (min – max beside it), in one process after a warm-up${QUICK ? "" : " and a run of 300 × 3"}. Program: about 1 KB, one tool call; default quotas (a run's wall clock starts when a sandbox worker takes it, so waiting for a run slot or a worker is not counted); sessions end at their turn ceiling (HALT ERR_MAX_TURNS_EXCEEDED), each turn saved to the SQLite file. CPU per turn: user + system time over the run divided by its turns, of the host process (every thread: V8's collector and compiler threads too), of its sandbox worker processes together, and of the model server process (/proc, clock ticks of 10 ms; the median row takes each column's median over the repeated runs). On 2 cores their sum bounds the turns per second at about 2,000 ÷ (host + workers + server). Host main thread: per turn, its time on a core and the time it was ready but waited for one (/proc schedstat), and the host's event-loop utilisation over the run; all the host's work for a turn but V8's background threads runs on that one thread, so when its utilisation nears 1 it bounds the turns per second at about 1,000 ÷ (on a core + waiting) whatever the other core does. Of the workers' CPU, their main threads (Node: IPC, timers, making each run's context) took ${fixed(medianCpu.workersMain)} ms a turn (median), the rest is their isolate threads (the programs) and V8's helpers. The floor (\`throughput-floor.ts\`): each turn a bare \`node:http\` request of the host's size (${requestBytes} bytes) with its body read to the end, then a short script in a fresh context of an isolate in one of two worker processes (one run at a time each, as the sandbox's), with one round trip to the host in the middle as a tool call makes, then one SQLite commit of a ${recordBytes}-byte row (a turn record's size, WAL as the store's file); no SDK, envelope, parse, check, policy, quotas or session rows. It ran ${throughputShape[0]} × ${throughputShape[1]} turns right after each repeated run of the host; its CPU per turn (medians): host ${fixed(floorCpu('host'))} ms (main thread ${fixed(floorCpu('hostMain'))} ms), workers ${fixed(floorCpu('workers'))} ms, model server ${fixed(floorCpu('server'))} ms. "host ÷ floor" is each pair's ratio; the median row gives the median ratio and its range.${floorFailure === undefined ? '' : ` The floor failed after ${floorRuns.length} of its runs: ${floorFailure}.`}`,
  columns: ['sessions × turns', 'turns/s', 'floor turns/s (host ÷ floor)', 'zero-cost ceiling', 'wall', 'first / last finished', 'CPU per turn: host / sandbox workers / model server', 'host main thread per turn: on a core / waiting; event-loop utilisation', 'outcomes'],
  rows,
  data,
});

// --- 3. Added latency per turn. ---
const latencyTurns = QUICK ? 2 : 20;
/** The latency pair runs this often (alone, then 100 at once); each side's samples are pooled across the runs. */
const LATENCY_RUNS = QUICK ? 1 : 3;
const crowdSessions = QUICK ? 10 : 100;
const crowdTurns = QUICK ? 2 : 10;
const alone = { turnMs: [] as number[], stages: createTurnStages(MODEL_DELAY_MS), floorMs: [] as number[] };
const many = { turnMs: [] as number[], finishedMs: [] as number[], stages: createTurnStages(MODEL_DELAY_MS), floorMs: [] as number[] };
const manyMedians: number[] = [];
for (let run = 0; run < LATENCY_RUNS; run += 1) {
  alone.turnMs.push(...(await stepSessions(1, latencyTurns, alone.stages)).turnMs);
  const crowd = await stepSessions(crowdSessions, crowdTurns, many.stages);
  many.turnMs.push(...crowd.turnMs);
  many.finishedMs.push(...crowd.finishedMs);
  manyMedians.push(stats(crowd.turnMs).median - MODEL_DELAY_MS);
  alone.floorMs.push(...(await bareHttpAdded(port, 1, latencyTurns, MODEL_DELAY_MS, requestBytes)));
  many.floorMs.push(...(await bareHttpAdded(port, crowdSessions, crowdTurns, MODEL_DELAY_MS, requestBytes)));
}
const added = (times: number[]) => stats(times.map((ms) => ms - MODEL_DELAY_MS));
const aloneAdded = added(alone.turnMs);
const manyAdded = added(many.turnMs);
const aloneFloor = stats(alone.floorMs);
const manyFloor = stats(many.floorMs);
const manySpread = spread(many.finishedMs);
report({
  id: 'controller.concurrency-latency',
  title: `Added latency per turn: one session alone vs ${crowdSessions} sessions at once (model answers after 200 ms over loopback HTTP)`,
  peer: 'one session alone, same process and server, same run; and the floor: bare `node:http` requests to the same server, as many at once',
  note: `Added latency = the turn's wall time (\`loop.step\`) minus the server's 200 ms. Aim: ≤ 10 ms p50 at 100 sessions, judged on the "added latency" column. The pair ran ${LATENCY_RUNS === 1 ? "once" : `${LATENCY_RUNS} times`}, each side's turns pooled; each run's own median at ${crowdSessions} sessions: ${manyMedians.map((value) => formatMs(value)).join(', ')}. ${crowdSessions} sessions × ${crowdTurns} turns: first session finished after ${formatMs(manySpread.first)}, last after ${formatMs(manySpread.last)} (over all runs, each from its own start). The floor is what no host can take off: the server's timer firing late and loopback HTTP, measured after each run of the pair with requests of the host's size (${requestBytes} bytes) and no SDK; "above the floor" is the difference of the two medians. Each step is watched by an event listener for the stage table below (a map update per event).`,
  columns: ['sessions at once', 'turns measured', 'added latency, median (p10 – p90)', 'vs alone', 'floor: bare HTTP, same concurrency', 'above the floor'],
  rows: [
    ['1', String(alone.turnMs.length), formatStats(aloneAdded), '1.00×', formatStats(aloneFloor), formatMs(aloneAdded.median - aloneFloor.median)],
    [String(crowdSessions), String(many.turnMs.length), formatStats(manyAdded), formatRatio(manyAdded.median / aloneAdded.median), formatStats(manyFloor), formatMs(manyAdded.median - manyFloor.median)],
  ],
  data: [
    { sessions: 1, addedMs: aloneAdded, floorMs: aloneFloor },
    { sessions: crowdSessions, addedMs: manyAdded, floorMs: manyFloor, firstFinishedMs: manySpread.first, lastFinishedMs: manySpread.last },
  ],
});

const aloneStages = stageStats(alone.stages.samples);
const manyStages = new Map(stageStats(many.stages.samples).map((entry) => [entry.stage, entry.stats]));
report({
  id: 'controller.concurrency-latency-stages',
  title: `Where a turn's time goes: one session alone vs ${crowdSessions} sessions at once, stage by stage`,
  peer: 'the same stage of one session alone, same runs',
  note: `From the latency runs above: each stage is the gap between two of the turn's events (stamped as the listener sees them), so the stages of a turn add up to its wall time less the server's 200 ms. Medians of each stage do not add up to the median turn. A turn that waits at ${crowdSessions} sessions waits in one of three places: for the host's thread (every stage), for a run slot (at most twice the sandbox workers prepare and run at once), or for a sandbox worker.`,
  columns: ['stage (the gap that ends at)', 'alone, median (p90)', `${crowdSessions} at once, median (p90)`, 'difference of medians'],
  rows: aloneStages.map(({ stage, label, stats: aloneStats }) => {
    const crowdStats = manyStages.get(stage);
    return [label, `${formatMs(aloneStats.median)} (${formatMs(aloneStats.p90)})`, crowdStats === undefined ? '–' : `${formatMs(crowdStats.median)} (${formatMs(crowdStats.p90)})`, crowdStats === undefined ? '–' : formatMs(crowdStats.median - aloneStats.median)];
  }),
  data: aloneStages.map(({ stage, stats: aloneStats }) => ({ stage, aloneMs: aloneStats, crowdMs: manyStages.get(stage) ?? null })),
});

await host.close();
server.kill();

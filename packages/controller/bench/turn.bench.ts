/**
 * `pnpm bench` (controller): the host side of one turn, stage by stage, and
 * how a turn's cost grows with the program, the OUTPUT and the session.
 *
 * Real parts: a SQLite transcript file (WAL), the sandbox pool (warm worker),
 * the safe tool packs through the turn's tool host; the model is the
 * scripted provider answering at once, so what is measured is the host.
 * Each sample is one `loop.step(sid)` (session lookup and lease, compose,
 * model, extract, parse, check, run, scan, decide, every save).
 *
 * Stages come from the loop's own record timings (compose, model, prepare,
 * execute, scan) and from wrappers around the store (persist), the
 * interpreter port (parse + check, the sandbox run) and the tool bridge (the
 * host side of each call); parse alone and the progress digest are timed on
 * the same input right after the turn (outside it) and subtracted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { progressDigest } from '@askloop/envelope';
import { createSandboxPool, parse } from '@askloop/interpreter';
import { createScriptedProvider } from '@askloop/providers';
import { createSafeToolPacks } from '@askloop/tools';
import { formatMs, formatRatio, formatStats, QUICK, report, sampleCount, stats, type Stats } from '../../../scripts/bench-harness.ts';
import { createAskLoop, createDefaultInterpreter, createSqliteTranscriptStore, definePlugin, type LoopEvent, type TurnRecord } from '../src/index.ts';
import { outputProgram, replyEnvelope, turnProgram } from './bench-programs.ts';
import { createStageTotals, timedInterpreter, timedStore } from './stage-timers.ts';

const directory = mkdtempSync(join(tmpdir(), 'askloop-turn-bench-'));
const totals = createStageTotals();
// Sub-millisecond record timings: the loop's clock is injectable, the system clock has whole milliseconds.
const clock = { now: () => performance.timeOrigin + performance.now() };
const store = timedStore(createSqliteTranscriptStore(join(directory, 'transcript.db'), { clock }), totals);
const pool = createSandboxPool({ workers: 2 });
await pool.warmup();
const interpreter = timedInterpreter(createDefaultInterpreter(pool), totals);

/** What the scripted model answers next: set before each step. */
let nextReply = (): string => replyEnvelope(turnProgram(2048, 5, 'warm-up'));
const plugin = definePlugin({
  name: 'bench',
  specificationVersion: 'v1',
  providers: { scripted: createScriptedProvider({ models: { bench: () => nextReply() } }) },
  toolPacks: createSafeToolPacks(),
});
const loop = createAskLoop({ plugins: [plugin], store, pool, interpreter, clock });
const agent = { name: 'bench', model: 'scripted:bench', ceilings: { maxTurns: 1_000_000 } };

/** One measured turn: its wall time, its record and the stage totals. */
interface TurnSample {
  wallMs: number;
  record: TurnRecord;
  persist: number;
  prepare: number;
  execute: number;
  toolBridge: number;
}

async function step(sid: string, reply: string): Promise<TurnSample> {
  nextReply = () => reply;
  let record: TurnRecord | undefined;
  const onEvent = (event: LoopEvent): void => {
    if (event.type === 'decision') record = event.record;
  };
  totals.reset();
  const started = performance.now();
  const result = await loop.step(sid, { onEvent });
  const wallMs = performance.now() - started;
  if (record === undefined || record.failure !== undefined || result.status === 'HALT') throw new Error(`the benchmark turn failed: ${JSON.stringify(record?.failure ?? result)}`);
  return { wallMs, record, persist: totals.persist, prepare: totals.prepare, execute: totals.execute, toolBridge: totals.toolBridge };
}

let tagCount = 0;
const tag = (): string => `t${(tagCount += 1)}`;

// --- 1. The breakdown: 2 KB program, 5 tool calls. ---
const sessions = sampleCount(20, 1);
const turnsPerSession = sampleCount(20, 3);
const stage: Record<string, number[]> = {};
const add = (name: string, value: number): void => void (stage[name] ??= []).push(value);
for (let session = -1; session < sessions; session += 1) {
  const sid = await loop.create({ agent, task: 'bench' });
  for (let turn = 0; turn < turnsPerSession; turn += 1) {
    const reply = replyEnvelope(turnProgram(2048, 5, tag()));
    const sample = await step(sid, reply);
    if (session < 0) continue; // warm-up session
    const { timings } = sample.record;
    const actions = sample.record.actions ?? '';
    const parseStarted = performance.now();
    parse(actions);
    const parseMs = performance.now() - parseStarted;
    const digestStarted = performance.now();
    progressDigest(sample.record.output, sample.record.scratchpad);
    const digestMs = performance.now() - digestStarted;
    add('total', sample.wallMs);
    add('compose', timings.compose ?? 0);
    add('model (scripted, answers at once)', timings.model ?? 0);
    add('extract (envelope)', (timings.prepare ?? 0) - sample.prepare);
    add('parse', parseMs);
    add('check', sample.prepare - parseMs);
    add('sandbox run (worker round trip, evaluation)', sample.execute - sample.toolBridge);
    add('tool bridge (host side of 5 calls)', sample.toolBridge);
    add('digest', digestMs);
    add('scan + decide', timings.scan ?? 0);
    add('persist (every save, lease, lookups)', sample.persist);
    const accounted = (timings.compose ?? 0) + (timings.model ?? 0) + (timings.prepare ?? 0) + (timings.execute ?? 0) + (timings.scan ?? 0) + sample.persist;
    add('other (events, hooks, gate, gaps)', sample.wallMs - accounted);
  }
}
const order = [
  'compose',
  'model (scripted, answers at once)',
  'extract (envelope)',
  'parse',
  'check',
  'sandbox run (worker round trip, evaluation)',
  'tool bridge (host side of 5 calls)',
  'digest',
  'scan + decide',
  'persist (every save, lease, lookups)',
  'other (events, hooks, gate, gaps)',
  'total',
];
const totalStats = stats(stage.total ?? []);
const sortedTotal = [...(stage.total ?? [])].sort((a, b) => a - b);
const p99 = sortedTotal[Math.min(sortedTotal.length - 1, Math.floor(0.99 * sortedTotal.length))] ?? Number.NaN;
const stageStats = order.map((name) => ({ stage: name, ...stats(stage[name] ?? []) }));
report({
  id: 'controller.turn-breakdown',
  title: 'Host side of one turn: 2 KB program, 5 tool calls, SQLite persistence, scripted model',
  peer: 'the turn total (each stage as a share of the median turn)',
  note:
    `Aim: ≤ 5 ms p50 and ≤ 20 ms p99 for the whole turn. Measured: p50 ${formatMs(totalStats.median)}, p99 ${formatMs(p99)} over ${sortedTotal.length} turns (${sessions} sessions of ${turnsPerSession} turns after a warm-up session). ` +
    'Stage medians do not add up to the median total (each is the median of its own samples). "digest" is inside the execute step; "parse" is timed on the same ACTIONS right after the turn and "check" is prepare minus that; "sandbox run" is the interpreter port\'s execute minus the host side of the tool calls.',
  columns: ['stage', 'median (p10 – p90)', 'share of median turn'],
  rows: stageStats.map((entry) => [entry.stage, formatStats(entry), entry.stage === 'total' ? '100%' : `${((entry.median / totalStats.median) * 100).toFixed(1)}%`]),
  data: [...stageStats, { stage: 'total p99', value: p99 }],
});

// --- 2. Growth. ---
async function medianTurn(reply: () => string, turns: number, sessionsCount = 1): Promise<Stats & { outputBytes: number }> {
  const times: number[] = [];
  let outputBytes = 0;
  for (let session = 0; session < sessionsCount; session += 1) {
    const sid = await loop.create({ agent, task: 'bench' });
    for (let turn = 0; turn < turns; turn += 1) {
      const sample = await step(sid, reply());
      // The first turn of a session composes without a previous OUTPUT.
      if (turn > 0 || turns === 1) times.push(sample.wallMs);
      outputBytes = Buffer.byteLength(sample.record.output);
    }
  }
  return { ...stats(times), outputBytes };
}

const growthTurns = sampleCount(25, 3);
const sizeRows: string[][] = [];
const sizeData: unknown[] = [];
let base: Stats | undefined;
for (const kilobytes of [0.5, 2, 8, 16, 32]) {
  const result = await medianTurn(() => replyEnvelope(turnProgram(kilobytes * 1024, 5, tag())), growthTurns);
  base ??= result;
  sizeRows.push([`${kilobytes} KB`, formatStats(result), formatRatio(result.median / base.median), formatMs(result.median / kilobytes)]);
  sizeData.push({ kilobytes, ...result, ratio: result.median / base.median });
}
report({
  id: 'controller.growth-program-size',
  title: 'Cost of a turn vs program size (5 tool calls, persistence included)',
  peer: 'the 0.5 KB turn in the same run',
  note: 'Programs above 8 KiB are parsed in the supervised parse worker (bounded), not in the host thread.',
  columns: ['ACTIONS size', 'turn, median (p10 – p90)', 'vs 0.5 KB', 'per KB'],
  rows: sizeRows,
  data: sizeData,
});

const outputRows: string[][] = [];
const outputData: unknown[] = [];
let outputBase: Stats | undefined;
for (const kibibytes of [1, 16, 64, 256, 500]) {
  const result = await medianTurn(() => replyEnvelope(outputProgram(kibibytes * 1024, tag())), growthTurns);
  outputBase ??= result;
  outputRows.push([`${kibibytes} KiB`, String(result.outputBytes), formatStats(result), formatRatio(result.median / outputBase.median)]);
  outputData.push({ kibibytes, ...result, ratio: result.median / outputBase.median });
}
report({
  id: 'controller.growth-output-size',
  title: 'Cost of a turn vs OUTPUT size (up to the 512 KiB cap)',
  peer: 'the 1 KiB turn in the same run',
  note: 'Each turn emits the OUTPUT and composes its envelope from the previous turn\'s OUTPUT of the same size (capped feedback), and saves both.',
  columns: ['OUTPUT', 'bytes', 'turn, median (p10 – p90)', 'vs 1 KiB'],
  rows: outputRows,
  data: outputData,
});

const lengthSessions = sampleCount(8, 1);
const lengthTurns = QUICK ? 5 : 50;
const byTurn: number[][] = Array.from({ length: lengthTurns }, () => []);
for (let session = 0; session < lengthSessions; session += 1) {
  const sid = await loop.create({ agent, task: 'bench' });
  for (let turn = 0; turn < lengthTurns; turn += 1) byTurn[turn]?.push((await step(sid, replyEnvelope(turnProgram(2048, 5, tag())))).wallMs);
}
const marks = QUICK ? [1, 2, 5] : [1, 2, 10, 25, 50];
const first = stats(byTurn[0] ?? []);
const lengthData = marks.map((turn) => ({ turn, ...stats(byTurn[turn - 1] ?? []) }));
report({
  id: 'controller.growth-session-length',
  title: 'Cost of a turn vs session length (2 KB program, 5 tool calls)',
  peer: 'turn 1 of the same sessions',
  note: `${lengthSessions} sessions of ${lengthTurns} turns; each cell is the median over the sessions of that turn. Turn 1 composes without previous OUTPUT.`,
  columns: ['turn', 'median (p10 – p90)', 'vs turn 1'],
  rows: lengthData.map((entry) => [String(entry.turn), formatStats(entry), formatRatio(entry.median / first.median)]),
  data: lengthData,
});

await loop.close();
await pool.close();
rmSync(directory, { recursive: true, force: true });

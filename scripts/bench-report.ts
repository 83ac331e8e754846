/**
 * Renders a `pnpm bench` run (bench/results.json) as BENCHMARKS.md: the
 * machine, a summary of the project's performance aims against what this run measured
 * (met or not, with the figure), the hand-written notes (bench/notes.md:
 * reasons, decisions), then every table with its floor or peer.
 */
import type { ReportTable } from './bench-harness.ts';
import type { HandoffReference } from './machine-handoff.ts';

/** One table as a bench reported it: the harness's `ReportTable`, plus when and under what load (see `report`). */
export interface RunTable extends ReportTable {
  quick: boolean;
  at: string;
  loadAverage: number[];
}

/** One bench file's process. */
export interface RunFile {
  file: string;
  ok: boolean;
  exitCode: number | null;
  error?: string;
  seconds: number;
  loadAverageBefore: number[];
  loadAverageAfter: number[];
  /** `scripts/machine-speed.ts` measured just before the file ran (absent in runs from before it existed). */
  speedReferenceBefore?: SpeedReference;
  tables: RunTable[];
}

/** The median time of the fixed workload of `scripts/machine-speed.ts`, in ms (lower is faster). */
export interface SpeedReference {
  medianMs: number;
  p10Ms: number;
  p90Ms: number;
}

/** A whole `pnpm bench` run. */
export interface BenchRun {
  startedAt: string;
  finishedAt?: string;
  quick: boolean;
  machine: { platform: string; arch: string; cpus: number; cpuModel: string; totalMemoryMiB: number; freeMemoryMiB: number };
  node: string;
  loadAverageAtStart: number[];
  loadAverageAtEnd?: number[];
  /** The machine's speed at the start (absent in runs from before it was measured). */
  speedReference?: SpeedReference;
  /** One thread waking another and being woken back, at the start and the end (absent in runs from before it was measured). */
  handoffReference?: HandoffReference;
  handoffReferenceAtEnd?: HandoffReference;
  /** Files re-run later with `--only` (their entries replaced the first run's). */
  partialReruns?: { at: string; files: string[] }[];
  files: RunFile[];
}

type Data = Record<string, unknown>;

function table(run: BenchRun, id: string): RunTable | undefined {
  for (const file of run.files) for (const entry of file.tables) if (entry.id === id) return entry;
  return undefined;
}

const num = (value: unknown): number => (typeof value === 'number' ? value : Number.NaN);
const median = (value: unknown): number => num((value as Data | undefined)?.median);
const ms = (value: number): string => (!Number.isFinite(value) ? '–' : value < 1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(value < 10 ? 2 : 0)} ms`);
const speed = (reference: SpeedReference): string => `${reference.medianMs.toFixed(1)} ms (${reference.p10Ms.toFixed(1)} – ${reference.p90Ms.toFixed(1)} ms)`;
const handoff = (reference: HandoffReference | undefined): string => (reference === undefined ? '–' : `${reference.medianUs.toFixed(0)} µs (${reference.p10Us.toFixed(0)} – ${reference.p90Us.toFixed(0)} µs)`);
const verdict = (measured: number, limit: number, lowerIsBetter = true): string =>
  !Number.isFinite(measured) ? 'not measured' : (lowerIsBetter ? measured <= limit : measured >= limit) ? '**met**' : '**not met**';

/** The project's performance aims, each beside this run's figure. */
function aims(run: BenchRun): string[][] {
  const rows: string[][] = [];
  const parse = table(run, 'interpreter.parse')?.data as Data[] | undefined;
  for (const kilobytes of [2, 8]) {
    const row = parse?.find((entry) => entry.kilobytes === kilobytes);
    const ratio = num(row?.ratio);
    rows.push([`parse + check, ${kilobytes} KB, vs acorn`, '≤ 4×', row === undefined ? '–' : `${ratio.toFixed(1)}× (${ms(median(row.parseAndCheck))} vs ${ms(median(row.acorn))})`, verdict(ratio, 4)]);
  }
  const sandbox = table(run, 'interpreter.sandbox')?.data as Data[] | undefined;
  const idle = sandbox?.find((entry) => entry.case === '20-line program, no tool calls' && entry.mode === 'warm idle worker');
  rows.push(['sandbox run vs createContext + eval floor (20 lines, warm idle worker)', '≤ 1.5×', idle === undefined ? '–' : `${num(idle.ratio).toFixed(2)}×`, verdict(num(idle?.ratio), 1.5)]);
  const fib = (table(run, 'interpreter.eval')?.data as Data[] | undefined)?.find((entry) => entry.workload === 'fib(25)');
  rows.push(['fib(25) vs V8', '≤ 2×', fib === undefined ? '–' : `${num(fib.ratioV8).toFixed(1)}×`, verdict(num(fib?.ratioV8), 2)]);
  const turn = table(run, 'controller.turn-breakdown')?.data as Data[] | undefined;
  const total = turn?.find((entry) => entry.stage === 'total');
  const p99 = num(turn?.find((entry) => entry.stage === 'total p99')?.value);
  rows.push(['host side of one turn, p50', '≤ 5 ms', ms(median(total)), verdict(median(total), 5)]);
  rows.push(['host side of one turn, p99', '≤ 20 ms', ms(p99), verdict(p99, 20)]);
  const throughput = table(run, 'controller.concurrency-throughput')?.data as Data[] | undefined;
  // The median of the repeated throughput runs (older results without one: the best row).
  const summary = throughput?.find((entry) => entry.summary === 'median');
  const perSecond = summary !== undefined ? num(summary.turnsPerSecond) : throughput === undefined ? Number.NaN : Math.max(...throughput.map((entry) => num(entry.turnsPerSecond)));
  const range = summary === undefined ? '' : ` (median of ${String(summary.runs)} runs, ${num(summary.minTurnsPerSecond).toFixed(0)} – ${num(summary.maxTurnsPerSecond).toFixed(0)})`;
  // CPU per turn of each process (median over the runs), when the run measured it: the figure machine speed moves least.
  const cpu = summary?.cpuMsPerTurn as { host?: unknown; workers?: unknown; server?: unknown } | undefined;
  const cpuText = cpu === undefined ? '' : `; CPU per turn: host ${ms(num(cpu.host))}, sandbox workers ${ms(num(cpu.workers))}, model server ${ms(num(cpu.server))}`;
  // The floor (a host doing only what no host can skip), run right after each repeated run, when the run measured it.
  const floorHostText = !Number.isFinite(num(summary?.floorTurnsPerSecond)) ? '' : `; the floor host in the same runs: ${num(summary.floorTurnsPerSecond).toFixed(0)} (${num(summary.minFloorTurnsPerSecond).toFixed(0)} – ${num(summary.maxFloorTurnsPerSecond).toFixed(0)}), host ÷ floor ${num(summary.vsFloor).toFixed(2)}×`;
  rows.push(['turns/s on 2 cores (200 ms model, loopback HTTP)', '≥ 500', Number.isFinite(perSecond) ? `${perSecond.toFixed(0)}${range}${cpuText}${floorHostText}` : '–', verdict(perSecond, 500, false)]);
  // The median of the fresh-process runs (older results: the 10,000-session row of the throughput table).
  const memoryRuns = table(run, 'controller.concurrency-memory')?.data as Data[] | undefined;
  const tenThousand = memoryRuns?.find((entry) => entry.sessions === 10_000 && entry.summary === 'median') ?? throughput?.find((entry) => entry.sessions === 10_000);
  // Judged on the strict reading of "2 GB" (2 × 10⁹ bytes, 1,907 MiB); the binary reading is shown beside it.
  const rssBytes = num(tenThousand?.peakRssBytes);
  const rssText = `${(rssBytes / 1048576).toFixed(0)} MiB = ${(rssBytes / 1e9).toFixed(2)} GB (${(rssBytes / 2 ** 30).toFixed(2)} GiB)`;
  rows.push(['10,000 concurrent sessions, peak RSS (host + sandbox workers)', '< 2 GB (2 × 10⁹ bytes)', Number.isFinite(rssBytes) ? rssText : 'not run', verdict(rssBytes, 2e9)]);
  const latency = (table(run, 'controller.concurrency-latency')?.data as Data[] | undefined)?.find((entry) => entry.sessions === 100);
  const added = median(latency?.addedMs);
  const floor = median(latency?.floorMs);
  const floorText = Number.isFinite(floor) ? ` (floor: bare HTTP to the same server, 100 at once, ${ms(floor)})` : '';
  rows.push(['added latency per turn at 100 sessions, p50', '≤ 10 ms', `${ms(added)}${floorText}`, verdict(added, 10)]);
  if (tenThousand !== undefined) rows.push(['no session starves: first / last of 10,000 to finish', 'reported', `${ms(num(tenThousand.firstFinishedMs))} / ${ms(num(tenThousand.lastFinishedMs))}`, '']);
  const sizes = table(run, 'controller.growth-program-size')?.data as Data[] | undefined;
  const at = (list: Data[] | undefined, key: string, value: number) => list?.find((entry) => entry[key] === value);
  const perKb = (entry: Data | undefined) => median(entry) / num(entry?.kilobytes);
  const sizeRatio = perKb(at(sizes, 'kilobytes', 32)) / perKb(at(sizes, 'kilobytes', 2));
  if (Number.isFinite(sizeRatio)) rows.push(['linear in program size: cost per KB at 32 KB vs at 2 KB', '≈ 1×', `${sizeRatio.toFixed(2)}×`, verdict(sizeRatio, 1.5)]);
  const outputs = table(run, 'controller.growth-output-size')?.data as Data[] | undefined;
  const base = median(at(outputs, 'kibibytes', 1));
  const marginal = (kibibytes: number) => (median(at(outputs, 'kibibytes', kibibytes)) - base) / (kibibytes - 1);
  const outputRatio = marginal(500) / marginal(64);
  if (Number.isFinite(outputRatio)) rows.push(['linear in OUTPUT size: added cost per KiB at 500 KiB vs at 64 KiB', '≈ 1×', `${outputRatio.toFixed(2)}× (${(marginal(500) * 1000).toFixed(0)} µs/KiB)`, verdict(outputRatio, 1.5)]);
  const length = table(run, 'controller.growth-session-length')?.data as Data[] | undefined;
  const lastTurn = length?.at(-1);
  const turnTwo = length?.find((entry) => entry.turn === 2);
  if (lastTurn !== undefined && turnTwo !== undefined) {
    const ratio = median(lastTurn) / median(turnTwo);
    rows.push([`flat in history: turn ${String(lastTurn.turn)} vs turn 2`, '≈ 1×', `${ratio.toFixed(2)}×`, verdict(ratio, 1.25)]);
  }
  return rows;
}

const markdownTable = (columns: string[], rows: string[][]): string =>
  [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

/** BENCHMARKS.md for `run`, with `notes` (Markdown) after the summary. */
export function renderBenchmarks(run: BenchRun, notes: string): string {
  const lines: string[] = [
    '# Benchmarks',
    '',
    'Generated by `pnpm bench` (scripts/bench-all.ts) from `bench/results.json`; do not edit by hand — the',
    'reasoning lives in `bench/notes.md` and is copied in below. Every figure is a median with its p10–p90',
    'spread over repeated samples, and every comparison is a ratio against a floor or peer measured in the',
    'same process run. `pnpm bench --quick` runs the same files with a few samples (a smoke test; it writes',
    'to `bench/quick/`, never here). No benchmark runs in the test suite and none asserts a timing.',
    '',
    run.quick ? '**This is a quick run: its figures are not for reporting.**\n' : '',
    '## Machine',
    '',
    markdownTable(
      ['', ''],
      [
        ['run', `${run.startedAt} → ${run.finishedAt ?? '?'}`],
        ['machine', `${run.machine.platform}, ${run.machine.arch}, ${run.machine.cpus} × ${run.machine.cpuModel}, ${run.machine.totalMemoryMiB} MiB`],
        ['Node', run.node],
        ['load average (1, 5, 15 min) at start / end', `${run.loadAverageAtStart.join(' ')} / ${(run.loadAverageAtEnd ?? []).join(' ')}`],
        ...(run.speedReference === undefined ? [] : [['speed reference at start (`scripts/machine-speed.ts`: a fixed JavaScript workload; lower is faster)', speed(run.speedReference)]]),
        ...(run.handoffReference === undefined
          ? []
          : [['thread hand-off at start / end (`scripts/machine-handoff.ts`: one round trip between two threads through `Atomics.wait`/`notify`; lower is faster)', `${handoff(run.handoffReference)} / ${handoff(run.handoffReferenceAtEnd)}`]]),
        ...(run.partialReruns ?? []).map((rerun) => ['re-run later', `${rerun.at}: ${rerun.files.join(', ')} (load average per file below)`]),
      ],
    ),
    '',
    "## The project's performance aims, against this run",
    '',
    markdownTable(['aim', 'target', 'measured', ''], aims(run)),
    '',
    notes.trim(),
    '',
    '## Every table',
    '',
  ];
  for (const file of run.files) {
    const speedBefore = file.speedReferenceBefore === undefined ? '' : `; speed reference before ${speed(file.speedReferenceBefore)}`;
    lines.push(`### \`${file.file}\``, '', `${file.ok ? 'ran' : `**failed** (exit ${String(file.exitCode)}${file.error === undefined ? '' : `, ${file.error}`})`} in ${file.seconds} s; load average before ${file.loadAverageBefore.join(' ')}, after ${file.loadAverageAfter.join(' ')}${speedBefore}.`, '');
    for (const entry of file.tables) {
      lines.push(`#### ${entry.title}`, '');
      if (entry.peer !== undefined) lines.push(`Floor / peer: ${entry.peer}. Load average when reported: ${entry.loadAverage.join(' ')}.`, '');
      lines.push(markdownTable(entry.columns, entry.rows), '');
      if (entry.note !== undefined) lines.push(entry.note, '');
    }
  }
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/**
 * A tiny benchmark harness shared by the packages' `pnpm bench` scripts:
 * runs each task many times after a warm-up, and reports the median and the
 * p10–p90 spread, and every task's median as a ratio of the baseline's,
 * measured in the same run. `report` prints a table and hands it, as JSON,
 * to `scripts/bench-all.ts` (root `pnpm bench`), which writes
 * `bench/results.json` and `BENCHMARKS.md`.
 */
import { appendFileSync } from 'node:fs';
import { freemem, loadavg } from 'node:os';

/** One measured task. */
export interface BenchTask {
  name: string;
  run: () => unknown;
}

/** Timing summary of one task, in milliseconds. */
export interface BenchResult {
  name: string;
  samples: number;
  medianMs: number;
  p10Ms: number;
  p90Ms: number;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

/** Times `task`: `warmup` unmeasured runs, then runs until `minSamples` and `minTimeMs` are both reached. */
export async function measure(task: BenchTask, options: { warmup?: number; minSamples?: number; minTimeMs?: number } = {}): Promise<BenchResult> {
  const { warmup = QUICK ? 1 : 20, minSamples = QUICK ? 3 : 50, minTimeMs = QUICK ? 0 : 500 } = options;
  for (let index = 0; index < warmup; index += 1) await task.run();
  const times: number[] = [];
  const started = performance.now();
  while (times.length < minSamples || performance.now() - started < minTimeMs) {
    const before = performance.now();
    await task.run();
    times.push(performance.now() - before);
    if (times.length >= 100_000) break;
  }
  times.sort((a, b) => a - b);
  return { name: task.name, samples: times.length, medianMs: percentile(times, 0.5), p10Ms: percentile(times, 0.1), p90Ms: percentile(times, 0.9) };
}

/** `results` as a report table, each median beside its ratio to `baseline`'s. */
export function suiteTable(title: string, results: BenchResult[], baseline: BenchResult, id = `suite.${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`): ReportTable {
  return {
    id,
    title,
    peer: baseline.name,
    columns: ['task', 'median', 'p10 – p90', 'vs baseline', 'samples'],
    rows: results.map((result) => [result.name, formatMs(result.medianMs), `${formatMs(result.p10Ms)} – ${formatMs(result.p90Ms)}`, formatRatio(result.medianMs / baseline.medianMs), String(result.samples)]),
    data: results.map((result) => ({ ...result, ratio: result.medianMs / baseline.medianMs })),
  };
}

/** Measures a baseline and tasks in one run and prints the table. */
export async function runSuite(title: string, baseline: BenchTask, tasks: BenchTask[], id?: string): Promise<BenchResult[]> {
  const baselineResult = await measure(baseline);
  const results = [baselineResult];
  for (const task of tasks) results.push(await measure(task));
  report(suiteTable(title, results, baselineResult, id));
  return results;
}

/** Percentile summary of a list of samples (any unit). */
export interface Stats {
  median: number;
  p10: number;
  p90: number;
  samples: number;
}

/** Median and p10–p90 of `values` (not modified). */
export function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return { median: Number.NaN, p10: Number.NaN, p90: Number.NaN, samples: 0 };
  return { median: percentile(sorted, 0.5), p10: percentile(sorted, 0.1), p90: percentile(sorted, 0.9), samples: sorted.length };
}

/**
 * Whether this is a CI-sized smoke run (`pnpm bench --quick`, or
 * `ASKLOOP_BENCH_QUICK=1`): every bench still runs every case end to end, with
 * few samples, so breakage shows; its figures are not for reporting.
 */
export const QUICK = process.env.ASKLOOP_BENCH_QUICK === '1' || process.argv.includes('--quick');

/** `full` samples in a reporting run, `quick` in a smoke run. */
export function sampleCount(full: number, quick: number): number {
  return QUICK ? quick : full;
}

/** One table of results: printed as Markdown, and collected as JSON by `scripts/bench-all.ts`. */
export interface ReportTable {
  /** Stable id, `<package>.<bench>[.<table>]`. */
  id: string;
  title: string;
  /** What the ratios are against (the floor or peer measured in the same run). */
  peer?: string;
  /** How to read the table; what it does not show. */
  note?: string;
  columns: string[];
  /** Formatted cells, one array per row, as `columns`. */
  rows: string[][];
  /** The raw figures behind the rows (ms unless a key says otherwise), for machines. */
  data: unknown[];
}

/** Milliseconds, formatted for a table. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  // The unit follows the size, so a negative difference reads like a positive one.
  const size = Math.abs(ms);
  return size < 1 ? `${(ms * 1000).toFixed(1)} µs` : size < 100 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(0)} ms`;
}

/** `median (p10–p90)` in milliseconds. */
export function formatStats(value: Stats): string {
  return `${formatMs(value.median)} (${formatMs(value.p10)} – ${formatMs(value.p90)})`;
}

/** A ratio of medians, `2.34×`. */
export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '–';
}

/** The load average and memory of the machine right now, recorded beside figures. */
export function machineState(): { loadAverage: number[]; freeMemoryMiB: number } {
  return { loadAverage: loadavg().map((load) => Math.round(load * 100) / 100), freeMemoryMiB: Math.round(freemem() / 1048576) };
}

/**
 * Prints `table` as Markdown and, when `ASKLOOP_BENCH_OUT` names a file (set
 * by `scripts/bench-all.ts`), appends it there as one JSON line with the load
 * average at the time.
 */
export function report(table: ReportTable): void {
  const lines = [`### ${table.title}`, ''];
  if (table.peer !== undefined) lines.push(`Peer / floor: ${table.peer}.`, '');
  lines.push(`| ${table.columns.join(' | ')} |`, `|${table.columns.map(() => '---').join('|')}|`);
  for (const row of table.rows) lines.push(`| ${row.join(' | ')} |`);
  if (table.note !== undefined) lines.push('', table.note);
  console.log(`\n${lines.join('\n')}\n`);
  const out = process.env.ASKLOOP_BENCH_OUT;
  if (out !== undefined && out !== '') appendFileSync(out, `${JSON.stringify({ ...table, quick: QUICK, at: new Date().toISOString(), ...machineState() })}\n`);
}

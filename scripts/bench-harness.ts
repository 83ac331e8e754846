/**
 * A tiny benchmark harness shared by the packages' `pnpm bench` scripts:
 * runs each task many times after a warm-up, and reports the median and the
 * p10–p90 spread, and every task's median as a ratio of the baseline's,
 * measured in the same run.
 */

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
  const { warmup = 20, minSamples = 50, minTimeMs = 500 } = options;
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

/** Formats results as a Markdown table with each median's ratio to the baseline's. */
export function formatTable(results: BenchResult[], baseline: BenchResult): string {
  const format = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
  const rows = results.map(
    (result) =>
      `| ${result.name} | ${format(result.medianMs)} | ${format(result.p10Ms)} – ${format(result.p90Ms)} | ${(result.medianMs / baseline.medianMs).toFixed(2)}× | ${result.samples} |`,
  );
  return ['| task | median | p10 – p90 | vs baseline | samples |', '| --- | ---: | ---: | ---: | ---: |', ...rows].join('\n');
}

/** Measures a baseline and tasks in one run and prints the table. */
export async function runSuite(title: string, baseline: BenchTask, tasks: BenchTask[]): Promise<BenchResult[]> {
  const baselineResult = await measure(baseline);
  const results = [baselineResult];
  for (const task of tasks) results.push(await measure(task));
  console.log(`\n### ${title}\n\nNode ${process.version}, ${process.arch}; baseline: ${baseline.name}\n\n${formatTable(results, baselineResult)}\n`);
  return results;
}

/**
 * Start-up of the BUILT `askloop` (`pnpm build` first): `--help` and
 * `envelope parse` on a small file, each a fresh process, against a bare
 * `node -e 0` measured in the same run. Prints medians, p10–p90 and the ratio
 * to the baseline (scripts/bench-harness.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUICK, report, sampleCount, suiteTable, type BenchResult, type BenchTask } from '../../../scripts/bench-harness.ts';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(CLI)) {
  console.error(`no ${CLI}: run 'pnpm build' at the repository root first${QUICK ? ' (quick run: skipped)' : ''}`);
  // A quick (smoke) run does not build; a reporting run (root `pnpm bench`) builds first.
  process.exit(QUICK ? 0 : 1);
}

const ENVELOPE = '<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{"subject":"s","fields":{}}\n<<<NSENV:V4:ACTIONS>>>\ncommand\n  emit "hi"\nendcommand\n<<<NSENV:V4:END>>>\n';
const file = join(await mkdtemp(join(tmpdir(), 'askloop-bench-')), 'envelope.txt');
await writeFile(file, ENVELOPE);

/** One task: a fresh Node process that must exit 0. */
function processTask(name: string, args: string[]): BenchTask {
  return {
    name,
    run: () => {
      const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${result.stderr}`);
    },
  };
}

const tasks = [
  processTask('node -e 0', ['-e', '0']),
  processTask('askloop --help', [CLI, '--help']),
  processTask('askloop envelope parse FILE', [CLI, 'envelope', 'parse', file]),
];

// Interleaved rounds (baseline, then each task, again and again) rather than
// one task after the other: on a shared machine the load drifts over a run,
// and interleaving makes every task see the same drift, so the ratio holds.
const WARMUP_ROUNDS = sampleCount(5, 1);
const ROUNDS = sampleCount(60, 3);
const times: number[][] = tasks.map(() => []);
for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round += 1) {
  for (const [index, task] of tasks.entries()) {
    const before = performance.now();
    task.run();
    if (round >= WARMUP_ROUNDS) times[index]!.push(performance.now() - before);
  }
}
const percentile = (sorted: number[], fraction: number): number => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
const results: BenchResult[] = tasks.map((task, index) => {
  const sorted = [...times[index]!].sort((a, b) => a - b);
  return { name: task.name, samples: sorted.length, medianMs: percentile(sorted, 0.5), p10Ms: percentile(sorted, 0.1), p90Ms: percentile(sorted, 0.9) };
});
report(suiteTable('askloop start-up (built CLI, one process per sample, interleaved rounds)', results, results[0]!, 'demo.startup'));

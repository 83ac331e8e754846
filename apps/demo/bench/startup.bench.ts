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
import { formatTable, measure, type BenchTask } from '../../../scripts/bench-harness.ts';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(CLI)) {
  console.error(`no ${CLI}: run 'pnpm build' at the repository root first`);
  process.exit(1);
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

const baseline = processTask('node -e 0', ['-e', '0']);
const tasks = [processTask('askloop --help', [CLI, '--help']), processTask('askloop envelope parse FILE', [CLI, 'envelope', 'parse', file])];
// Processes take tens of milliseconds: fewer, interleaved-free samples keep the run under a minute.
const options = { warmup: 5, minSamples: 40, minTimeMs: 0 };
const baselineResult = await measure(baseline, options);
const results = [baselineResult];
for (const task of tasks) results.push(await measure(task, options));
console.log(`\n### askloop start-up (built CLI, one process per sample)\n\nNode ${process.version}, ${process.arch}; baseline: node -e 0\n\n${formatTable(results, baselineResult)}\n`);

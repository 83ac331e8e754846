/**
 * Root `pnpm bench`: runs every package's benchmarks (`packages/*\/bench/*.bench.ts`,
 * `apps/*\/bench/*.bench.ts`), each file in its own Node process, one after
 * another, collects the tables they report (scripts/bench-harness.ts
 * `report`, as JSON lines) and writes `bench/results.json` and
 * `BENCHMARKS.md` (machine, Node version, load average before and after
 * each file, every table with its floor or peer).
 *
 * `pnpm bench --quick`: the same files with a handful of samples each, to
 * catch breakage (CI-sized, well under a minute on an idle machine); it
 * never asserts a timing and writes to `bench/quick/` so the reported
 * figures stay as measured. `--only <text>` runs the files whose path
 * contains the text (merged into an existing results.json); `--render` only rewrites BENCHMARKS.md from the
 * existing bench/results.json (after editing bench/notes.md). A file that
 * fails is recorded as failed and the run exits 1 after the others.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderBenchmarks, type BenchRun } from './bench-report.ts';
import { measureHandoff } from './machine-handoff.ts';
import { measureMachineSpeed } from './machine-speed.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyAt = args.indexOf('--only');
const only = onlyAt === -1 ? undefined : args[onlyAt + 1];
const outDirectory = quick ? join(root, 'bench', 'quick') : join(root, 'bench');
const markdownPath = quick ? join(outDirectory, 'BENCHMARKS.md') : join(root, 'BENCHMARKS.md');

const notesPath = join(root, 'bench', 'notes.md');
const notes = (): string => (existsSync(notesPath) ? readFileSync(notesPath, 'utf8') : '');
if (args.includes('--render')) {
  const saved = JSON.parse(readFileSync(join(outDirectory, 'results.json'), 'utf8')) as BenchRun;
  writeFileSync(markdownPath, renderBenchmarks(saved, notes()));
  console.log(`bench: rendered ${relative(root, markdownPath)} from ${relative(root, join(outDirectory, 'results.json'))}`);
  process.exit(0);
}

function benchFiles(): string[] {
  const files: string[] = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const directory = join(root, group, name, 'bench');
      if (!existsSync(directory)) continue;
      for (const file of readdirSync(directory).sort()) if (file.endsWith('.bench.ts')) files.push(join(directory, file));
    }
  }
  return files.filter((file) => only === undefined || relative(root, file).includes(only));
}

const load = (): number[] => loadavg().map((value) => Math.round(value * 100) / 100);

// The CLI start-up bench times the built CLI: build it first (a quick run uses what is built, or reports the file as skipped).
if (!quick && (only === undefined || 'apps/demo'.includes(only) || only.includes('startup'))) {
  const built = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=askloop...', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) console.error('bench: the build failed; the start-up bench will report it');
}

const run: BenchRun = {
  startedAt: new Date().toISOString(),
  quick,
  machine: { platform: `${platform()} ${release()}`, arch: process.arch, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', totalMemoryMiB: Math.round(totalmem() / 1048576), freeMemoryMiB: Math.round(freemem() / 1048576) },
  node: process.version,
  loadAverageAtStart: load(),
  speedReference: measureMachineSpeed(),
  handoffReference: await measureHandoff(),
  files: [],
};

let failed = 0;
const scratch = join(tmpdir(), `askloop-bench-${process.pid}`);
mkdirSync(scratch, { recursive: true });
for (const [index, file] of benchFiles().entries()) {
  const name = relative(root, file);
  const out = join(scratch, `${index}.jsonl`);
  const before = load();
  const speedBefore = measureMachineSpeed();
  const started = performance.now();
  console.log(`\n## ${name}${quick ? ' (quick)' : ''} — load average ${before.join(' ')}, speed reference ${speedBefore.medianMs} ms`);
  const result = spawnSync(process.execPath, ['--conditions=@askloop/source', '--no-node-snapshot', '--expose-gc', file, ...(quick ? ['--quick'] : [])], {
    cwd: join(file, '..', '..'),
    env: { ...process.env, ASKLOOP_BENCH_OUT: out, ASKLOOP_BENCH_QUICK: quick ? '1' : '0' },
    stdio: 'inherit',
    timeout: quick ? 120_000 : 1_800_000,
  });
  const seconds = (performance.now() - started) / 1000;
  const tables = existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as BenchRun['files'][number]['tables'][number]) : [];
  const ok = result.status === 0;
  if (!ok) failed += 1;
  run.files.push({ file: name, ok, exitCode: result.status, ...(result.error === undefined ? {} : { error: result.error.message }), seconds: Math.round(seconds * 10) / 10, loadAverageBefore: before, loadAverageAfter: load(), speedReferenceBefore: speedBefore, tables });
}
rmSync(scratch, { recursive: true, force: true });
run.finishedAt = new Date().toISOString();
run.loadAverageAtEnd = load();
run.handoffReferenceAtEnd = await measureHandoff();

mkdirSync(outDirectory, { recursive: true });
const resultsPath = join(outDirectory, 'results.json');
// `--only` re-runs some files: their entries replace the earlier ones, the rest of the last run is kept (each file keeps its own load average).
if (only !== undefined && existsSync(resultsPath)) {
  const earlier = JSON.parse(readFileSync(resultsPath, 'utf8')) as BenchRun;
  const rerun = new Set(run.files.map((file) => file.file));
  run.files = [...earlier.files.map((file) => run.files.find((fresh) => fresh.file === file.file) ?? file), ...run.files.filter((file) => !earlier.files.some((old) => old.file === file.file))];
  run.startedAt = earlier.startedAt;
  run.loadAverageAtStart = earlier.loadAverageAtStart;
  if (earlier.speedReference === undefined) delete run.speedReference;
  else run.speedReference = earlier.speedReference;
  if (earlier.handoffReference === undefined) delete run.handoffReference;
  else run.handoffReference = earlier.handoffReference;
  run.partialReruns = [...(earlier.partialReruns ?? []), { at: new Date().toISOString(), files: [...rerun] }];
}
writeFileSync(resultsPath, `${JSON.stringify(run, null, 2)}\n`);
writeFileSync(markdownPath, renderBenchmarks(run, notes()));
console.log(`\nbench: ${run.files.length - failed} of ${run.files.length} files ran; wrote ${relative(root, join(outDirectory, 'results.json'))} and ${relative(root, markdownPath)}`);
process.exitCode = failed === 0 ? 0 : 1;

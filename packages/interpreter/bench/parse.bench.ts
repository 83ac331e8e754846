/**
 * Front-end benchmark: parse, and parse+check, of 0.5, 2 and 8 KB
 * NeuroScript programs beside acorn parsing JavaScript of the same size (the
 * floor a hand-written parser reaches). Reports median and p10–p90 in
 * milliseconds and the ratio of medians.
 *
 * Run: `pnpm bench`, or `node --conditions=@askloop/source bench/parse.bench.ts`.
 */
import { parse as parseJs } from 'acorn';
import { check, parse, type ToolCatalog } from '../src/index.ts';
import { javaScriptProgram, neuroScriptProgram } from './programs.ts';

const catalog: ToolCatalog = {
  get: (name) => (name.toLowerCase().endsWith('str.toupper') ? { name: 'tool.str.toupper', arguments: [{ name: 'input_string', type: 'string', required: true }] } : undefined),
  names: () => ['tool.str.toupper'],
  // Stands in for the host's policy decision (the tools package answers it in the real host).
  check: (name) => (name.startsWith('tool.str.') ? undefined : { code: 'POLICY_NOT_ALLOWED', message: `${name} is not allowed` }),
};

interface Stats {
  median: number;
  p10: number;
  p90: number;
}

/**
 * Runs the contenders round-robin, one call each per round, so a busy machine
 * slows them alike and the ratio stays meaningful.
 */
function measure(runs: readonly (() => void)[], samples: number): Stats[] {
  const warmup = Math.max(20, samples / 5);
  for (let index = 0; index < warmup; index += 1) for (const run of runs) run();
  const times = runs.map((): number[] => []);
  for (let index = 0; index < samples; index += 1) {
    runs.forEach((run, which) => {
      const start = performance.now();
      run();
      times[which]?.push(performance.now() - start);
    });
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    const at = (fraction: number): number => list[Math.min(list.length - 1, Math.floor(fraction * list.length))] as number;
    return { median: at(0.5), p10: at(0.1), p90: at(0.9) };
  });
}

const format = (stats: Stats): string => `${stats.median.toFixed(3)} (${stats.p10.toFixed(3)}–${stats.p90.toFixed(3)})`;

const rows: string[] = [
  '| size | bytes NS / JS | parse ms, median (p10–p90) | parse+check ms | acorn ms | parse+check ÷ acorn |',
  '|---|---|---|---|---|---|',
];
for (const kilobytes of [0.5, 2, 8]) {
  const bytes = kilobytes * 1024;
  const ns = neuroScriptProgram(bytes);
  const js = javaScriptProgram(bytes);
  const parsed = parse(ns);
  if (!parsed.ok) throw new Error(`benchmark program does not parse: ${JSON.stringify(parsed.diagnostics)}`);
  const samples = kilobytes >= 8 ? 200 : 500;
  const [parseStats, checkStats, acornStats] = measure(
    [
      () => void parse(ns),
      () => {
        const result = parse(ns);
        if (result.ok) check(result.program, { mode: 'agent', tools: catalog });
      },
      () => void parseJs(js, { ecmaVersion: 'latest', locations: true }),
    ],
    samples,
  ) as [Stats, Stats, Stats];
  rows.push(
    `| ${kilobytes} KB | ${Buffer.byteLength(ns)} / ${Buffer.byteLength(js)} | ${format(parseStats)} | ${format(checkStats)} | ${format(acornStats)} | ${(checkStats.median / acornStats.median).toFixed(1)}× |`,
  );
}
console.log(`Node ${process.version}, ${new Date().toISOString()}, load average ${(await import('node:os')).loadavg().map((load) => load.toFixed(1)).join(' ')}\n`);
console.log(rows.join('\n'));

/**
 * A speed reference for the machine a benchmark ran on: the median time of a
 * fixed, deterministic piece of plain JavaScript (building, serialising,
 * parsing and sorting objects and strings, the kind of work a turn does on
 * the host). The shared 2-core build machines run the same code up to twice
 * as fast on one day as on another; recorded beside each file's load average,
 * it tells whether two runs' absolute figures can be compared at all (ratios
 * to a peer measured in the same run do not need it).
 */
import { stats } from './bench-harness.ts';
import type { SpeedReference } from './bench-report.ts';

/** One pass of the workload; returns a checksum so the work cannot be optimised away. */
function workload(): number {
  const records = [];
  for (let index = 0; index < 4000; index += 1) {
    records.push({ sid: `session-${index}`, turn: index % 7, text: `emit "turn ${index}" + tool.str.ToUpper(userdata["subject"])`, tags: [index, index * 2, `t${index % 13}`] });
  }
  const json = JSON.stringify(records);
  const parsed = JSON.parse(json) as typeof records;
  const words = parsed.flatMap((record) => record.text.split(/[\s"+.()[\]]+/)).sort();
  let checksum = json.length + words.length;
  for (const word of words) checksum = (checksum * 31 + word.length) % 1_000_003;
  return checksum;
}

/**
 * Unmeasured passes before the first measurement of a process: the workload reaches its steady speed only after
 * 30–70 passes (optimising compiler, heap growth; measured), so a short warm-up made the first figure of a run
 * nearly twice the later ones.
 */
const FIRST_WARM_UP = 100;
let warmedUp = false;

/** Median milliseconds of one pass over `samples` passes (after unmeasured ones), and the spread. */
export function measureMachineSpeed(samples = 15): SpeedReference {
  let sink = 0;
  for (let index = 0; index < (warmedUp ? 5 : FIRST_WARM_UP); index += 1) sink += workload();
  warmedUp = true;
  const times: number[] = [];
  for (let index = 0; index < samples; index += 1) {
    const started = performance.now();
    sink += workload();
    times.push(performance.now() - started);
  }
  if (sink === -1) console.log(sink); // never true; keeps `sink` alive
  const { median, p10, p90 } = stats(times);
  const microseconds = (ms: number) => Math.round(ms * 1000) / 1000;
  return { medianMs: microseconds(median), p10Ms: microseconds(p10), p90Ms: microseconds(p90) };
}

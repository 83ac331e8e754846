/**
 * A second reference for the machine a benchmark ran on: how long one thread
 * takes to wake another and be woken by its answer (two threads taking turns
 * on a shared counter through `Atomics.wait` / `Atomics.notify`, one round
 * trip). `machine-speed.ts` measures plain computation; this measures what
 * every message of a turn pays on top — the host writing to a sandbox worker,
 * the worker's isolate thread calling out for a tool, the model server's
 * reply waking the host. A turn hands work across threads and processes some
 * ten times (more with each tool call), so on a machine where a wake-up is
 * slow (a virtual machine whose idle cores must be woken by the hypervisor)
 * the same code spends much longer per turn, and its figures in absolute time
 * cannot be compared with a faster machine's.
 */
import { Worker } from 'node:worker_threads';
import { stats } from './bench-harness.ts';

/** The median microseconds of one round trip between two threads, and the spread over the samples. */
export interface HandoffReference {
  medianUs: number;
  p10Us: number;
  p90Us: number;
}

/** The answering thread: waits for a request (slot 0 = 1), answers by counting slot 1 up, until slot 0 = 2. */
const ANSWERER = `
const { workerData } = require('node:worker_threads');
const cells = new Int32Array(workerData);
for (;;) {
  Atomics.wait(cells, 0, 0);
  if (Atomics.load(cells, 0) === 2) break;
  Atomics.store(cells, 0, 0);
  Atomics.add(cells, 1, 1);
  Atomics.notify(cells, 1);
}
`;

/** Measures `samples` blocks of `roundTrips` round trips after a warm-up block; resolves once the thread has ended. */
export async function measureHandoff(samples = 9, roundTrips = 2000): Promise<HandoffReference> {
  const cells = new Int32Array(new SharedArrayBuffer(8));
  const answerer = new Worker(ANSWERER, { eval: true, workerData: cells.buffer });
  await new Promise<void>((resolve, reject) => {
    answerer.once('online', () => resolve());
    answerer.once('error', reject);
  });
  const block = (): number => {
    const started = performance.now();
    for (let index = 0; index < roundTrips; index += 1) {
      const answered = Atomics.load(cells, 1);
      Atomics.store(cells, 0, 1);
      Atomics.notify(cells, 0);
      // Woken when the answer counts slot 1 up (at once if it already has).
      while (Atomics.load(cells, 1) === answered) Atomics.wait(cells, 1, answered, 1000);
    }
    return ((performance.now() - started) * 1000) / roundTrips;
  };
  try {
    block();
    const times = Array.from({ length: samples }, block);
    const { median, p10, p90 } = stats(times);
    const round = (us: number) => Math.round(us * 10) / 10;
    return { medianUs: round(median), p10Us: round(p10), p90Us: round(p90) };
  } finally {
    Atomics.store(cells, 0, 2);
    Atomics.notify(cells, 0);
    await answerer.terminate();
  }
}

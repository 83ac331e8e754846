/**
 * The process's memory after full collections, for the benchmarks' figures
 * per request in flight. Collections with pauses between them: V8 frees the
 * memory of dead ArrayBuffers (Buffers) on a background sweep, and
 * `external` read at once after `gc()` still counted most of them (1.6 KiB
 * a request where 8 KiB were held, in a run of 5,000 requests).
 */
export async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc (the package bench script does)');
  for (let round = 0; round < 3; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  gc();
  return process.memoryUsage();
}

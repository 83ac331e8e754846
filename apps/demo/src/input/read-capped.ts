/**
 * Reads a byte stream into memory, but never more than `maxBytes`: the read
 * stops (and the stream is abandoned) at the first chunk that crosses the
 * limit, so `/dev/zero` or a 200 MB pipe cost at most one chunk past it.
 */

/** The outcome of {@link readCapped}. */
export type CappedRead =
  | { ok: true; bytes: Uint8Array }
  /** `bytesRead` is how much was consumed before stopping: at most `maxBytes` plus one chunk. */
  | { ok: false; bytesRead: number };

/** Collects `source` while its total stays within `maxBytes`. */
export async function readCapped(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<CappedRead> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of source) {
    total += chunk.byteLength;
    // Returning from for-await calls the iterator's return(): a file stream closes, stdin is released.
    if (total > maxBytes) return { ok: false, bytesRead: total };
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

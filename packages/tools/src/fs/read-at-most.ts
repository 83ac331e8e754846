/**
 * Reads an open file, but never more than a limit. `FileHandle.readFile`
 * trusts the size `fstat` gave: a file whose size reads 0 — one the kernel
 * makes up as it is read (`/proc/self/pagemap`, whose "0 bytes" are hundreds of
 * GB), or an empty file another process writes to — is read until its end,
 * however far that is. `tool.fs.Read` checked that size against
 * `maxReadBytes` and then read 600 MB of such a file into memory before it
 * failed as "Invalid string length".
 */
import type { FileHandle } from 'node:fs/promises';

/** Bytes read per call when the size says little (at most this beyond what it said). */
const CHUNK_BYTES = 64 * 1024;

/**
 * The bytes of `handle` from its current position to its end, or undefined
 * as soon as there are more than `limit` (at most `limit` + 64 KiB are read).
 * `sizeHint` (the size `fstat` gave) sets the first read, so a file of that
 * size takes one read and one more that finds the end.
 */
export async function readAtMost(handle: FileHandle, limit: number, sizeHint: number, signal?: AbortSignal): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    signal?.throwIfAborted();
    // Never less than a chunk: some made-up files refuse small reads (pagemap reads whole 8-byte words), and more
    // than the limit only when a chunk is: the bytes held stay under limit + CHUNK_BYTES.
    const wanted = Math.max(CHUNK_BYTES, Math.min(sizeHint, limit) + 1 - total);
    const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(wanted), 0, wanted, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > limit) return undefined;
  }
}

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CommandIo } from './io.ts';

/** Reads FILE as bytes, or standard input when FILE is `-` or absent. */
export async function readInput(file: string | undefined, io: CommandIo): Promise<Uint8Array> {
  if (file === undefined || file === '-') return io.readStdin();
  return readFile(resolve(io.cwd, file));
}

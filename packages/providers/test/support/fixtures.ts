import { readFileSync } from 'node:fs';

/** Reads a recorded wire-format file from `test/__fixtures__/`. */
export function fixture(path: string): string {
  return readFileSync(new URL(`../__fixtures__/${path}`, import.meta.url), 'utf8');
}

/** Reads and parses a JSON fixture. */
export function jsonFixture(path: string): unknown {
  return JSON.parse(fixture(path));
}

/** Splits an SSE fixture into its events (each ending in a blank line), to send as chunks. */
export function sseChunks(path: string): string[] {
  return fixture(path).split(/(?<=\n\n)/).filter((chunk) => chunk.trim() !== '');
}

/** Splits an NDJSON fixture into lines, each keeping its newline. */
export function ndjsonChunks(path: string): string[] {
  return fixture(path).split(/(?<=\n)/).filter((line) => line.trim() !== '');
}

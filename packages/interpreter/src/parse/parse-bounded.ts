/**
 * `parseBounded(source)`: `parse` with bounded cost for the host, whatever
 * the size. Small sources (the usual ACTIONS block) are parsed in the calling
 * thread; sources above a size cap are refused without parsing
 * (`SCRIPT_PROGRAM_TOO_LARGE`). A larger source that matches the grammar
 * (a `{{…}}` hole the matcher gives up on counts as not matching) is parsed
 * in the calling thread too, by the generated matcher alone (linear
 * time, no memo tables: about 1 ms at 8 KB); only one that does not match —
 * where Ohm's matcher must say why, at a few microseconds and kilobytes per
 * character — is parsed in a supervised worker thread with a heap limit and a
 * deadline (`SCRIPT_PARSE_LIMIT` when either is hit). The figures behind the
 * defaults are in the package README ("Bounds").
 */
import { makeDiagnostic, parse, parseIfMatches, type ParseOptions, type ParseResult } from './parse.ts';
import { createParseSupervisor, type ParseSupervisor, type ParseSupervisorOptions } from './parse-supervisor.ts';

/** Options for `parseBounded`. */
export interface ParseBoundedOptions extends ParseOptions, ParseSupervisorOptions {
  /** Sources of at most this many characters are parsed in the calling thread, whatever their errors (default 1 KiB); longer ones only when they match. */
  readonly inHostMaxLength?: number;
  /** Sources longer than this are refused with `SCRIPT_PROGRAM_TOO_LARGE` without parsing (default 64 KiB). */
  readonly maxLength?: number;
  /** The supervised parser for larger sources (default: one shared worker with `timeoutMs`/`memoryMb` of the first call). */
  readonly supervisor?: ParseSupervisor;
}

/**
 * Default `inHostMaxLength`: 1 KiB. Ohm's error path costs a few µs a character on ordinary scripts, but some texts
 * cost far more: lines of unclosed `[[` (each may open a multi-line `[[…]]` string that Ohm scans to the end) took
 * 1.7 s of the host's thread at 8 KiB (about 200 µs a character, load 5 on 2 cores) and about 95 ms at 1 KiB, so a
 * failing script longer than this goes to the worker (README, "parseBounded").
 */
export const DEFAULT_IN_HOST_MAX_LENGTH = 1024;
/** Default `maxLength`: the largest source `parseBounded` parses at all. */
export const DEFAULT_BOUNDED_MAX_LENGTH = 64 * 1024;

let shared: ParseSupervisor | undefined;

/**
 * Parses like `parse`, with the host's cost bounded (see the module comment).
 * Never rejects on bad input; resolves to the same `ParseResult`.
 */
export async function parseBounded(source: string, options: ParseBoundedOptions = {}): Promise<ParseResult> {
  const { fileName } = options;
  const parseOptions = fileName === undefined ? {} : { fileName };
  if (typeof source !== 'string' || source.length <= (options.inHostMaxLength ?? DEFAULT_IN_HOST_MAX_LENGTH)) return parse(source, parseOptions);
  const maxLength = options.maxLength ?? DEFAULT_BOUNDED_MAX_LENGTH;
  if (source.length > maxLength) {
    const message = `The script is ${source.length} characters long; scripts above ${maxLength} characters are not parsed (limit maxLength = ${maxLength}). Write a shorter program, or split the work across turns.`;
    return { ok: false, diagnostics: [makeDiagnostic('SCRIPT_PROGRAM_TOO_LARGE', message, 1, 1, fileName)] };
  }
  const matched = parseIfMatches(source, parseOptions);
  if (matched !== undefined) return matched;
  const supervisor = options.supervisor ?? (shared ??= createParseSupervisor(options));
  return supervisor.parse(source, fileName);
}

/** Terminates the shared parse worker (when the host shuts down; a later large parse starts another). */
export async function closeParseWorker(): Promise<void> {
  const closing = shared;
  shared = undefined;
  await closing?.close();
}

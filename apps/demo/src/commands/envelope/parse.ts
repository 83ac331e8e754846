import { extractEnvelope, isEnvelopeError, parseEnvelope, type ParseResult } from '@askloop/envelope';
import { parseArgs } from 'node:util';
import { usageError } from '../../cli-error.ts';
import { decodeUtf8Input } from '../../decode-text.ts';
import type { Command } from '../../io.ts';
import { inputName, readInput } from '../../read-input.ts';
import { withCodecErrors } from './codec-error.ts';
import { JSON_ALREADY, JSON_ALREADY_USAGE } from './json-already.ts';

/**
 * The strict parse; when it refuses a reply that `--extract` would recover (a fence around the envelope, prose
 * before it, a missing END, a bare command block), its error says so, naming the repair.
 */
function parseStrictly(bytes: Uint8Array, text: string): ParseResult {
  try {
    return parseEnvelope(bytes);
  } catch (error) {
    const repair = isEnvelopeError(error) ? extractionRepair(text) : undefined;
    if (repair !== undefined) (error as Error).message += `; --extract recovers this reply (${repair})`;
    throw error;
  }
}

/** What `--extract` would do to `text` (its first lint, as "CODE: message"), or undefined when it cannot recover it. */
function extractionRepair(text: string): string | undefined {
  try {
    const [lint] = extractEnvelope(text).lints;
    return lint === undefined ? undefined : `${lint.code}: ${lint.message}`;
  } catch {
    return undefined;
  }
}

/** `askloop envelope parse [FILE|-] [--extract]`. */
export const parseCommand: Command = {
  usage: `Usage: askloop envelope parse [FILE|-] [--extract]

Reads an envelope from FILE (or standard input) and prints
  {"ok":true,"envelope":{"userdata":…,"scratchpad":…|null,"output":…|null,"actions":…},"lints":[{"code":…,"message":…}]}
and exits 0, or prints {"ok":false,"error":{"code":"ERR_…","message":…,"file":…,"line"?:N}}
and exits 1 (2 when the input cannot be read). Input must be UTF-8.

Options:
  --extract   recover the envelope from a model reply (markdown fence, prose
              before START, missing END, bare command block) and say how in lints
${JSON_ALREADY_USAGE}
`,
  jsonErrors: () => true,
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: { extract: { type: 'boolean' }, ...JSON_ALREADY }, allowPositionals: true, strict: true });
    if (positionals.length > 1) throw usageError('expected at most one FILE');
    const file = inputName(positionals[0]);
    const bytes = await readInput(positionals[0], io);
    const text = decodeUtf8Input(bytes, file);
    // Strict decoding first (same error in every command); the codec still gets the bytes for its byte limits.
    const result = withCodecErrors(file, () => (values.extract ? extractEnvelope(text) : parseStrictly(bytes, text)));
    io.stdout(`${JSON.stringify({ ok: true, envelope: result.envelope, lints: result.lints })}\n`);
    return 0;
  },
};

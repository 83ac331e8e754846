import { extractEnvelope, parseEnvelope } from '@askloop/envelope';
import { parseArgs } from 'node:util';
import type { Command } from '../../io.ts';
import { UsageError } from '../../io.ts';
import { decodeUtf8Input } from '../../decode-text.ts';
import { readInput } from '../../read-input.ts';
import { reportCodecError } from './error-json.ts';

/** `askloop envelope parse [FILE|-] [--extract]`. */
export const parseCommand: Command = {
  name: 'parse',
  summary: 'parse an AEIOU v4 envelope and print it as JSON',
  usage: `Usage: askloop envelope parse [FILE|-] [--extract]

Reads an envelope from FILE (or standard input) and prints
  {"ok":true,"envelope":{"userdata":…,"scratchpad":…|null,"output":…|null,"actions":…},"lints":[{"code":…,"message":…}]}
and exits 0, or prints {"ok":false,"error":{"code":"ERR_…","message":…}} and exits 1.

Options:
  --extract   recover the envelope from a model reply (markdown fence, prose
              before START, missing END, bare command block) and say how in lints
`,
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: { extract: { type: 'boolean' } }, allowPositionals: true, strict: true });
    if (positionals.length > 1) throw new UsageError('expected at most one FILE');
    const bytes = await readInput(positionals[0], io);
    try {
      const result = values.extract ? extractEnvelope(decodeUtf8Input(bytes, 'the reply')) : parseEnvelope(bytes);
      io.stdout(`${JSON.stringify({ ok: true, envelope: result.envelope, lints: result.lints })}\n`);
      return 0;
    } catch (error) {
      return reportCodecError(error, io);
    }
  },
};

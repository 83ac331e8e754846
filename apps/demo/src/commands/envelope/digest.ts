import { isEnvelopeError, progressDigest } from '@askloop/envelope';
import { parseArgs } from 'node:util';
import type { Command } from '../../io.ts';
import { UsageError } from '../../io.ts';
import { decodeUtf8Input } from '../../decode-text.ts';
import { readInput } from '../../read-input.ts';

/** `askloop envelope digest --output FILE --scratchpad FILE`. */
export const digestCommand: Command = {
  name: 'digest',
  summary: 'print the progress digest of a turn\'s OUTPUT and SCRATCHPAD',
  usage: `Usage: askloop envelope digest [--output FILE] [--scratchpad FILE]

Prints sha256("OUT|" + norm(output) + "\\nSCR|" + norm(scratchpad)) as 64 hex
digits — the no-progress guard's digest (seed 003 §9). A missing option counts
as empty text; '-' reads standard input. Input must be UTF-8
(exit 1 otherwise); a byte-order mark is part of the text.
`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { output: { type: 'string' }, scratchpad: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (values.output === '-' && values.scratchpad === '-') throw new UsageError('only one of --output and --scratchpad may read standard input');
    const read = async (file: string | undefined, what: string) => (file === undefined ? '' : decodeUtf8Input(await readInput(file, io), what));
    try {
      io.stdout(`${progressDigest(await read(values.output, 'the OUTPUT file'), await read(values.scratchpad, 'the SCRATCHPAD file'))}\n`);
      return 0;
    } catch (error) {
      if (!isEnvelopeError(error)) throw error;
      io.stderr(`askloop: ${error.code}: ${error.message}\n`);
      return 1;
    }
  },
};

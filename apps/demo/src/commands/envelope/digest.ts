import { progressDigest } from '@askloop/envelope';
import { parseArgs } from 'node:util';
import { usageError } from '../../cli-error.ts';
import { decodeUtf8Input } from '../../decode-text.ts';
import type { Command } from '../../io.ts';
import { inputName, readInput } from '../../read-input.ts';

/** `askloop envelope digest --output FILE --scratchpad FILE`. */
export const digestCommand: Command = {
  usage: `Usage: askloop envelope digest [--output FILE] [--scratchpad FILE]

Prints sha256("OUT|" + norm(output) + "\\nSCR|" + norm(scratchpad)) as 64 hex
digits — the digest the loop's no-progress guard compares between turns. A
missing option counts as empty text; '-' reads standard input. Input must be UTF-8
(exit 1 otherwise); a byte-order mark is part of the text.
`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { output: { type: 'string' }, scratchpad: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 0) throw usageError(`unexpected argument '${positionals[0]}'`);
    if (values.output === '-' && values.scratchpad === '-') throw usageError('only one of --output and --scratchpad may read standard input');
    const read = async (file: string | undefined) => (file === undefined ? '' : decodeUtf8Input(await readInput(file, io), inputName(file)));
    io.stdout(`${progressDigest(await read(values.output), await read(values.scratchpad))}\n`);
    return 0;
  },
};

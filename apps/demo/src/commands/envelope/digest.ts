import { progressDigest } from '@askloop/envelope';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Command } from '../../io.ts';
import { UsageError } from '../../io.ts';

/** `askloop envelope digest --output FILE --scratchpad FILE`. */
export const digestCommand: Command = {
  name: 'digest',
  summary: 'print the progress digest of a turn\'s OUTPUT and SCRATCHPAD',
  usage: `Usage: askloop envelope digest [--output FILE] [--scratchpad FILE]

Prints sha256("OUT|" + norm(output) + "\\nSCR|" + norm(scratchpad)) as 64 hex
digits — the no-progress guard's digest (seed 003 §9). A missing option counts
as empty text; '-' reads standard input.
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
    const read = async (file: string | undefined) => {
      if (file === undefined) return '';
      if (file === '-') return new TextDecoder().decode(await io.readStdin());
      return readFile(resolve(io.cwd, file), 'utf8');
    };
    io.stdout(`${progressDigest(await read(values.output), await read(values.scratchpad))}\n`);
    return 0;
  },
};

import { scanDoneMarker, scanLoopControlV1 } from '@askloop/envelope';
import { parseArgs } from 'node:util';
import type { Command } from '../../io.ts';
import { decodeUtf8Input } from '../../decode-text.ts';
import { reportCodecError } from './error-json.ts';
import { UsageError } from '../../io.ts';
import { readInput } from '../../read-input.ts';

/** `askloop envelope control [FILE|-] [--dialect v4|v1]`. */
export const controlCommand: Command = {
  name: 'control',
  summary: 'scan a turn\'s OUTPUT for loop control (DONE marker, or v1 signals)',
  usage: `Usage: askloop envelope control [FILE|-] [--dialect v4|v1]

Reads one turn's OUTPUT and prints what the loop would decide from it:
  v4 (default): {"done":bool,"result":…|null,"line":N|null,"lints":[…]}
  v1:           {"signal":"abort|halt|await|done|continue"|null,"shouldContinue":bool,"winner":…,"found":[…]}
`,
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: { dialect: { type: 'string', default: 'v4' } }, allowPositionals: true, strict: true });
    if (positionals.length > 1) throw new UsageError('expected at most one FILE');
    if (values.dialect !== 'v4' && values.dialect !== 'v1') throw new UsageError(`--dialect must be v4 or v1, not '${values.dialect}'`);
    const bytes = await readInput(positionals[0], io);
    try {
      const output = decodeUtf8Input(bytes, 'the OUTPUT');
      io.stdout(`${JSON.stringify(values.dialect === 'v4' ? scanDoneMarker(output) : scanLoopControlV1(output))}\n`);
      return 0;
    } catch (error) {
      return reportCodecError(error, io);
    }
  },
};

import { scanDoneMarker, scanLoopControlV1 } from '@askloop/envelope';
import { parseArgs } from 'node:util';
import { usageError } from '../../cli-error.ts';
import { decodeUtf8Input } from '../../decode-text.ts';
import type { Command } from '../../io.ts';
import { choiceOption } from '../../options/parse-options.ts';
import { inputName, readInput } from '../../read-input.ts';
import { withCodecErrors } from './codec-error.ts';
import { JSON_ALREADY, JSON_ALREADY_USAGE } from './json-already.ts';

/** `askloop envelope control [FILE|-] [--dialect v4|v1]`. */
export const controlCommand: Command = {
  usage: `Usage: askloop envelope control [FILE|-] [--dialect v4|v1]

Reads one turn's OUTPUT and prints what the loop would decide from it:
  v4 (default): {"ok":true,"done":bool,"result":…|null,"line":N|null,"lints":[…]}
  v1:           {"ok":true,"signal":"abort|halt|await|done|continue"|null,"shouldContinue":bool,"winner":…,"found":[…]}
or {"ok":false,"error":{"code","message","file"?,"line"?,"column"?}} (exit 1, or 2 when unreadable).

Options:
  --dialect   v4 (the default) or v1
${JSON_ALREADY_USAGE}
`,
  jsonErrors: () => true,
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: { dialect: { type: 'string', default: 'v4' }, ...JSON_ALREADY }, allowPositionals: true, strict: true });
    if (positionals.length > 1) throw usageError('expected at most one FILE');
    const dialect = choiceOption('dialect', values.dialect, ['v4', 'v1'] as const);
    const file = inputName(positionals[0]);
    const output = decodeUtf8Input(await readInput(positionals[0], io), file);
    const result = withCodecErrors(file, () => (dialect === 'v4' ? scanDoneMarker(output) : scanLoopControlV1(output)));
    io.stdout(`${JSON.stringify({ ok: true, ...result })}\n`);
    return 0;
  },
};

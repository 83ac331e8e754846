import { composeEnvelope, type EnvelopeInput } from '@askloop/envelope';
import { parseArgs } from 'node:util';
import type { Command } from '../../io.ts';
import { UsageError } from '../../io.ts';
import { decodeUtf8Input } from '../../decode-text.ts';
import { readInput } from '../../read-input.ts';
import { reportCodecError } from './error-json.ts';

/** `askloop envelope compose [FILE|-]`. */
export const composeCommand: Command = {
  name: 'compose',
  summary: 'write envelope text from the JSON that `parse` prints',
  usage: `Usage: askloop envelope compose [FILE|-]

Reads a JSON object {"userdata":…,"scratchpad":…|null,"output":…|null,"actions":…}
(the "envelope" that 'askloop envelope parse' prints; "userdata" may also be an
object) from FILE or standard input and prints the envelope text. Empty optional
sections are omitted. On a codec error prints {"ok":false,"error":…} and exits 1.
`,
  async run(args, io) {
    const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
    if (positionals.length > 1) throw new UsageError('expected at most one FILE');
    const bytes = await readInput(positionals[0], io);
    try {
      io.stdout(composeEnvelope(readEnvelopeInput(decodeUtf8Input(bytes, 'the input'))));
      return 0;
    } catch (error) {
      return reportCodecError(error, io);
    }
  },
};

/** Parses the JSON input; anything that is not an envelope object is a usage error. */
function readEnvelopeInput(text: string): EnvelopeInput {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the input is not JSON: ${(error as Error).message}`);
  }
  if (!isEnvelopeInput(input)) {
    throw new UsageError('the input must be an object with string "userdata" (or an object) and "actions", and optional string-or-null "scratchpad" and "output"');
  }
  return input;
}

function isEnvelopeInput(value: unknown): value is EnvelopeInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const optional = (key: string) => record[key] === undefined || record[key] === null || typeof record[key] === 'string';
  const userdataOk = typeof record.userdata === 'string' || (typeof record.userdata === 'object' && record.userdata !== null && !Array.isArray(record.userdata));
  return userdataOk && typeof record.actions === 'string' && optional('scratchpad') && optional('output');
}

import { composeEnvelope, type EnvelopeInput } from '@askloop/envelope';
import { parseArgs } from 'node:util';
import { CliError, usageError } from '../../cli-error.ts';
import { decodeUtf8Input } from '../../decode-text.ts';
import type { Command } from '../../io.ts';
import { inputName, readInput } from '../../read-input.ts';
import { withCodecErrors } from './codec-error.ts';

/** `askloop envelope compose [FILE|-]`. */
export const composeCommand: Command = {
  usage: `Usage: askloop envelope compose [FILE|-]

Reads a JSON object {"userdata":…,"scratchpad":…|null,"output":…|null,"actions":…}
(the "envelope" that 'askloop envelope parse' prints, or parse's whole output;
"userdata" may also be an object) from FILE or standard input and prints the
envelope text. Empty optional sections are omitted. On an error prints {"ok":false,"error":{"code","message","file"?,"line"?,"column"?}}
and exits 1 (input that is not JSON or not an envelope object: CLI_INPUT_INVALID),
or 2 when it cannot be read.
`,
  jsonErrors: () => true,
  async run(args, io) {
    const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
    if (positionals.length > 1) throw usageError('expected at most one FILE');
    const file = inputName(positionals[0]);
    const input = readEnvelopeInput(decodeUtf8Input(await readInput(positionals[0], io), file), file);
    io.stdout(withCodecErrors(file, () => composeEnvelope(input)));
    return 0;
  },
};

/** Parses the JSON input; anything that is not an envelope object is `CLI_INPUT_INVALID` (read, and wrong). */
function readEnvelopeInput(text: string, file: string): EnvelopeInput {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // V8 names the place as "(line L column C)"; the error object carries it too, so `--json` callers need not parse it.
    const place = /\(line (\d+) column (\d+)\)/.exec(message);
    throw new CliError('CLI_INPUT_INVALID', `not JSON: ${message}`, { file, ...(place === null ? {} : { line: Number(place[1]), column: Number(place[2]) }) });
  }
  // The whole object `envelope parse` prints is accepted too, so `parse | compose` round-trips.
  if (typeof input === 'object' && input !== null && (input as Record<string, unknown>).ok === true && 'envelope' in input) input = (input as Record<string, unknown>).envelope;
  if (!isEnvelopeInput(input)) {
    throw new CliError('CLI_INPUT_INVALID', 'the input must be an object with string "userdata" (or an object) and "actions", and optional string-or-null "scratchpad" and "output"', { file });
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

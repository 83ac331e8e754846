/**
 * `--script FILE`: the replies of the scripted model, a JSON array of
 * strings, one per turn (each a whole model reply, envelope included). Read
 * capped and strictly decoded like every input of the CLI.
 */
import { CliError } from '../cli-error.ts';
import { decodeUtf8Input } from '../decode-text.ts';
import { jsonErrorPlace } from '../input/json-error-place.ts';
import type { CommandIo } from '../io.ts';
import { inputName, readInput } from '../read-input.ts';

/** Reads and checks a script file; a wrong shape is `CLI_SCRIPT_INVALID` naming the file and the first bad entry. */
export async function readScript(file: string, io: CommandIo): Promise<string[]> {
  const name = inputName(file);
  const text = decodeUtf8Input(await readInput(file, io), name);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const place = jsonErrorPlace(text, error);
    throw new CliError('CLI_SCRIPT_INVALID', `--script: not JSON (${place.message}); expected an array of reply strings`, { file: name, ...(place.line === undefined ? {} : { line: place.line, column: place.column }) });
  }
  if (!Array.isArray(value)) throw new CliError('CLI_SCRIPT_INVALID', '--script: expected a JSON array of reply strings, one per turn', { file: name });
  const bad = value.findIndex((reply) => typeof reply !== 'string');
  if (bad !== -1) throw new CliError('CLI_SCRIPT_INVALID', `--script: entry [${bad}] is not a string; every entry is one whole model reply`, { file: name });
  return value as string[];
}

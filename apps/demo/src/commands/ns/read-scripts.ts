import { usageError } from '../../cli-error.ts';
import { decodeUtf8Input } from '../../decode-text.ts';
import type { CommandIo } from '../../io.ts';
import { inputName, readInput } from '../../read-input.ts';

/** One script file as read from disk or standard input. */
export interface ScriptFile {
  /** The name diagnostics show: the path as given, or `<stdin>` for `-`. */
  fileName: string;
  source: string;
}

/**
 * Reads the FILE arguments of the `ns` commands: at least one, standard input
 * (`-`) at most once. Reading is capped and decoding strict, as in every
 * command (`CLI_FILE_UNREADABLE`, `CLI_INPUT_TOO_LARGE`, `CLI_INPUT_ENCODING`).
 */
export async function readScripts(files: readonly string[], io: CommandIo): Promise<ScriptFile[]> {
  if (files.length === 0) throw usageError('expected at least one FILE');
  if (files.filter((file) => file === '-').length > 1) throw usageError("standard input ('-') can be read only once");
  const scripts: ScriptFile[] = [];
  for (const file of files) {
    const fileName = inputName(file);
    scripts.push({ fileName, source: decodeUtf8Input(await readInput(file, io), fileName) });
  }
  return scripts;
}

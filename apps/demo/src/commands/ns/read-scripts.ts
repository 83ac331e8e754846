import type { CommandIo } from '../../io.ts';
import { UsageError } from '../../io.ts';
import { readInput } from '../../read-input.ts';

/** One script file as read from disk or standard input. */
export interface ScriptFile {
  /** The name diagnostics show: the path as given, or `<stdin>` for `-`. */
  fileName: string;
  source: string;
}

/**
 * Reads the FILE arguments of the `ns` commands: at least one, standard input
 * (`-`) at most once; an unreadable file is a usage error.
 */
export async function readScripts(files: readonly string[], io: CommandIo): Promise<ScriptFile[]> {
  if (files.length === 0) throw new UsageError('expected at least one FILE');
  if (files.filter((file) => file === '-').length > 1) throw new UsageError("standard input ('-') can be read only once");
  const scripts: ScriptFile[] = [];
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      bytes = await readInput(file, io);
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
    scripts.push({ fileName: file === '-' ? '<stdin>' : file, source: new TextDecoder().decode(bytes) });
  }
  return scripts;
}

/**
 * Where the sessions store is written in `askloop.config.yaml` (`store:` for
 * a PostgreSQL URL, `store.path` for a SQLite file), so that a store the
 * config names but that cannot be opened — a folder given as the file, a
 * folder that cannot be made, another program's database, a URL that does
 * not parse or a server that refuses it — is reported at its line, as every
 * other config problem is (and as `model-place.ts` does for the model). Before,
 * the error named the sessions file only, or blamed a `--db` never given.
 */
import { CliError } from '../cli-error.ts';
import type { AskLoopConfig } from './askloop-config.ts';

/** The store's place in the config file, and the field it is (`store`, `store.path`). */
export interface StorePlace {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly field: 'store' | 'store.path';
}

/** The place of `config`'s store, when it names one. */
export function storePlace(config: AskLoopConfig): StorePlace | undefined {
  const place = config.storeLocation;
  if (place === undefined) return undefined;
  return { file: config.file, ...place, field: config.storeUrl === undefined ? 'store.path' : 'store' };
}

/**
 * `error` located at `place`: the same code and exit status, the message
 * after the field (and the sessions file it named, which the located error
 * no longer carries as its file). Anything else than the CLI's error, or one
 * already located in a file, is returned as it is.
 */
export function locateStoreError(error: unknown, place: StorePlace | undefined): unknown {
  if (place === undefined || !(error instanceof CliError) || error.line !== undefined) return error;
  const named = error.file === undefined || error.file === place.file ? '' : `${error.file}: `;
  const located = new CliError('CLI_USAGE', `${place.field}: ${named}${error.message}`, { file: place.file, line: place.line, column: place.column });
  Object.assign(located, { code: error.code, exitCode: error.exitCode });
  return located;
}

/** Runs `open` (which resolves or opens the config's store) with its errors located at `place`. */
export async function atStorePlace<T>(place: StorePlace | undefined, open: () => T | Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    throw locateStoreError(error, place);
  }
}

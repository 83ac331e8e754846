/**
 * Opens the controller the loop commands share: the sessions file (SQLite,
 * which also holds the tools' memory, scratch and idempotence records), the
 * built-in providers and tool packs (`builtinPlugin`), and the scripted
 * models — `scripted:script` (`--script`) and `scripted:demo` (the demo's
 * embedded model). A follow-up command (`resume`, `approve`, `replay`) gives a
 * scripted model the replies its session has not used yet.
 */
import { isDamagedStore, storeReadError } from './damaged-store.ts';
import { createAskLoop, createSqliteTranscriptStore, isLoopError, LoopError, type AskLoopPlugin, type AskLoopWithMetrics, type BuiltinProviderSettings, type LoopEventListener, type TranscriptStore } from '@askloop/controller';
import { CliError } from '../cli-error.ts';
import { configPluginError } from '../config/config-plugin-error.ts';
import type { HttpSettings } from '../config/http-settings-schema.ts';
import { askloopPlugins } from './askloop-plugins.ts';
import { environmentSecretsOf, type SecretNames } from '../redact-secrets.ts';
import { foreignDatabaseTables, shownTables } from './foreign-database.ts';
import { storeOpenHint } from './store-open-hint.ts';

/** What a loop command needs to open its controller. */
export interface SessionLoopOptions {
  /** The sessions store, from {@link openSessionStore}; `loop.close()` closes it. */
  readonly store: TranscriptStore;
  /** `--fs-root`: adds `tool.fs.*` confined to it. */
  readonly fsRoot?: string | undefined;
  /** Replies of each scripted model, by model id (`script`, `demo`). */
  readonly scripts?: Readonly<Record<string, readonly string[]>>;
  readonly onEvent?: LoopEventListener;
  /** More plugins after the built-in and scripted ones (`--mcp-config`'s MCP servers). */
  readonly plugins?: readonly AskLoopPlugin[];
  /** The config's `providers:`: settings of the built-in providers (base URL, timeout, retries, prices). */
  readonly providers?: BuiltinProviderSettings | undefined;
  /** The config's `http:`: settings of `tool.http.Fetch` (`specialAddresses`). */
  readonly http?: HttpSettings | undefined;
  /**
   * The environment: the values of its key-like variables are replaced in what
   * tools give back (`createAskLoop({ secrets })`), with the models' own keys,
   * so a tool that quotes one never hands it to the model or the sessions file.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Variables of `env` that hold secrets whatever their names: what the files the command read hand to an MCP server
   * or name in a plugin's options (`knownSecretNames`); as a function, read at each turn, so a name learnt later counts.
   */
  readonly secretNames?: SecretNames;
}

/** An open controller and its store (closed together by `loop.close()`). */
export interface SessionLoop {
  readonly loop: AskLoopWithMetrics;
  readonly store: TranscriptStore;
}


/**
 * Rethrows a controller's `LoopError` as the CLI's error (code kept, exit 1). Given the `plugins` the controller was
 * made with, a plugin problem of a config file's plugin is said at its entry (`configPluginError`).
 */
export function asCliLoopError(error: unknown, plugins: readonly AskLoopPlugin[] = []): never {
  if (isLoopError(error)) throw configPluginError(error, plugins) ?? CliError.fromLoopError(error);
  throw error;
}

/**
 * Opens (creating it when missing) the sessions file; one that is not a
 * sessions database is `LOOP_STORE_ERROR`, exit 1 — a SQLite file of another
 * program's too, before anything is written to it (`refuseForeignDatabase`).
 * `name` is what gave the file (`--db`, or the config's `store.path`), for the fix.
 */
export function openSessionStore(dbPath: string, name = '--db'): TranscriptStore {
  try {
    refuseForeignDatabase(dbPath, name);
    return createSqliteTranscriptStore(dbPath);
  } catch (error) {
    if (!isLoopError(error)) throw new CliError('CLI_FILE_UNREADABLE', `cannot open the sessions database: ${(error as Error).message}`, { file: dbPath });
    // SQLite's own words name no fix: a file it cannot read (damaged, or no database at all) is said so, with one.
    if (isDamagedStore(error)) throw storeReadError(error, dbPath, name);
    throw CliError.fromLoopError({ code: error.code, message: `${error.message}${storeOpenHint(error.message, dbPath, undefined, name)}` }, dbPath);
  }
}

/**
 * Throws `LOOP_STORE_ERROR` when `path` is another program's SQLite file
 * (`foreignDatabaseTables`): a `--db` pointing at it by mistake would otherwise
 * get the controller's and the tools' tables written into it. A missing or
 * empty file is a new sessions file; a file that is no database is left to
 * the store to report.
 */
function refuseForeignDatabase(path: string, name: string): void {
  const tables = foreignDatabaseTables(path);
  if (tables === undefined) return;
  throw new LoopError({ code: 'LOOP_STORE_ERROR', message: `${path}: another program's SQLite database (tables ${shownTables(tables)}), with no AskLoop transcript: nothing was written to it; give ${name} a new file or an AskLoop sessions file` });
}

/** The controller over an open store; on failure the store is closed. */
export function openSessionLoop(options: SessionLoopOptions): SessionLoop {
  const { store } = options;
  const plugins = [...askloopPlugins(options), ...(options.plugins ?? [])];
  try {
    const loop = createAskLoop({
      plugins,
      store,
      ...(options.env === undefined ? {} : { secrets: environmentSecretsOf(options.env, options.secretNames) }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
    return { loop, store };
  } catch (error) {
    void store.close();
    return asCliLoopError(error, plugins);
  }
}

/**
 * The replies a resumed scripted session has not used: its script without
 * the first N, N being the turns whose reply is recorded (a new controller
 * would otherwise start the script from the beginning).
 */
export async function unusedReplies(store: TranscriptStore, sid: string, replies: readonly string[]): Promise<string[]> {
  const turns = await store.listTurns(sid);
  const used = turns.filter((turn) => turn.reply !== undefined).length;
  return replies.slice(used);
}

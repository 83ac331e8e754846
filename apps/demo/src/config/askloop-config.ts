/**
 * What `askloop.config.yaml` holds once loaded and validated: plain data,
 * nothing started or imported yet (see `loadConfigPlugins` for the plugins).
 */
import type { AgentDefinition, BuiltinProviderSettings } from '@askloop/controller';
import type { McpServersConfig } from '@askloop/mcp';
import type { HttpSettings } from './http-settings-schema.ts';
import type { PluginEntry } from './plugin-entry-schema.ts';

/** The loaded configuration. */
export interface AskLoopConfig {
  /** The config file (absolute). */
  readonly file: string;
  /** Its folder: relative paths in the file, and plugin packages, resolve from here. */
  readonly dir: string;
  /** The `plugins:` entries, in order: packages (or `./relative` paths) whose default export is an AskLoop plugin, with their options. */
  readonly plugins: readonly ConfigPlugin[];
  /**
   * Where each model id is written: `models.default`, and the `model` each
   * agent runs with (its own, else the default's place), so a model whose
   * provider no plugin registers is reported at its line.
   */
  readonly modelLocations: {
    readonly default?: { readonly line: number; readonly column: number };
    readonly agents: Readonly<Record<string, { readonly line: number; readonly column: number; readonly field: string }>>;
  };
  /** The sessions file (absolute), when the config names one. */
  readonly storePath?: string;
  /** The PostgreSQL server (`store: postgres://…`), when the config names one instead of a file. */
  readonly storeUrl?: string;
  /** Where `store` (a URL) or `store.path` is written, so a store that cannot be opened is reported at its line. */
  readonly storeLocation?: { readonly line: number; readonly column: number };
  /** The agents defined in the file, with the file's model, settings, quotas and ceilings defaults applied. */
  readonly agents: Readonly<Record<string, AgentDefinition>>;
  /** The file's `models.default`, `models.settings`, `quotas` and `ceilings`: the defaults of `askloop run` without `--agent`. */
  readonly defaults: AgentDefaults;
  /** `providers:`: settings of the built-in providers (base URL, timeout, retries, prices), for `builtinPlugin({ providerSettings })`. */
  readonly providers: BuiltinProviderSettings;
  /** `http:`: settings of `tool.http.Fetch` (`specialAddresses`), for `builtinPlugin({ http })`; `{}` when the file has none. */
  readonly http: HttpSettings;
  /** MCP servers (`{command,args,env,cwd}` or `{url,headers}`), for `mcpPlugin({ servers })`. `${NAME}` references are kept: see `expandEnvReferences`. */
  readonly mcpServers: McpServersConfig;
}

/**
 * One `plugins:` entry: the package name or `./path` as written, the
 * `options` its factory is called with when the entry gives them (plain
 * data only, `notPlainData`; checked for keys as the whole file is), and
 * where the entry is written, for errors.
 */
export interface ConfigPlugin extends PluginEntry {
  readonly line: number;
  readonly column: number;
}

/** The agent fields a config's defaults can set for a run without `--agent`. */
export type AgentDefaults = Partial<Pick<AgentDefinition, 'model' | 'settings' | 'quotas' | 'ceilings'>>;

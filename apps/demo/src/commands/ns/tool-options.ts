/**
 * The tool options `askloop ns check` and `askloop ns run` share, and the
 * registry and policy they build from `@askloop/tools` — the same policy
 * object proves a program before it runs and authorizes each call while it
 * runs.
 */
import { createDefaultRegistry, createPolicy, createToolHost, isToolError, openSqliteStore, type Capability, type HostToolCatalog, type Policy, type ToolHost, type ToolPack, type ToolRegistry, type ToolStores } from '@askloop/tools';
import type { ConfigTools } from './config-tools.ts';
import { CliError } from '../../cli-error.ts';
import type { CommandIo } from '../../io.ts';
import { parseGrantOptions } from '../../options/check-grant-resources.ts';
import { directoryOption } from '../../options/parse-options.ts';
import { knownSecretNames } from '../../known-secret-names.ts';
import { environmentRedaction } from '../../redact-secrets.ts';
import { allowPatternWarnings, denyPatternWarnings, sourceGroups, type HostToolNames } from '../../options/allow-pattern-warnings.ts';

const invalid = (message: string): CliError => new CliError('CLI_OPTION_INVALID', message);

/** Tool groups allowed when no `--allow` is given: the pure ones. */
export const DEFAULT_ALLOW: readonly string[] = ['tool.str.*', 'tool.list.*', 'tool.math.*', 'tool.json.*', 'tool.map.*'];

/** `parseArgs` option definitions for the tool options. */
export const TOOL_OPTIONS = {
  allow: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
  grant: { type: 'string', multiple: true },
  'fs-root': { type: 'string' },
  http: { type: 'boolean' },
} as const;

/** Usage text of the tool options. */
export const TOOL_OPTIONS_USAGE = `Tool options:
  --allow GLOB      allow tools matching GLOB (repeatable); default: the pure
                    groups tool.str.*, tool.list.*, tool.math.*, tool.json.*,
                    tool.map.*. A --allow replaces that default: list the pure
                    groups you use too. Globs match canonical names tool.<group>.<name>
                    case-insensitively: '*' within one segment, '**' across
                    segments, '*' alone every tool.
  --deny GLOB       deny tools matching GLOB (repeatable); deny wins over allow.
  --grant CAP       grant a capability resource:verbs[:scopes] (repeatable),
                    e.g. fs:read:/data/**, net:read:*.example.com.
  --fs-root DIR     add the tool.fs.* tools, confined to DIR (they still need
                    --allow 'tool.fs.*' and an fs grant).
  --http            add tool.http.Fetch (needs --allow and a net grant).`;

/** The parsed tool option values. */
export interface ToolOptionValues {
  allow?: string[] | undefined;
  deny?: string[] | undefined;
  grant?: string[] | undefined;
  'fs-root'?: string | undefined;
  http?: boolean | undefined;
}

/** What binds a tool host to one run (see `createToolHost`). */
export interface RunBinding {
  readonly signal: AbortSignal;
  /** Epoch ms. */
  readonly deadline: number;
  readonly maxResultLength: number;
  readonly maxResultItems: number;
}

/** The tools a command works with: one policy, used by the static check (through `catalog`) and by every run's tool host. */
export interface ToolSetup {
  registry: ToolRegistry;
  policy: Policy;
  /** The catalogue the static check asks (names, signatures, the policy's decision). */
  catalog: HostToolCatalog;
  /**
   * A tool host for one run (`turn` numbers the runs of one command). Given
   * `run`, its calls end with the run: at its deadline, and when its signal
   * aborts (abort it when the run ends, so no pending call outlives it).
   */
  hostFor(turn: number, run?: RunBinding): ToolHost;
  /**
   * The memory and scratch stores of this command (an in-memory SQLite
   * database, opened on first use and shared by its runs), so
   * `tool.memory.*` and `tool.scratch.*` work when allowed and granted
   * instead of failing every call with `TOOL_STORE_MISSING` after the check
   * accepted them.
   */
  stores(): Pick<ToolStores, 'memory' | 'scratch'>;
  /** The tool packs of `--config FILE`'s plugins in `registry`, beside the built-in ones (a registry rebuilt with tool sources' packs keeps them). */
  readonly configPacks: readonly ToolPack[];
  /** The tools the options give, and those `--fs-root` or `--http` would add (to say so of a program calling one). */
  readonly optionTools: HostToolNames;
}

/**
 * Builds registry and policy from the options and the packs of `--config FILE`'s plugins (`config`); bad globs,
 * grants and directories, and a pack whose tools clash with another's, are `CLI_OPTION_INVALID`. A pattern that
 * matches no tool is warned about on `io.stderr`, naming `httpOption` as what adds `tool.http.Fetch`.
 */
export function buildToolSetup(values: ToolOptionValues & { 'mcp-config'?: string | undefined }, io: CommandIo, config?: Pick<ConfigTools, 'packs' | 'capabilities' | 'sources'> & Partial<Pick<ConfigTools, 'http'>>, httpOption = '--http'): ToolSetup {
  const allow = values.allow ?? [...DEFAULT_ALLOW];
  const deny = values.deny ?? [];
  const fsRoot = directoryOption('fs-root', values['fs-root'], io.cwd);
  // A grant may name a resource a plugin's tool needs (notes:write:todo).
  const grants: Capability[] = parseGrantOptions(values.grant, io.cwd, config?.capabilities ?? []);
  const configPacks = config?.packs ?? [];
  let registry: ToolRegistry;
  let policy: Policy;
  try {
    registry = createDefaultRegistry({
      ...(fsRoot === undefined ? {} : { fs: { root: fsRoot } }),
      // The config's `http:` (specialAddresses), as a run of it has.
      ...(values.http ? { http: { ...config?.http } } : {}),
      extraPacks: configPacks,
    });
    policy = createPolicy({ allow, deny, grants });
  } catch (error) {
    if (isToolError(error)) throw invalid(error.message);
    throw error;
  }
  let opened: Pick<ToolStores, 'memory' | 'scratch'> | undefined;
  const stores = (): Pick<ToolStores, 'memory' | 'scratch'> => {
    if (opened === undefined) {
      const { memory, scratch } = openSqliteStore(':memory:');
      opened = { memory, scratch };
    }
    return opened;
  };
  // A pattern that matches no tool (a typo, tool.fs.* without --fs-root) is valid and allows or denies nothing: said.
  // The default allow list names only groups every host has.
  const tools = optionToolNames(registry, values, io.cwd, config?.sources ?? [], httpOption);
  const warnings = [...(values.allow === undefined ? [] : allowPatternWarnings(allow, tools, '--allow')), ...denyPatternWarnings(deny, tools, '--deny')];
  for (const warning of warnings) io.stderr(`askloop: warning: ${warning}\n`);
  // Only a host for a run needs the stores; the catalogue's host (the check) does not open them.
  // The environment's keys never reach a program through a tool's result or error (redact-secrets.ts).
  const redaction = environmentRedaction(io.env, knownSecretNames(io));
  const hostFor = (turn: number, run?: RunBinding): ToolHost =>
    createToolHost({ registry, policy, session: 'askloop-cli', turn, ...(run === undefined ? {} : { ...run, stores: stores(), ...redaction }) });
  return { registry, policy, catalog: hostFor(0).catalog, hostFor, stores, configPacks, optionTools: tools };
}

/**
 * The tools the options give a command (`registry`), and those `--fs-root` or `--http` would add, for the pattern
 * warnings. The servers of `--mcp-config` are named only once it is read: with it, any group may be theirs.
 */
function optionToolNames(registry: ToolRegistry, values: ToolOptionValues & { 'mcp-config'?: string | undefined }, cwd: string, sources: readonly unknown[], httpOption: string): HostToolNames {
  const names = registry.specs().map((spec) => spec.displayName);
  // The option's built-in tools beside those the command has: a registry of both with the config's packs would
  // refuse a plugin's own pack named `fs` or `http` as a duplicate, and fail a command that never asked for the option.
  const withOption = (option: { fs?: { root: string }; http?: object }) => [...new Set([...names, ...createDefaultRegistry(option).specs().map((spec) => spec.displayName)])];
  return {
    names,
    namesWithFs: values['fs-root'] === undefined ? withOption({ fs: { root: cwd } }) : names,
    ...(values.http === true ? {} : { withHttp: { names: withOption({ http: {} }), option: httpOption } }),
    dynamicGroups: values['mcp-config'] === undefined ? sourceGroups(sources) : 'any',
  };
}

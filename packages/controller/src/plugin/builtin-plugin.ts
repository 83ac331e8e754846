/**
 * `builtinPlugin(options)`: what AskLoop ships, as one plugin like any other —
 * the hosted and local providers (`openai:…`, `anthropic:…`, `google:…`,
 * `ollama:…`, each reading its key from the environment when a model is
 * called, never when the plugin is built) and the safe built-in tool packs,
 * plus `tool.fs.*` when given a root and `tool.http.Fetch` when given HTTP
 * settings. Registration is not permission: each agent's policy still allows
 * tools and grants capabilities.
 */
import {
  anthropic,
  createAnthropicProvider,
  createGoogleProvider,
  createOllamaProvider,
  createOpenAIProvider,
  google,
  ollama,
  openai,
  type AnthropicProviderSettings,
  type GoogleProviderSettings,
  type OllamaProviderSettings,
  type OpenAIProviderSettings,
  type Provider,
} from '@askloop/providers';
import { createFileSystemTools, createHttpTools, createSafeToolPacks, type FileSystemToolsOptions, type HttpToolsOptions, type ToolPack } from '@askloop/tools';
import { statSync } from 'node:fs';
import { closestOption } from '../closest-option.ts';
import { describeValue } from '../describe-value.ts';
import { LoopError } from '../errors/loop-error.ts';
import { definePlugin, type AskLoopPlugin } from './plugin.ts';

/** The providers of {@link builtinPlugin}, by the name agents use in `model` (`openai:gpt-4.1-mini`). */
export const BUILTIN_PROVIDERS: Readonly<Record<'openai' | 'anthropic' | 'google' | 'ollama', Provider>> = Object.freeze({ openai, anthropic, google, ollama });

/** A built-in provider's name. */
export type BuiltinProviderName = keyof typeof BUILTIN_PROVIDERS;

/**
 * Settings of the built-in providers, by name (their factories' settings:
 * `baseURL`, `timeoutMs`, `retry`, `prices` by model id, `models`, …). The
 * name is the key: a `name` inside is not taken.
 */
export interface BuiltinProviderSettings {
  readonly openai?: Omit<OpenAIProviderSettings, 'name'>;
  readonly anthropic?: Omit<AnthropicProviderSettings, 'name'>;
  readonly google?: Omit<GoogleProviderSettings, 'name'>;
  readonly ollama?: Omit<OllamaProviderSettings, 'name'>;
}

/** Each built-in provider made with its settings (the factories check them: `PROVIDER_CONFIG`). */
const BUILTIN_FACTORIES: { readonly [Name in BuiltinProviderName]: (settings: NonNullable<BuiltinProviderSettings[Name]>) => Provider } = {
  openai: (settings) => createOpenAIProvider({ ...settings, name: 'openai' }),
  anthropic: (settings) => createAnthropicProvider({ ...settings, name: 'anthropic' }),
  google: (settings) => createGoogleProvider({ ...settings, name: 'google' }),
  ollama: (settings) => createOllamaProvider({ ...settings, name: 'ollama' }),
};

/** Options of {@link builtinPlugin}. */
export interface BuiltinPluginOptions {
  /** Adds `tool.fs.*`, confined to `fs.root` (an existing directory). Agents still need `tool.fs.*` allowed and an `fs:` grant. */
  readonly fs?: FileSystemToolsOptions;
  /** Adds `tool.http.Fetch` with these limits (`{}` for the defaults). Agents still need it allowed and a `net:` grant naming the hosts. */
  readonly http?: HttpToolsOptions;
  /** Which built-in providers to contribute (default: all four). Leave one out to register your own under its name. */
  readonly providers?: readonly BuiltinProviderName[];
  /**
   * Settings for some of them (a timeout, retries, a base URL, prices so a
   * `ceilings.costUsd` can bound their models); the others keep the
   * defaults. Keys still come from the environment unless `apiKey` is given.
   */
  readonly providerSettings?: BuiltinProviderSettings;
  /** The plugin's name (default `builtin`). */
  readonly name?: string;
}

/** The built-in providers and tool packs as one {@link AskLoopPlugin}. Throws `LOOP_CONFIG_INVALID` for options it cannot take. */
export function builtinPlugin(options: BuiltinPluginOptions = {}): AskLoopPlugin {
  requireBuiltinOptions(options);
  const names = options.providers ?? (Object.keys(BUILTIN_PROVIDERS) as BuiltinProviderName[]);
  const providers: Record<string, Provider> = {};
  // A setting for a provider not contributed (or misspelt, 'opnai') would be dropped, silently.
  for (const key of Object.keys(options.providerSettings ?? {})) {
    if (!(names as readonly string[]).includes(key)) {
      const why = Object.hasOwn(BUILTIN_PROVIDERS, key) ? `'${key}' is not among providers (${names.join(', ')})` : `no built-in provider '${key}' (they are ${Object.keys(BUILTIN_PROVIDERS).join(', ')})`;
      throw new LoopError({ code: 'LOOP_CONFIG_INVALID', message: `builtinPlugin: providerSettings.${key}: ${why}` });
    }
  }
  for (const name of names) providers[name] = builtinProvider(name, options.providerSettings);
  const toolPacks: ToolPack[] = [
    ...createSafeToolPacks(),
    ...(options.fs === undefined ? [] : [createFileSystemTools(options.fs)]),
    ...(options.http === undefined ? [] : [createHttpTools(options.http)]),
  ];
  return definePlugin({ name: options.name ?? 'builtin', specificationVersion: 'v1', providers, toolPacks });
}

/** The provider `name`, made with its settings when some are given, else the shared default. */
function builtinProvider<Name extends BuiltinProviderName>(name: Name, settings: BuiltinProviderSettings | undefined): Provider {
  const own = settings?.[name];
  return own === undefined ? BUILTIN_PROVIDERS[name] : BUILTIN_FACTORIES[name](own as NonNullable<BuiltinProviderSettings[Name]>);
}

/** The options of {@link builtinPlugin}, of `fs` and of `http`: any other is a misspelling whose setting would be dropped. */
const OPTION_FIELDS = ['fs', 'http', 'providers', 'providerSettings', 'name'] as const;
const FS_FIELDS = ['root', 'maxReadBytes', 'maxWriteBytes', 'maxListEntries'] as const;
const HTTP_FIELDS = ['maxBytes', 'timeoutMs', 'maxRedirects', 'lookup', 'specialAddresses'] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Throws `LOOP_CONFIG_INVALID` for options the plugin would misread: an
 * unknown field (`providersettings` dropped the settings, and a call meant
 * for a local server went to the provider's own API), settings that are not
 * objects, or an `fs.root` that is no existing directory (each turn's file
 * tool then failed, in front of the model).
 */
function requireBuiltinOptions(options: unknown): void {
  const fail = (message: string): never => {
    throw new LoopError({ code: 'LOOP_CONFIG_INVALID', message: `builtinPlugin: ${message}` });
  };
  const fields = (value: Record<string, unknown>, known: readonly string[], where: string): void => {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const meant = closestOption(key, known, 3);
      fail(`${where}${key}: no such option${meant === undefined ? '' : `; did you mean '${meant}'?`} (the options: ${known.join(', ')})`);
    }
  };
  if (!isPlainObject(options)) return fail(`takes { fs?, http?, providers?, providerSettings?, name? }, got ${options === null ? 'null' : Array.isArray(options) ? 'a list' : typeof options}`);
  fields(options, OPTION_FIELDS, '');
  const { fs, http, providers, providerSettings } = options;
  if (providers !== undefined) {
    if (!Array.isArray(providers)) return fail(`providers must be a list of built-in provider names (${Object.keys(BUILTIN_PROVIDERS).join(', ')}), got ${describeValue(providers)}`);
    for (const name of providers) if (typeof name !== 'string' || !Object.hasOwn(BUILTIN_PROVIDERS, name)) fail(`providers: no built-in provider ${JSON.stringify(name)} (they are ${Object.keys(BUILTIN_PROVIDERS).join(', ')})`);
  }
  if (fs !== undefined) {
    if (!isPlainObject(fs) || typeof fs['root'] !== 'string') return fail(`fs must be { root: DIR }, an existing directory the file tools are confined to, got ${describeValue(fs)}`);
    fields(fs, FS_FIELDS, 'fs.');
    if (!isDirectory(fs['root'])) fail(`fs.root ${JSON.stringify(fs['root'])} is not an existing directory; create it or name another`);
  }
  if (http !== undefined) {
    if (!isPlainObject(http)) return fail(`http must be an object of limits ({} for the defaults), got ${describeValue(http)}`);
    // An option it took until the http pack made its own connections: say what replaced it, not only that it is unknown.
    if (Object.hasOwn(http, 'fetch')) {
      fail('http.fetch is no longer an option: tool.http.Fetch makes its own connections so that it can check the address each one goes to; to give test host names fixed addresses, pass http.lookup: (hostname) => Promise<{ address }[]>');
    }
    fields(http, HTTP_FIELDS, 'http.');
  }
  if (providerSettings !== undefined) {
    if (!isPlainObject(providerSettings)) return fail(`providerSettings must map provider names to their settings, got ${describeSettings(providerSettings)}`);
    for (const [name, settings] of Object.entries(providerSettings)) if (!isPlainObject(settings)) fail(`providerSettings.${name} must be the provider's settings (an object), got ${describeSettings(settings)}`);
  }
}

/** A text where provider settings belong may be a key put in the wrong place: its kind is named, never its content. */
function describeSettings(value: unknown): string {
  return typeof value === 'string' ? 'a string' : describeValue(value);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

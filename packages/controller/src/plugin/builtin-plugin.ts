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

/** The built-in providers and tool packs as one {@link AskLoopPlugin}. */
export function builtinPlugin(options: BuiltinPluginOptions = {}): AskLoopPlugin {
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

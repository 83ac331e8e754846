/**
 * `builtinPlugin(options)`: what AskLoop ships, as one plugin like any other —
 * the hosted and local providers (`openai:…`, `anthropic:…`, `google:…`,
 * `ollama:…`, each reading its key from the environment when a model is
 * called, never when the plugin is built) and the safe built-in tool packs,
 * plus `tool.fs.*` when given a root and `tool.http.Fetch` when given HTTP
 * settings. Registration is not permission: each agent's policy still allows
 * tools and grants capabilities.
 */
import { anthropic, google, ollama, openai, type Provider } from '@askloop/providers';
import { createFileSystemTools, createHttpTools, createSafeToolPacks, type FileSystemToolsOptions, type HttpToolsOptions, type ToolPack } from '@askloop/tools';
import { definePlugin, type AskLoopPlugin } from './plugin.ts';

/** The providers of {@link builtinPlugin}, by the name agents use in `model` (`openai:gpt-4.1-mini`). */
export const BUILTIN_PROVIDERS: Readonly<Record<'openai' | 'anthropic' | 'google' | 'ollama', Provider>> = Object.freeze({ openai, anthropic, google, ollama });

/** A built-in provider's name. */
export type BuiltinProviderName = keyof typeof BUILTIN_PROVIDERS;

/** Options of {@link builtinPlugin}. */
export interface BuiltinPluginOptions {
  /** Adds `tool.fs.*`, confined to `fs.root` (an existing directory). Agents still need `tool.fs.*` allowed and an `fs:` grant. */
  readonly fs?: FileSystemToolsOptions;
  /** Adds `tool.http.Fetch` with these limits (`{}` for the defaults). Agents still need it allowed and a `net:` grant naming the hosts. */
  readonly http?: HttpToolsOptions;
  /** Which built-in providers to contribute (default: all four). Leave one out to register your own under its name. */
  readonly providers?: readonly BuiltinProviderName[];
  /** The plugin's name (default `builtin`). */
  readonly name?: string;
}

/** The built-in providers and tool packs as one {@link AskLoopPlugin}. */
export function builtinPlugin(options: BuiltinPluginOptions = {}): AskLoopPlugin {
  const names = options.providers ?? (Object.keys(BUILTIN_PROVIDERS) as BuiltinProviderName[]);
  const providers: Record<string, Provider> = {};
  for (const name of names) providers[name] = BUILTIN_PROVIDERS[name];
  const toolPacks: ToolPack[] = [
    ...createSafeToolPacks(),
    ...(options.fs === undefined ? [] : [createFileSystemTools(options.fs)]),
    ...(options.http === undefined ? [] : [createHttpTools(options.http)]),
  ];
  return definePlugin({ name: options.name ?? 'builtin', specificationVersion: 'v1', providers, toolPacks });
}

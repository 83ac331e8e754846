/**
 * The plugins askloop adds itself before a config file's, in a loop
 * command's controller: the built-in providers and tools (`builtinPlugin`,
 * `tool.http.Fetch` always, `tool.fs.*` with a root) and the scripted models
 * (`askloop-scripted`: `scripted:script` of `--script`, `scripted:demo` of
 * the demo). One list, so `ns check|run|tools --config FILE` refuses the
 * config's plugins against the names a run has.
 */
import { builtinPlugin, definePlugin, type AskLoopPlugin, type BuiltinProviderSettings } from '@askloop/controller';
import { createScriptedProvider } from '@askloop/providers';
import type { HttpSettings } from '../config/http-settings-schema.ts';

/** What askloop's own plugins are made with. */
export interface AskloopPluginOptions {
  /** `--fs-root`: adds `tool.fs.*` confined to it. */
  readonly fsRoot?: string | undefined;
  /** Replies of each scripted model, by model id (`script`, `demo`). */
  readonly scripts?: Readonly<Record<string, readonly string[]>> | undefined;
  /** The config's `providers:`: settings of the built-in providers. */
  readonly providers?: BuiltinProviderSettings | undefined;
  /** The config's `http:`: settings of `tool.http.Fetch` (`specialAddresses`). */
  readonly http?: HttpSettings | undefined;
}

/** `[builtin, askloop-scripted]`, as a loop command's controller has them (throws `LOOP_CONFIG_INVALID` for bad settings). */
export function askloopPlugins(options: AskloopPluginOptions = {}): AskLoopPlugin[] {
  const scripted = definePlugin({
    name: 'askloop-scripted',
    specificationVersion: 'v1',
    providers: { scripted: createScriptedProvider({ models: { script: [], demo: [], ...options.scripts } }) },
  });
  // tool.http.Fetch is always registered (a policy still has to allow it and grant the hosts), so a session
  // that was refused it replays the same refusal; fs needs a root, so --fs-root is given again.
  const builtin = builtinPlugin({ http: { ...options.http }, ...(options.fsRoot === undefined ? {} : { fs: { root: options.fsRoot } }), ...(options.providers === undefined ? {} : { providerSettings: options.providers }) });
  return [builtin, scripted];
}

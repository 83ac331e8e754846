/** `askloop.config.yaml`: loading, validation, plugins, and the file `askloop init` writes. */
export type { AskLoopConfig, ConfigPlugin } from './askloop-config.ts';
export { ConfigError, isConfigError, type ConfigErrorCode } from './config-error.ts';
export { configForRun, type RunConfig } from './config-for-run.ts';
export { CONFIG_FILE_NAME, discoverConfigPath } from './discover-config.ts';
export { expandEnvReferences } from './find-secret.ts';
export { loadConfig, MAX_CONFIG_BYTES, parseConfig } from './load-config.ts';
export { loadConfigPlugins, type LoadConfigPluginsOptions } from './load-config-plugins.ts';
export { pluginsFromConfig } from './plugins-from-config.ts';
export { sessionsDbPath } from './sessions-db-path.ts';

/**
 * Which config file a command uses: `--config FILE` when given (it must
 * exist), else `askloop.config.yaml` in the current directory when there is
 * one, else none (the built-in providers and tools, and agent files).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';

/** The file `askloop init` writes and commands look for in the current directory. */
export const CONFIG_FILE_NAME = 'askloop.config.yaml';

/** The config file to load (absolute), or undefined when there is none to use. */
export function discoverConfigPath(option: string | undefined, cwd: string): string | undefined {
  if (option !== undefined) {
    const path = resolve(cwd, option);
    if (!existsSync(path)) throw new ConfigError('CONFIG_UNREADABLE', `--config ${option}: no such file (askloop init writes one)`, { file: option });
    return path;
  }
  const local = resolve(cwd, CONFIG_FILE_NAME);
  return existsSync(local) ? local : undefined;
}

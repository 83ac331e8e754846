/**
 * The error `parseConfig` refuses a config text with, as `askloop.config.yaml`
 * in `/project` (for tests of the file's checks).
 */
import { parseConfig, type ConfigError } from '../src/config/index.ts';

/** The `ConfigError` for `text`; throws when the text is accepted. */
export function configError(text: string): ConfigError {
  try {
    parseConfig(text, { file: '/project/askloop.config.yaml', display: 'askloop.config.yaml' });
  } catch (error) {
    return error as ConfigError;
  }
  throw new Error('expected the config to be refused');
}

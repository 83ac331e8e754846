/**
 * Errors of the config file and its plugins: a `CliError` (so every command
 * prints it in the one shape, text or JSON) with a `CONFIG_…` code and, when
 * known, the file, line and column. Codes and fixes are in the README.
 */
import { CliError, type CliErrorLocation } from '../cli-error.ts';

/** Stable codes of {@link ConfigError}. */
export type ConfigErrorCode =
  | 'CONFIG_UNREADABLE'
  | 'CONFIG_SYNTAX'
  | 'CONFIG_INVALID'
  | 'CONFIG_SECRET'
  | 'CONFIG_EXISTS'
  | 'CONFIG_PLUGIN_NOT_FOUND'
  | 'CONFIG_PLUGIN_INVALID';

/** Exit 2 when the command could not start (no file, nothing to load), 1 when the file was read and is wrong. */
const CANNOT_START: ReadonlySet<ConfigErrorCode> = new Set(['CONFIG_UNREADABLE', 'CONFIG_EXISTS', 'CONFIG_PLUGIN_NOT_FOUND']);

/** A problem with `askloop.config.yaml` or a plugin it names. */
export class ConfigError extends CliError {
  override name = 'ConfigError';

  constructor(code: ConfigErrorCode, message: string, location: CliErrorLocation = {}) {
    // The base class picks the exit code from its own table; borrow the code with the right exit, then set ours.
    super(CANNOT_START.has(code) ? 'CLI_FILE_UNREADABLE' : 'CLI_INPUT_ENCODING', message, location);
    (this as { code: string }).code = code;
  }
}

/** True for a {@link ConfigError} (also across duplicated module copies). */
export function isConfigError(error: unknown): error is ConfigError {
  return error instanceof CliError && error.code.startsWith('CONFIG_');
}

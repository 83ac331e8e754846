/**
 * The quota options every command that runs programs shares (`ns run`,
 * `mcp serve`): `--fuel`, `--timeout-ms`, `--memory-mb`, each range-checked.
 */
import type { RunLimits } from '@askloop/interpreter';
import { integerOption } from './parse-options.ts';

/**
 * Node's timers hold at most 2^31−1 ms (a larger delay becomes 1 ms with only
 * a warning), and the interpreter adds a 250 ms grace to the wall-clock limit
 * for its own timer: rounded down, this leaves room for it.
 */
export const MAX_TIMEOUT_MS = 2_147_483_000;
/** The sandbox gives an isolate at least 8 MiB (smaller limits are raised silently), so smaller values are refused. */
export const MIN_MEMORY_MB = 8;
/** An isolate heap past 16 GiB is a typo, not a plan. */
export const MAX_MEMORY_MB = 16_384;

/** `parseArgs` option definitions of the quota options. */
export const RUN_LIMIT_OPTIONS = {
  fuel: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'memory-mb': { type: 'string' },
} as const;

/** Usage lines of the quota options. */
export const RUN_LIMIT_OPTIONS_USAGE = `  --fuel N          evaluation steps per run, 1 to 2^53−1 (default 1000000).
  --timeout-ms N    wall-clock per run, tool time included, 1 to
                    2147483000, about 24 days (default 5000).
  --memory-mb N     isolate heap per run, ${MIN_MEMORY_MB} to ${MAX_MEMORY_MB} (default 64).`;

/** The quotas the options set (absent ones are left to the interpreter's defaults); out-of-range values are `CLI_OPTION_INVALID`. */
export function runLimitOptions(values: { fuel?: string | undefined; 'timeout-ms'?: string | undefined; 'memory-mb'?: string | undefined }): Partial<RunLimits> {
  const fuel = integerOption('fuel', values.fuel, { min: 1, max: Number.MAX_SAFE_INTEGER, unit: 'steps' });
  const wallMs = integerOption('timeout-ms', values['timeout-ms'], { min: 1, max: MAX_TIMEOUT_MS, unit: 'ms', why: "Node's timer limit" });
  const memoryMb = integerOption('memory-mb', values['memory-mb'], { min: MIN_MEMORY_MB, max: MAX_MEMORY_MB, unit: 'MiB', why: "the sandbox's minimum isolate heap is 8 MiB" });
  return {
    ...(fuel === undefined ? {} : { fuel }),
    ...(wallMs === undefined ? {} : { wallMs }),
    ...(memoryMb === undefined ? {} : { memoryMb }),
  };
}

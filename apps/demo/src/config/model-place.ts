/**
 * Where the model id of a run is written in `askloop.config.yaml`, so that a
 * model whose provider no plugin registers (`opneai:gpt-4.1-mini` under
 * `models.default`) is reported at its line, as every other config problem
 * is. Before, the error named the agent (`agent 'cli'`) and not the file.
 */
import { isLoopError } from '@askloop/controller';
import { CliError } from '../cli-error.ts';
import type { AskLoopConfig } from './askloop-config.ts';

/** A model id's place in the config file, and the field it is (`models.default`, `agents.NAME.model`). */
export interface ModelPlace {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly field: string;
}

/** The place of the model a run of `agent` (a config agent's name, or none for the bare agent) takes from `config`. */
export function modelPlace(config: AskLoopConfig, agent: string | undefined): ModelPlace | undefined {
  if (agent === undefined) {
    const place = config.modelLocations.default;
    return place === undefined ? undefined : { file: config.file, ...place, field: 'models.default' };
  }
  const place = config.modelLocations.agents[agent];
  return place === undefined ? undefined : { file: config.file, ...place };
}

/** `error` located at `place` when it is the run's unknown provider (`LOOP_PROVIDER_NOT_FOUND` of the run's own agent); else `error`. */
export function locateModelError(error: unknown, place: ModelPlace | undefined, agentName: string): unknown {
  if (place === undefined) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'LOOP_PROVIDER_NOT_FOUND' || !(error instanceof CliError || isLoopError(error))) return error;
  if (error instanceof CliError && error.file !== undefined) return error;
  // An asked agent's provider fails its ask, not the run: only the run's own agent is at this place.
  if (!error.message.startsWith(`agent '${agentName}': `)) return error;
  const located = new CliError('CLI_SCRIPT_INVALID', `${place.field}: ${error.message}`, { file: place.file, line: place.line, column: place.column });
  (located as { code: string }).code = 'LOOP_PROVIDER_NOT_FOUND';
  return located;
}

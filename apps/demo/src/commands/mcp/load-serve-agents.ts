/**
 * The files behind `askloop mcp serve --agent FILE … [--script FILE]`: agent
 * definitions (JSON or YAML, read by the controller's `parseAgentDefinition`)
 * and the replies of the scripted provider, so the `ask` tool can run a whole
 * ask loop with a named agent — offline, with `scripted:<id>` models.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isLoopError, parseAgentDefinition, type AgentDefinition } from '@askloop/controller';
import { CliError } from '../../cli-error.ts';
import type { CommandIo } from '../../io.ts';

/** `parseArgs` option definitions of `--agent` and `--script`. */
export const SERVE_AGENT_OPTIONS = { agent: { type: 'string', multiple: true }, script: { type: 'string' } } as const;

/** Usage text of `--agent` and `--script`. */
export const SERVE_AGENT_USAGE = `Agents (the ask tool):
  --agent FILE      an agent definition, JSON or YAML ({"name", "model", "policy", …});
                    repeatable. With at least one, the ask tool runs a whole ask loop
                    with the agent the client names, under that agent's own policy.
  --script FILE     replies of the scripted provider, for models scripted:ID: a JSON
                    array of envelope strings (for every scripted model) or
                    {"ID": [replies…]}. Each ask starts from the first reply.`;

/** The scripted replies by model id, or one list for every scripted model. */
export type ServeScript = readonly string[] | Readonly<Record<string, readonly string[]>>;

async function readText(option: string, file: string, io: CommandIo): Promise<string> {
  try {
    return await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new CliError('CLI_FILE_UNREADABLE', `${option} ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** Reads and validates every `--agent FILE`; names must be unique. Errors are `CLI_OPTION_INVALID` naming the file. */
export async function loadAgentFiles(files: readonly string[], io: CommandIo): Promise<AgentDefinition[]> {
  const agents: AgentDefinition[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const text = await readText('--agent', file, io);
    let agent: AgentDefinition;
    try {
      agent = parseAgentDefinition(text, { source: file });
    } catch (error) {
      if (isLoopError(error)) throw new CliError('CLI_OPTION_INVALID', `--agent ${file}: ${error.message}`);
      throw error;
    }
    const other = seen.get(agent.name);
    if (other !== undefined) throw new CliError('CLI_OPTION_INVALID', `--agent ${file}: the agent name '${agent.name}' is already used by ${other}`);
    seen.set(agent.name, file);
    agents.push(agent);
  }
  return agents;
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Reads `--script FILE`: a JSON array of reply strings, or an object of such arrays by model id. */
export async function loadServeScript(file: string, io: CommandIo): Promise<ServeScript> {
  const text = await readText('--script', file, io);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError('CLI_OPTION_INVALID', `--script ${file}: not JSON (${(error as Error).message})`);
  }
  if (isStringList(value)) return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isStringList)) return value as Record<string, string[]>;
  throw new CliError('CLI_OPTION_INVALID', `--script ${file}: expected a JSON array of reply strings, or {"MODEL_ID": [reply strings]}`);
}

/** The scripted models the agents name (`scripted:ID`), each with its replies from `script`. */
export function scriptedModels(script: ServeScript, agents: readonly AgentDefinition[]): Record<string, string[]> {
  if (!Array.isArray(script)) return Object.fromEntries(Object.entries(script as Record<string, readonly string[]>).map(([id, replies]) => [id, [...replies]]));
  const models: Record<string, string[]> = {};
  for (const agent of agents) {
    if (agent.model.startsWith('scripted:')) models[agent.model.slice('scripted:'.length)] = [...(script as readonly string[])];
  }
  return models;
}

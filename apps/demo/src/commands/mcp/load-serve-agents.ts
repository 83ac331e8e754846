/**
 * The files behind `askloop mcp serve --agent FILE … [--script FILE]`: agent
 * definitions (JSON or YAML, read by the controller's `parseAgentDefinition`)
 * and the replies of the scripted provider, so the `ask` tool can run a whole
 * ask loop with a named agent — offline, with `scripted:<id>` models.
 */
import type { AgentDefinition } from '@askloop/controller';
import { CliError, usageError } from '../../cli-error.ts';
import { decodeUtf8Input } from '../../decode-text.ts';
import type { CommandIo } from '../../io.ts';
import { readAgentFile } from '../../loop/agent-options.ts';
import { inputName, readInput } from '../../read-input.ts';

/** `parseArgs` option definitions of `--agent` and `--script`. */
export const SERVE_AGENT_OPTIONS = { agent: { type: 'string', multiple: true }, script: { type: 'string' }, db: { type: 'string' } } as const;

/** Usage text of `--agent` and `--script`. */
export const SERVE_AGENT_USAGE = `Agents (the ask tool):
  --agent FILE      an agent definition, JSON or YAML ({"name", "model", "policy", …});
                    repeatable. With at least one, the ask tool runs a whole ask loop
                    with the agent the client names, under that agent's own policy.
  --script FILE     replies of the scripted provider, for models scripted:ID: a JSON
                    array of envelope strings (for every scripted model) or
                    {"ID": [replies…]}. Each ask starts from the first reply.
  --db FILE         keep the ask sessions in this sessions file (SQLite, as
                    askloop run --db) and return each one's sid, so a person
                    can askloop approve/deny a PAUSED one; default: in memory.`;

/** The scripted replies by model id, or one list for every scripted model. */
export type ServeScript = readonly string[] | Readonly<Record<string, readonly string[]>>;

// Standard input carries the MCP protocol over stdio, so no file may be read from it.
function namedFile(option: string, file: string): string {
  if (file === '-') throw usageError(`${option} -: standard input carries the MCP protocol here; give a file`);
  return file;
}

/**
 * Reads every `--agent FILE` as `askloop run` does (capped, strict UTF-8,
 * `LOOP_AGENT_INVALID` naming the file); names must be unique (`CLI_OPTION_INVALID`).
 */
export async function loadAgentFiles(files: readonly string[], io: CommandIo): Promise<AgentDefinition[]> {
  const agents: AgentDefinition[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const agent = await readAgentFile(namedFile('--agent', file), io);
    const other = seen.get(agent.name);
    if (other !== undefined) throw new CliError('CLI_OPTION_INVALID', `--agent ${file}: the agent name '${agent.name}' is already used by ${other}`);
    seen.set(agent.name, file);
    agents.push(agent);
  }
  return agents;
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Reads `--script FILE`: a JSON array of reply strings, or an object of such arrays by model id (`CLI_SCRIPT_INVALID` otherwise). */
export async function loadServeScript(file: string, io: CommandIo): Promise<ServeScript> {
  return readServeScript(namedFile('--script', file), io);
}

/** {@link loadServeScript} for a command whose standard input is free (`-` reads it): `approve`, `deny`, `resume`. */
export async function readServeScript(file: string, io: CommandIo): Promise<ServeScript> {
  const name = inputName(file);
  const text = decodeUtf8Input(await readInput(file, io), name);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError('CLI_SCRIPT_INVALID', `--script: not JSON (${(error as Error).message})`, { file: name });
  }
  if (isStringList(value)) return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isStringList)) return value as Record<string, string[]>;
  throw new CliError('CLI_SCRIPT_INVALID', `--script: ${scriptProblem(value)}`, { file: name });
}

const SCRIPT_SHAPE = 'a JSON array of reply strings, or {"MODEL_ID": [reply strings]}';

/** What is wrong with a `--script` value of neither shape: its first bad entry when it has one (as `run` says). */
function scriptProblem(value: unknown): string {
  const badIn = (list: readonly unknown[]) => list.findIndex((reply) => typeof reply !== 'string');
  if (Array.isArray(value)) return `entry [${badIn(value)}] is not a string; every entry is one whole model reply (expected ${SCRIPT_SHAPE})`;
  if (typeof value !== 'object' || value === null) return `expected ${SCRIPT_SHAPE}`;
  for (const [id, replies] of Object.entries(value)) {
    if (!Array.isArray(replies)) return `"${id}" is not a list of replies (expected ${SCRIPT_SHAPE})`;
    const bad = badIn(replies);
    if (bad !== -1) return `"${id}" entry [${bad}] is not a string; every entry is one whole model reply`;
  }
  return `expected ${SCRIPT_SHAPE}`;
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

/**
 * The options of `askloop run` (and `demo`) that shape the agent: `--agent
 * FILE`, `--model`, `--script`, `--max-turns`, `--no-tool-loop`,
 * `--dialect`, `--repair` and the policy options. Each is checked here, so a
 * bad value is `CLI_OPTION_INVALID` (exit 2) before any session starts; an
 * invalid agent file is `LOOP_AGENT_INVALID` naming the file (exit 1).
 */
import { isLoopError, locateYamlPath, parseAgentDefinition, YAML_READ_OPTIONS, type AgentDefinition, type AgentPolicy, type AskLoopPlugin } from '@askloop/controller';
import { compileToolPattern, isToolError } from '@askloop/tools';
import { LineCounter, parseDocument, type Node } from 'yaml';
import { ConfigError } from '../config/config-error.ts';
import { findSecret } from '../config/find-secret.ts';
import { CliError, usageError } from '../cli-error.ts';
import { decodeUtf8Input } from '../decode-text.ts';
import type { AgentDefaults } from '../config/askloop-config.ts';
import type { CommandIo } from '../io.ts';
import { parseGrantOptions, pluginToolCapabilities } from '../options/check-grant-resources.ts';
import { choiceOption, integerOption } from '../options/parse-options.ts';
import { inputName, readInput } from '../read-input.ts';

/** The scripted model `--script` replies through: `scripted:script`. */
export const SCRIPT_MODEL = 'scripted:script';

/** `parseArgs` definitions of the agent options. */
export const AGENT_OPTIONS = {
  agent: { type: 'string' },
  model: { type: 'string' },
  'max-turns': { type: 'string' },
  'no-tool-loop': { type: 'boolean' },
  dialect: { type: 'string' },
  repair: { type: 'string' },
  allow: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
  grant: { type: 'string', multiple: true },
} as const;

/** Usage lines of the agent options. */
export const AGENT_OPTIONS_USAGE = `  --agent FILE      the agent definition, JSON or YAML (name, model, policy,
                    quotas, ceilings, …), or the NAME of an agent of the
                    config file; the options below override it (with
                    --model or --script, the file may leave model out).
  --model P:M       the model, provider:model — openai:gpt-4.1-mini,
                    anthropic:claude-sonnet-4-5, google:gemini-2.5-flash,
                    ollama:qwen3:8b (keys from OPENAI_API_KEY,
                    ANTHROPIC_API_KEY, GEMINI_API_KEY, OLLAMA_HOST …).
  --max-turns N     turns before HALT ERR_MAX_TURNS_EXCEEDED, 1 to 10000
                    (default 8).
  --no-tool-loop    exactly one turn, whatever the program emits: DONE with
                    its OUTPUT as the result (HALT if the turn fails).
  --dialect v4|v1   the loop control dialect (default v4: <<<LOOP:DONE>>>).
  --repair N        feed the first N failures in a row (bad envelope, syntax,
                    refused program, quota) back to the model instead of
                    halting, 0 to 100 (default 0).
  --allow GLOB      tools the agent may use (repeatable; replaces the agent's
                    list; default: the safe groups tool.str.*, tool.list.*,
                    tool.math.*, tool.json.*, tool.map.*, tool.time.*,
                    tool.memory.*, tool.scratch.*, tool.system.*,
                    tool.policy.*, tool.capsule.*).
  --deny GLOB       tools it may never use (repeatable; replaces the agent's).
  --grant CAP       capabilities, resource:verbs[:scopes] (repeatable;
                    replaces the agent's), e.g. memory:read,write:/ingest/**.`;

/** The parsed agent option values. */
export interface AgentOptionValues {
  agent?: string | undefined;
  model?: string | undefined;
  'max-turns'?: string | undefined;
  'no-tool-loop'?: boolean | undefined;
  dialect?: string | undefined;
  repair?: string | undefined;
  allow?: string[] | undefined;
  deny?: string[] | undefined;
  grant?: string[] | undefined;
}

const invalid = (message: string): CliError => new CliError('CLI_OPTION_INVALID', message);

function checkPatterns(name: string, patterns: readonly string[] | undefined): void {
  for (const pattern of patterns ?? []) {
    try {
      compileToolPattern(pattern);
    } catch (error) {
      throw invalid(`--${name} ${pattern}: ${isToolError(error) ? error.message : String(error)}`);
    }
  }
}

/**
 * Reads `--agent FILE`: capped, strict UTF-8, then validated (`LOOP_AGENT_INVALID` naming the file, path and line;
 * what YAML would read other than written, an unknown tag or a number past 2^53, at FILE:LINE:COLUMN).
 * `model`, when the command line chose one (`--model`, `--script`), stands in for a file that names none.
 */
export async function readAgentFile(file: string, io: CommandIo, model?: string): Promise<AgentDefinition> {
  const name = inputName(file);
  const text = decodeUtf8Input(await readInput(file, io), name);
  refuseWrittenSecret(text, name);
  try {
    // Named, so each of several problems of the file is at its FILE:LINE:COLUMN, as a config file's are.
    // A `${NAME}` in an agent is text for the model, never filled in, so it names no secret (`config-secret-names.ts`).
    return parseAgentDefinition(text, { source: name, ...(model === undefined ? {} : { model }) });
  } catch (error) {
    if (!isLoopError(error)) throw error;
    // A file without a model, run with none: say where one can come from.
    const noModel = model === undefined && /missing required key 'model'/.test(error.message) ? "; give the file 'model: provider:model', or pass --model PROVIDER:MODEL or --script FILE, or set models.default in askloop.config.yaml" : '';
    throw CliError.fromLoopError({ code: error.code, message: `${error.message}${noModel}`, line: error.line, column: error.column }, name);
  }
}

/**
 * The agent of a run: the file's definition (or a bare `cli` agent), with the
 * options applied. `scripted` makes the model the `--script` replies;
 * `plugins` are the config's, whose tools' resources a `--grant` may name.
 */
export async function agentFromOptions(values: AgentOptionValues, scripted: boolean, io: CommandIo, base?: AgentDefinition, defaults?: AgentDefaults, plugins: readonly AskLoopPlugin[] = []): Promise<AgentDefinition> {
  if (scripted && values.model !== undefined) throw usageError('--script and --model both choose the model; give one');
  if (values.model !== undefined && !/^[^:\s]+:\S+$/.test(values.model)) throw invalid(`--model must be provider:model (e.g. openai:gpt-4.1-mini), not '${values.model}'`);
  const maxTurns = integerOption('max-turns', values['max-turns'], { min: 1, max: 10_000, unit: 'turns' });
  const repair = integerOption('repair', values.repair, { min: 0, max: 100, unit: 'failures' });
  const dialect = values.dialect === undefined ? undefined : choiceOption('dialect', values.dialect, ['v4', 'v1'] as const);
  checkPatterns('allow', values.allow);
  checkPatterns('deny', values.deny);
  // A grant may name a resource of the config's plugins' tools (their own, such as `notes`) as well as the built-in ones.
  parseGrantOptions(values.grant, io.cwd, pluginToolCapabilities(plugins));
  // Without --agent, the config's defaults (models.default, settings, quotas, ceilings) shape the bare agent.
  const fromFile: Partial<AgentDefinition> | undefined = base ?? (values.agent === undefined ? (defaults === undefined ? undefined : { name: 'cli', ...defaults }) : await readAgentFile(values.agent, io, scripted ? SCRIPT_MODEL : (values.model ?? defaults?.model)));
  const model = scripted ? SCRIPT_MODEL : (values.model ?? fromFile?.model);
  if (model === undefined) throw usageError('no model: give --model PROVIDER:MODEL, --script FILE, or --agent FILE|NAME (an agent file with a "model", or an agent of askloop.config.yaml), or set models.default in askloop.config.yaml');
  const policy: AgentPolicy = {
    ...fromFile?.policy,
    ...(values.allow === undefined ? {} : { allow: values.allow }),
    ...(values.deny === undefined ? {} : { deny: values.deny }),
    ...(values.grant === undefined ? {} : { grants: values.grant }),
  };
  return {
    name: 'cli',
    ...fromFile,
    model,
    ...(Object.keys(policy).length === 0 ? {} : { policy }),
    ...(maxTurns === undefined ? {} : { ceilings: { ...fromFile?.ceilings, maxTurns } }),
    ...(values['no-tool-loop'] === true ? { toolLoopPermitted: false } : {}),
    ...(dialect === undefined ? {} : { dialect }),
    ...(repair === undefined ? {} : { repair }),
  };
}

/**
 * Refuses (`CONFIG_SECRET`, at its line) a key written into an agent file, as `askloop.config.yaml` refuses one:
 * its instructions are sent to the model every turn and the sessions file keeps the definition. Never quotes it.
 * A file that is no YAML (or JSON) is left to the agent parser to report.
 */
function refuseWrittenSecret(text: string, file: string): void {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, ...YAML_READ_OPTIONS });
  if (document.errors.length > 0) return;
  const secret = findSecret(document.contents as Node | null, () => false);
  if (secret === undefined) return;
  const { line, column } = locateYamlPath(document, lineCounter, secret.path);
  throw new ConfigError('CONFIG_SECRET', secret.message, { file, line, column });
}

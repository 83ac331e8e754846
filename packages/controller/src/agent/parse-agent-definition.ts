/**
 * `parseAgentDefinition(text, { source })`: an agent definition from a JSON or
 * YAML file (YAML 1.2, of which JSON is a subset, so one parser serves both and
 * gives line numbers for both). The text is read as written or refused at its
 * place, as askloop.config.yaml is: a syntax error, then every parser warning
 * (a tag it does not know or the value does not fit), then what it would not
 * read as written (a list as a key, a whole number past 2^53). Merge keys
 * (`<<: *base`) are read, as in askloop.config.yaml. The result is
 * validated field by field; every failure is `LOOP_AGENT_INVALID` naming the
 * source, the path, the line when known, and what was expected.
 */
import { LineCounter, parseDocument } from 'yaml';
import { LoopError } from '../errors/loop-error.ts';
import { listProblems, placeYamlProblem, problemPlace, type PlacedProblem } from '../yaml/file-problems.ts';
import { yamlPathOffset } from '../yaml/locate-yaml-path.ts';
import { YAML_READ_OPTIONS } from '../yaml/yaml-merge.ts';
import type { YamlProblem } from '../yaml/yaml-node-paths.ts';
import { yamlValueProblems } from '../yaml/yaml-value-problems.ts';
import { yamlWarningProblems } from '../yaml/yaml-warning-problems.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { agentDefinitionIssues, formatIssuePath, type AgentDefinitionIssue } from './validate-agent-definition.ts';

/** Options of {@link parseAgentDefinition}. */
export interface ParseAgentDefinitionOptions {
  /** Where the text came from (a file name), prefixed to every message. */
  readonly source?: string;
  /**
   * The model of a definition that names none: the host's own choice (a
   * command line's `--model` or scripted replies), so a file may leave
   * `model` out. A definition's own `model` is kept.
   */
  readonly model?: string;
}

/** Agent files are small; a larger text is refused before parsing. */
export const MAX_AGENT_DEFINITION_CHARS = 256 * 1024;
/** Issues listed in one message; the rest are counted. */
const MAX_LISTED = 8;

function invalid(message: string, source: string | undefined): LoopError {
  return new LoopError({ code: 'LOOP_AGENT_INVALID', message: `${source === undefined ? '' : `${source}: `}${message}` });
}

/**
 * The problems of the text at their places, as one error: `SOURCE:LINE:COLUMN: …`
 * (`line L, column C: …` without a source), the first's place also as the
 * error's `line` and `column`.
 */
function invalidAt(problems: readonly Required<PlacedProblem>[], source: string | undefined): LoopError {
  const { first, message } = listProblems(problems, source, MAX_LISTED);
  return new LoopError({ code: 'LOOP_AGENT_INVALID', message: `${problemPlace(source, first.line, first.column)}: ${message}`, line: first.line, column: first.column });
}

/**
 * Parses and validates an agent definition. Unknown keys are refused (with a
 * did-you-mean), so a misspelt `maxTurn` never falls back to a default.
 * Throws `LOOP_AGENT_INVALID`.
 */
export function parseAgentDefinition(text: string, options: ParseAgentDefinitionOptions = {}): AgentDefinition {
  const { source } = options;
  if (text.length > MAX_AGENT_DEFINITION_CHARS) throw invalid(`larger than ${MAX_AGENT_DEFINITION_CHARS} characters; an agent definition is a few lines`, source);
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, ...YAML_READ_OPTIONS });
  const syntax = document.errors[0];
  if (syntax !== undefined) {
    const { line, col } = lineCounter.linePos(syntax.pos[0]);
    throw invalidAt([{ line, column: col, message: `not valid JSON or YAML: ${syntax.message.split('\n')[0]}` }], source);
  }
  // What the parser only warns about (`!!flaot 8` read as the text "8"), then what it reads without a word but not as
  // written (a list as a key made into text, 9007199254740993 into 9007199254740992): each at its place.
  const located = (problems: readonly YamlProblem[]) => problems.map((problem) => placeYamlProblem(problem, lineCounter));
  const warnings = yamlWarningProblems(document, text);
  if (warnings.length > 0) throw invalidAt(located(warnings), source);
  const unreadable = yamlValueProblems(document);
  if (unreadable.length > 0) throw invalidAt(located(unreadable), source);
  let value: unknown;
  try {
    // Aliases are capped so a "billion laughs" file cannot expand without bound.
    value = document.toJS({ maxAliasCount: 50 });
  } catch (error) {
    throw invalid(`cannot read the definition: ${error instanceof Error ? error.message : String(error)}`, source);
  }
  // Only a map without the key gets the host's model: anything else is reported as the file has it.
  if (options.model !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value) && !Object.hasOwn(value, 'model')) {
    value = { ...(value as Record<string, unknown>), model: options.model };
  }
  const issues = agentDefinitionIssues(value);
  if (issues.length > 0) {
    const located = (issue: AgentDefinitionIssue): string => {
      const offset = yamlPathOffset(document, issue.path, issue.message.startsWith('unknown key'));
      const where = offset === undefined ? '' : ` (line ${lineCounter.linePos(offset).line})`;
      return `${formatIssuePath(issue.path)}${where}: ${issue.message}`;
    };
    const listed = issues.slice(0, MAX_LISTED).map(located);
    const more = issues.length > MAX_LISTED ? `; and ${issues.length - MAX_LISTED} more` : '';
    throw invalid(`invalid agent definition: ${listed.join('; ')}${more}`, source);
  }
  return value as AgentDefinition;
}

/**
 * Validates a definition built in code (the same checks as a file, without
 * lines). Returns it unchanged; throws `LOOP_AGENT_INVALID` naming every bad path.
 */
export function validateAgentDefinition(definition: unknown): AgentDefinition {
  const issues = agentDefinitionIssues(definition);
  if (issues.length > 0) throw invalid(`invalid agent definition: ${issues.slice(0, MAX_LISTED).map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`).join('; ')}`, undefined);
  return definition as AgentDefinition;
}

/**
 * `parseMcpConfigText(text, file)`: the servers of an `--mcp-config` file,
 * read as written or refused at FILE:LINE:COLUMN (`CLI_OPTION_INVALID`), as
 * askloop.config.yaml is read, with the YAML checks the controller exports.
 */
import { extname } from 'node:path';
import { listProblems, locateYamlPath, placeYamlProblem, YAML_READ_OPTIONS, yamlValueProblems, yamlWarningProblems, type YamlProblem } from '@askloop/controller';
import { isAskLoopMcpError, parseMcpConfig, type McpServersConfig } from '@askloop/mcp';
import { LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { CliError } from '../../cli-error.ts';
import { findSecret } from '../../config/find-secret.ts';

/** Problems of the file shown at most, as the config file's; the count of the rest follows. */
const MAX_PROBLEMS_SHOWN = 20;

/**
 * The servers of an `--mcp-config` file's text, JSON or (when `file` ends in
 * .yaml or .yml) YAML, as written: `${NAME}` references are left for
 * `loadMcpToolSource` to fill. Every problem is `CLI_OPTION_INVALID`,
 * at its line and column when it has one: the syntax, the YAML parser's
 * warnings (an unknown tag, one its value does not fit), a key written into
 * the file, what the parser would not read as written (a list as a key, a
 * whole number past 2^53), then a server's fields (`parseMcpConfig`).
 */
export function parseMcpConfigText(text: string, file: string): McpServersConfig {
  const yaml = ['.yaml', '.yml'].includes(extname(file).toLowerCase());
  // JSON is YAML 1.2: one parser gives the places in both forms, and finds a JSON file's numbers past 2^53 too.
  const lineCounter = new LineCounter();
  // A lone carriage return (an old Mac line end) is whitespace to JSON, but the YAML reader took it for neither
  // space nor line end, misread the file around it and missed a key given twice: read as a line feed, the same
  // offsets (JSON holds no raw carriage return inside a string).
  const source = yaml ? text : text.replace(/\r(?!\n)/g, '\n');
  const document = parseDocument(source, { lineCounter, ...YAML_READ_OPTIONS });
  const refuse = (problems: readonly { line: number; column: number; message: string }[]): CliError => {
    const { first, message } = listProblems(problems, file, MAX_PROBLEMS_SHOWN);
    return new CliError('CLI_OPTION_INVALID', `--mcp-config ${file}: ${message}`, { file, line: first.line, column: first.column });
  };
  const placed = (problems: readonly YamlProblem[]) => problems.map((problem) => placeYamlProblem(problem, lineCounter));
  let value: unknown;
  if (yaml) {
    const syntax = document.errors[0];
    if (syntax !== undefined) throw refuse(placed([{ offset: syntax.pos[0], path: undefined, message: `not YAML (${syntax.message.split('\n')[0]})` }]));
  } else {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new CliError('CLI_OPTION_INVALID', `--mcp-config ${file}: not JSON (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
    // JSON.parse keeps a key's last value and drops the others without a word: a server written twice is refused.
    const duplicates = document.errors.filter((error) => error.code === 'DUPLICATE_KEY');
    if (duplicates.length > 0) {
      throw refuse(placed(duplicates.map((error) => ({ offset: error.pos[0], path: undefined, message: `a key given twice in one object (JSON would keep only its last value): ${duplicateKeyName(text, error.pos[0])}write it once` }))));
    }
  }
  // A JSON text the YAML parser refuses for anything but a key given twice (refused above) skips these checks.
  const readable = document.errors.length === 0;
  // An unknown tag, or one its value does not fit (`!!float 1` read as the text "1"): a mistake, not a warning.
  const warnings = readable ? yamlWarningProblems(document, text) : [];
  if (warnings.length > 0) throw refuse(placed(warnings));
  const locate = refuseWrittenSecret(document, lineCounter, file);
  // A list as a key would become text, 9007199254740993 the nearest double: refused before the file becomes data.
  const unreadable = readable ? yamlValueProblems(document) : [];
  if (unreadable.length > 0) throw refuse(placed(unreadable));
  if (yaml) {
    try {
      // YAML aliases are capped so a "billion laughs" file cannot expand without bound.
      value = document.toJS({ maxAliasCount: 50 });
    } catch (error) {
      throw new CliError('CLI_OPTION_INVALID', `--mcp-config ${file}: not YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  }
  try {
    return parseMcpConfig(value);
  } catch (error) {
    // At the field the parser names (`servers.gh.args`), as a config file's problems are.
    if (isAskLoopMcpError(error)) throw new CliError('CLI_OPTION_INVALID', `--mcp-config ${file}: ${error.message}`, error.configPath === undefined ? {} : { file, ...locate(error.configPath) });
    throw error;
  }
}

/** The JSON key written at `offset` (a quoted string), named for the message, or nothing when it cannot be read. */
function duplicateKeyName(text: string, offset: number): string {
  const quoted = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(offset, offset + 200))?.[0];
  if (quoted === undefined) return '';
  try {
    return `${JSON.stringify(JSON.parse(quoted) as string)} is one; `;
  } catch {
    return '';
  }
}

/**
 * Returns a function that locates a path of the file (line and column).
 * A key written into the file (a literal `Authorization: Bearer …`, an `OPENAI_API_KEY` value, a key-shaped string)
 * is refused as `askloop.config.yaml` refuses it (its `CONFIG_SECRET`): keys stay out of files, and come from the
 * environment through `${NAME}` in `env` and `headers`. JSON is YAML 1.2, so both forms are scanned alike.
 */
function refuseWrittenSecret(document: Document, lineCounter: LineCounter, file: string): (path: readonly (string | number)[]) => { line: number; column: number } {
  const locate = (path: readonly (string | number)[]) => locateYamlPath(document, lineCounter, path);
  const referenceAllowed = (path: readonly (string | number)[]): boolean => path[0] === 'servers' && (path[2] === 'env' || path[2] === 'headers') && path.length === 4;
  const secret = findSecret(document.contents as Node | null, referenceAllowed);
  if (secret === undefined) return locate;
  throw new CliError('CLI_OPTION_INVALID', `--mcp-config ${file}: ${secret.message}`, { file, ...locate(secret.path) });
}

/**
 * A schema problem of askloop.config.yaml in the file's words. zod says
 * `Invalid input: expected record, received array`; a user wants what the
 * key holds and what they wrote: `expected a map of agent names to agent
 * definitions, got a list`.
 */
import { describeGiven } from '@askloop/controller';

/** What each top-level key (and `models.default`) holds, as the type error says it. */
const EXPECTED: Readonly<Record<string, string>> = {
  plugins: 'a list of plugin package names (or package: NAME with options: { … })',
  store: 'a postgres:// URL, or a map with path: FILE',
  models: 'a map with default and settings',
  'models.default': "'provider:model' text, e.g. 'openai:gpt-4.1-mini'",
  'models.settings': 'a map of model settings',
  providers: 'a map of built-in provider names (openai, anthropic, google, ollama) to their settings',
  quotas: 'a map of quotas',
  ceilings: 'a map of ceilings',
  agents: 'a map of agent names to agent definitions',
  mcpServers: 'a map of server names to server settings',
};

/** zod's words for a type, in the file's. */
const TYPE_WORDS: Readonly<Record<string, string>> = { object: 'a map', record: 'a map', array: 'a list', string: 'text', number: 'a number', int: 'a whole number', boolean: 'true or false' };

/** The value at `path` of the parsed file. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const part of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[part] : undefined;
  return value;
}

/** The message of one schema issue: a type error reworded, any other as the schema wrote it. */
export function configIssueMessage(issue: { readonly code: string; readonly message: string; readonly path: readonly PropertyKey[]; readonly expected?: string }, file: unknown): string {
  if (issue.code !== 'invalid_type') return issue.message;
  const key = issue.path.map(String).join('.');
  // An entry of a top-level list or map: each agent and each MCP server is a map (its fields are checked by their own validators).
  const within = { agents: 'an agent definition (a map)', mcpServers: "a server's settings (a map)", plugins: 'a plugin package name (text), or a map with package and options' }[String(issue.path[0])];
  const options = issue.path[0] === 'plugins' && issue.path[2] === 'options' && issue.path.length === 3 ? "the plugin's options as a map (options: { name: value, … })" : undefined;
  const expected = EXPECTED[key] ?? (issue.path.length === 2 ? within : undefined) ?? options ?? TYPE_WORDS[issue.expected ?? ''] ?? issue.expected ?? 'another type';
  return `expected ${expected}, got ${describeGiven(valueAt(file, issue.path))}`;
}

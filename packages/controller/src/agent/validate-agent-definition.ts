/**
 * Validates an agent definition given as plain data (parsed from a file, or
 * built in code) against the shape of `AgentDefinition`, field by field. Every
 * problem is an issue naming its path (`ceilings.maxTurns`,
 * `policy.allow[2]`) and what was expected; unknown keys are refused with a
 * did-you-mean, so a typo never silently falls back to a default.
 */
import { compileToolPattern, editDistance, parseGrant } from '@askloop/tools';
import { MAX_TURN_INDEX } from '../store/store-keys.ts';
import type { AgentDefinition } from './agent-definition.ts';

/** One problem of a definition: where (`ceilings.maxTurns`; empty at the top level) and what was expected. */
export interface AgentDefinitionIssue {
  /** The path as keys and indexes, for locating the value in its source. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

type Field =
  | { readonly kind: 'string'; readonly check?: (text: string) => string | undefined }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'integer'; readonly min: number; readonly max?: number; readonly why?: string }
  | { readonly kind: 'number'; readonly min: number; readonly max?: number }
  | { readonly kind: 'choice'; readonly values: readonly string[] }
  | { readonly kind: 'list'; readonly item: Field }
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, Field>>; readonly required?: readonly string[] }
  | { readonly kind: 'record'; readonly value: Field };

const NAME = /^[a-z][a-z0-9_-]*$/;
const MODEL = /^[^:\s]+:\S+$/;
/**
 * The longest wall clock in ms: Node's timers take at most 2^31 − 1 ms (about 24.8 days) and fire a longer one at
 * once, which made every model call of an agent with a larger `ceilings.wallMs` time out after 1 ms.
 */
const MAX_WALL_MS = 2 ** 31 - 1;
const count = (min: number, max?: number): Field => (max === undefined ? { kind: 'integer', min } : { kind: 'integer', min, max });
const text: Field = { kind: 'string' };
const flag: Field = { kind: 'boolean' };
const failure = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function checked(test: (value: string) => void): Field {
  return {
    kind: 'string',
    check: (value) => {
      try {
        test(value);
        return undefined;
      } catch (error) {
        return failure(error);
      }
    },
  };
}

const CALL_LIMIT: Field = { kind: 'object', fields: { perTurn: count(0), perSession: count(0) } };

/**
 * The fields of `AgentDefinition`, as data: adding a field to the interface means adding it here, which the
 * compiler holds to (`satisfies` wants every key of the interface, and no other).
 */
const AGENT_FIELDS = {
  name: { kind: 'string', check: (value) => (NAME.test(value) ? undefined : 'expected a name of lower-case letters, digits, _ and -, starting with a letter') },
  model: { kind: 'string', check: (value) => (MODEL.test(value) ? undefined : "expected 'provider:model', e.g. 'openai:gpt-4.1-mini'") },
  description: text,
  settings: {
    kind: 'object',
    fields: {
      temperature: { kind: 'number', min: 0, max: 2 },
      topP: { kind: 'number', min: 0, max: 1 },
      topK: count(1),
      maxOutputTokens: count(1),
      stopSequences: { kind: 'list', item: text },
      seed: count(0),
    },
  },
  dialect: { kind: 'choice', values: ['v4', 'v1'] },
  toolLoopPermitted: flag,
  instructions: text,
  policy: {
    kind: 'object',
    fields: {
      allow: { kind: 'list', item: checked((value) => compileToolPattern(value)) },
      deny: { kind: 'list', item: checked((value) => compileToolPattern(value)) },
      grants: { kind: 'list', item: checked((value) => parseGrant(value)) },
      trusted: flag,
      limits: { kind: 'object', fields: { perTurn: count(0), perSession: count(0), tools: { kind: 'record', value: CALL_LIMIT } } },
    },
  },
  quotas: {
    kind: 'object',
    fields: { fuel: count(1), wallMs: count(1, MAX_WALL_MS), memoryMb: count(8), toolCalls: count(0), outputBytes: count(1), scratchpadBytes: count(1) },
  },
  ceilings: {
    kind: 'object',
    // One turn under the highest turn index every store holds: an `answer-now` turn may follow the last.
    fields: { maxTurns: count(1, MAX_TURN_INDEX - 1), wallMs: count(1, MAX_WALL_MS), fuel: count(1), tokens: count(1), costUsd: { kind: 'number', min: 0 }, toolCalls: count(0) },
  },
  // The first sighting of a digest counts as one of the N (seed 002 §6): with 1, the first turn that is not DONE halted.
  noProgressN: { kind: 'integer', min: 2, why: 'the first turn with a digest counts as one of them, so 1 would halt every turn that is not DONE' },
  nudge: flag,
  repair: count(0),
  maxErrorStreak: count(1),
  answerNow: flag,
  maxAskDepth: count(0),
  asks: { kind: 'list', item: { kind: 'string', check: (value) => (value === '*' || NAME.test(value) ? undefined : "expected an agent's name, or '*' for any agent") } },
} satisfies Record<keyof AgentDefinition, Field>;

/** The shape of `AgentDefinition`: its fields, two of them required. */
const AGENT: Field = { kind: 'object', required: ['name', 'model'], fields: AGENT_FIELDS };

/** `ceilings.maxTurns`, `policy.allow[2]`; the top level is `(top level)`. */
export function formatIssuePath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out === '' ? '(top level)' : out;
}

/** How a value given in a definition or a config file reads in an error: `a list`, `a map`, `the string "x"`, `number 5`, `boolean true`, `null`, or `nothing (the key is missing)`. */
export function describeGiven(value: unknown): string {
  if (value === undefined) return 'nothing (the key is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

/** The known key closest to `key` (case-insensitive equality, or at most a third of its letters off), if any. */
export function didYouMean(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase().replaceAll(/[_-]/g, '');
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const score = name.toLowerCase() === lower ? 0 : editDistance(lower, name.toLowerCase());
    if (score <= Math.max(1, Math.floor(name.length / 3)) && (best === undefined || score < best.score)) best = { name, score };
  }
  return best?.name;
}

function walk(field: Field, value: unknown, path: (string | number)[], issues: AgentDefinitionIssue[]): void {
  const issue = (message: string, at: readonly (string | number)[] = path) => issues.push({ path: [...at], message });
  switch (field.kind) {
    case 'string': {
      if (typeof value !== 'string') return void issue(`expected a string, got ${describeGiven(value)}`);
      const problem = field.check?.(value);
      if (problem !== undefined) issue(problem);
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean') issue(`expected true or false, got ${describeGiven(value)}`);
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < field.min) issue(`expected a whole number ≥ ${field.min}${field.why === undefined ? '' : ` (${field.why})`}, got ${describeGiven(value)}`);
      else if (field.max !== undefined && value > field.max) issue(`expected a whole number from ${field.min} to ${field.max}, got ${describeGiven(value)}`);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || value < field.min || (field.max !== undefined && value > field.max)) {
        issue(`expected a number from ${field.min}${field.max === undefined ? '' : ` to ${field.max}`}, got ${describeGiven(value)}`);
      }
      return;
    case 'choice':
      if (typeof value !== 'string' || !field.values.includes(value)) issue(`expected one of ${field.values.map((choice) => `'${choice}'`).join(', ')}, got ${describeGiven(value)}`);
      return;
    case 'list':
      if (!Array.isArray(value)) return void issue(`expected a list, got ${describeGiven(value)}`);
      value.forEach((item, index) => walk(field.item, item, [...path, index], issues));
      return;
    case 'record':
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return void issue(`expected a map, got ${describeGiven(value)}`);
      const entries = Object.entries(value);
      if (field.kind === 'record') {
        for (const [key, item] of entries) walk(field.value, item, [...path, key], issues);
        return;
      }
      const known = Object.keys(field.fields);
      for (const name of field.required ?? []) if (!Object.hasOwn(value, name)) issue(`missing required key '${name}'`);
      for (const [key, item] of entries) {
        const child = Object.hasOwn(field.fields, key) ? field.fields[key] : undefined;
        if (child === undefined) {
          const guess = didYouMean(key, known);
          issue(`unknown key '${key}'${guess === undefined ? '' : `; did you mean '${guess}'?`} (known: ${known.join(', ')})`, [...path, key]);
        } else walk(child, item, [...path, key], issues);
      }
      return;
    }
  }
}

/** Every problem of `value` as an agent definition (empty when it is valid). */
export function agentDefinitionIssues(value: unknown): AgentDefinitionIssue[] {
  const issues: AgentDefinitionIssue[] = [];
  walk(AGENT, value, [], issues);
  return issues;
}

/**
 * An agent definition's YAML is read as written or refused at its place, as
 * askloop.config.yaml's is. What the parser read other than written used to
 * pass in silence:
 *
 * - a tag it does not know (`!!flaot 8`, `!custom x`) or one its value does
 *   not fit (`!!float 1`): a warning only, and the value became text ("8"),
 *   so `ceilings.maxTurns: !!flaot 8` was refused as "got the string" and
 *   `instructions: !custom x` was taken as "x";
 * - a key that is a list or a map (`? [a, b]`): made into text, with a
 *   warning Node printed on standard error;
 * - a whole number beyond 2^53 − 1: read as the nearest double, so
 *   `ceilings.tokens: 9007199254740993` became 9007199254740992.
 *
 * Each is LOOP_AGENT_INVALID at SOURCE:LINE:COLUMN (`line L, column C`
 * without a source), with the place on the error as `line` and `column`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isLoopError, type LoopError } from '../errors/loop-error.ts';
import { parseAgentDefinition, type ParseAgentDefinitionOptions } from './parse-agent-definition.ts';

/** How the fix of an unknown tag ends: drop it, or a tag YAML reads. */
const DROP = 'drop it (a value\'s form gives its type: 8 is a whole number, 1.5 a number, true a boolean, "8" text) or use a tag YAML 1.2 reads: !!str, !!int, !!float, !!bool, !!null';
/** What a list as a key is told. */
const LIST_KEY = "a key that is a list; the file's keys are names: write the name as text (in quotes if it holds [ ] { } or a comma), or put the list after a key (name: [a, b])";
/** The middle of the message of a whole number too large to read exactly. */
const TOO_LARGE = 'is too large a whole number to be read exactly (whole numbers are exact up to 9007199254740991, either side of zero)';

const AGENT = 'name: planner\nmodel: openai:gpt-4.1-mini\n';

/** The LOOP_AGENT_INVALID a parse throws. */
function refusal(text: string, options: ParseAgentDefinitionOptions = { source: 'planner.yaml' }): LoopError {
  try {
    parseAgentDefinition(text, options);
  } catch (error) {
    if (isLoopError(error) && error.code === 'LOOP_AGENT_INVALID') return error;
    throw error;
  }
  throw new Error('expected LOOP_AGENT_INVALID, nothing was thrown');
}

describe('an agent definition refuses what YAML would read other than written, at its place', () => {
  it.each([
    ['a misspelt tag', `${AGENT}ceilings:\n  maxTurns: !!flaot 8\n`, 4, 13, `ceilings.maxTurns: unknown tag !!flaot (did you mean !!float?); ${DROP}`],
    ['a local tag', `${AGENT}instructions: !custom Plan first.\n`, 3, 15, `instructions: unknown tag !custom; ${DROP}`],
    ['a tag its value does not fit', `${AGENT}ceilings: { costUsd: !!float 1 }\n`, 3, 22, 'ceilings.costUsd: !!float does not fit this value: a !!float is a number with a point or an exponent (1.0, 2.5e3); write the value so, or drop the tag'],
    ['a list as a key', `${AGENT}policy:\n  ? [allow, deny]\n  : [tool.str.*]\n`, 4, 5, `policy: ${LIST_KEY}`],
    ['a whole number too large', `${AGENT}ceilings:\n  tokens: 9007199254740993\n`, 4, 11, `ceilings.tokens: 9007199254740993 ${TOO_LARGE}: it would be read as 9007199254740992; quote it ("9007199254740993") if it is an identifier, or use a smaller number`],
  ])('%s', (_label, text, line, column, message) => {
    const error = refusal(text);
    expect(error.message).toBe(`planner.yaml:${line}:${column}: ${message}`);
    expect(error).toMatchObject({ line, column });
    expect(error.toJSON()).toMatchObject({ code: 'LOOP_AGENT_INVALID', line, column });
  });

  it('a whole number too large in JSON too (JSON is YAML 1.2, read by the same parser)', () => {
    const error = refusal('{"name": "planner", "model": "openai:gpt-4.1-mini", "ceilings": {"tokens": 12345678901234567890}}', { source: 'planner.json' });
    expect(error.message).toBe(`planner.json:1:76: ceilings.tokens: 12345678901234567890 ${TOO_LARGE}: it would be read as 12345678901234567000; quote it ("12345678901234567890") if it is an identifier, or use a smaller number`);
  });

  it('says line and column without a source', () => {
    expect(refusal(`${AGENT}ceilings:\n  maxTurns: !!flaot 8\n`, {}).message).toBe(`line 4, column 13: ceilings.maxTurns: unknown tag !!flaot (did you mean !!float?); ${DROP}`);
  });

  it('lists every problem of a kind, in the order written, each at its place', () => {
    const error = refusal(`${AGENT}ceilings:\n  maxTurns: !!flaot 8\n  tokens: !!int lots\n`);
    expect(error).toMatchObject({ line: 4, column: 13 });
    expect(error.message).toBe(
      [
        `planner.yaml:4:13: ceilings.maxTurns: unknown tag !!flaot (did you mean !!float?); ${DROP} (2 problems in the file; the others below)`,
        'planner.yaml:5:11: ceilings.tokens: !!int does not fit this value: a !!int is a whole number (42, -7, 0x2A); write the value so, or drop the tag',
      ].join('\n'),
    );
  });

  it('a syntax error carries its place too', () => {
    const error = refusal('name: a\nmodel: [unclosed\n');
    expect(error.message).toMatch(/^planner\.yaml:3:1: not valid JSON or YAML: /);
    expect(error).toMatchObject({ line: 3, column: 1 });
  });

  it('still reads the tags YAML knows, a large id in quotes and the largest exact whole number', () => {
    const text = `${AGENT}description: !!str 8\nrepair: !!int "2"\nceilings: { tokens: 9007199254740991, costUsd: !!float 1.5 }\ninstructions: "12345678901234567890"\n`;
    expect(parseAgentDefinition(text)).toMatchObject({ description: '8', repair: 2, ceilings: { tokens: 9007199254740991, costUsd: 1.5 }, instructions: '12345678901234567890' });
  });
});

describe('merge keys (<<: *base), read as in askloop.config.yaml', () => {
  const SHARED = 'shared: &shared\n  ceilings: { maxTurns: 4 }\n  instructions: Plan first.\n';

  it('copy the keys of the map named; the definition\'s own keys win', () => {
    const text = `name: planner\nmodel: openai:gpt-4.1-mini\n<<: { ceilings: { maxTurns: 4 }, instructions: Plan first., description: merged }\ninstructions: Its own.\n`;
    expect(parseAgentDefinition(text)).toMatchObject({ ceilings: { maxTurns: 4 }, instructions: 'Its own.', description: 'merged' });
  });

  it('a wrong merged value is named by its path and placed where it is written', () => {
    const text = `${AGENT}<<: { ceilings: { maxTurns: 0 } }\n`;
    expect(refusal(text).message).toBe('planner.yaml: invalid agent definition: ceilings.maxTurns (line 3): expected a whole number ≥ 1, got number 0');
  });

  it('a merge of something other than maps is refused at its value', () => {
    const error = refusal(`${AGENT}<<: [{ description: a }, 5]\n`);
    expect(error.message).toBe('planner.yaml:3:5: (top level): a merge key (<<) takes a map, an alias of one (<<: *base) or a list of them (<<: [*base, *more]): their keys are copied into this map');
    expect(error).toMatchObject({ line: 3, column: 5 });
  });

  it('an alias of a map in the same file merges (its anchor then is a key of the definition, which is refused)', () => {
    expect(refusal(`${AGENT}${SHARED}<<: *shared\n`).message).toContain("shared (line 3): unknown key 'shared'");
  });
});

describe('the agent files of the repository still load', () => {
  const folder = new URL('../../test/conformance/', import.meta.url);
  const cases = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);

  it('has the conformance cases to read', () => {
    expect(cases.length).toBeGreaterThan(60);
  });

  it.each(cases)('conformance/%s/agent.json', (name) => {
    const text = readFileSync(new URL(`${name}/agent.json`, folder), 'utf8');
    expect(parseAgentDefinition(text, { source: `${name}/agent.json`, model: 'scripted:conformance' })).toMatchObject(JSON.parse(text) as object);
  });
});

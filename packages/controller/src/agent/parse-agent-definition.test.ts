import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { isLoopError } from '../errors/loop-error.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { parseAgentDefinition, validateAgentDefinition } from './parse-agent-definition.ts';
import { didYouMean } from './validate-agent-definition.ts';

/** The error a call throws, asserted to be LOOP_AGENT_INVALID. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(isLoopError(error) && error.code).toBe('LOOP_AGENT_INVALID');
    return (error as Error).message;
  }
  throw new Error('expected LOOP_AGENT_INVALID, nothing was thrown');
}

const YAML_AGENT = `# a planner
name: planner
model: openai:gpt-4.1-mini
dialect: v4
instructions: |
  Plan first, then apply.
policy:
  allow: [tool.str.*, tool.memory.*]
  grants:
    - memory:read,write:/ingest/**
ceilings:
  maxTurns: 6
  costUsd: 0.5
repair: 1
`;

describe('parseAgentDefinition', () => {
  it('reads YAML and JSON into the same definition', () => {
    const fromYaml = parseAgentDefinition(YAML_AGENT, { source: 'planner.yaml' });
    expect(fromYaml).toEqual({
      name: 'planner',
      model: 'openai:gpt-4.1-mini',
      dialect: 'v4',
      instructions: 'Plan first, then apply.\n',
      policy: { allow: ['tool.str.*', 'tool.memory.*'], grants: ['memory:read,write:/ingest/**'] },
      ceilings: { maxTurns: 6, costUsd: 0.5 },
      repair: 1,
    });
    expect(parseAgentDefinition(JSON.stringify(fromYaml, null, 2), { source: 'planner.json' })).toEqual(fromYaml);
  });

  it('names the source, the path, the line and what was expected', () => {
    const message = refusal(() => parseAgentDefinition(YAML_AGENT.replace('maxTurns: 6', 'maxTurns: six'), { source: 'planner.yaml' }));
    expect(message).toBe("planner.yaml: invalid agent definition: ceilings.maxTurns (line 12): expected a whole number ≥ 1, got the string \"six\"");
  });

  it('bounds ceilings.maxTurns one under the highest turn index every store holds (2^31 − 1), for the answer-now turn after the last', () => {
    const message = refusal(() => parseAgentDefinition(YAML_AGENT.replace('maxTurns: 6', 'maxTurns: 2147483647'), { source: 'planner.yaml' }));
    expect(message).toBe('planner.yaml: invalid agent definition: ceilings.maxTurns (line 12): expected a whole number from 1 to 2147483646, got number 2147483647');
    expect(parseAgentDefinition(YAML_AGENT.replace('maxTurns: 6', 'maxTurns: 2147483646')).ceilings?.maxTurns).toBe(2 ** 31 - 2);
  });

  it('bounds ceilings.wallMs and quotas.wallMs at the longest timer (2^31 − 1 ms): a longer one fired at once and timed out every model call', () => {
    const agent = (wall: string) => ({ name: 'x', model: 'openai:gpt-x', ceilings: { wallMs: Number(wall) }, quotas: { wallMs: Number(wall) } });
    const message = refusal(() => parseAgentDefinition(JSON.stringify(agent('4000000000')), { source: 'x.json' }));
    expect(message).toBe('x.json: invalid agent definition: ceilings.wallMs (line 1): expected a whole number from 1 to 2147483647, got number 4000000000; quotas.wallMs (line 1): expected a whole number from 1 to 2147483647, got number 4000000000');
    const ceiling = refusal(() => parseAgentDefinition(JSON.stringify({ ...agent('1000'), ceilings: { wallMs: 2 ** 31 } }), { source: 'x.json' }));
    expect(ceiling).toMatch(/ceilings\.wallMs .*expected a whole number from 1 to 2147483647, got number 2147483648/);
    expect(parseAgentDefinition(JSON.stringify(agent('2147483647'))).ceilings?.wallMs).toBe(2 ** 31 - 1);
  });

  it('refuses an unknown key with a did-you-mean, at the key line', () => {
    const message = refusal(() => parseAgentDefinition(YAML_AGENT.replace('maxTurns: 6', 'maxTurn: 6'), { source: 'a.yaml' }));
    expect(message).toContain("ceilings.maxTurn (line 12): unknown key 'maxTurn'; did you mean 'maxTurns'?");
    expect(refusal(() => parseAgentDefinition('{"name":"a","model":"x:y","Dialect":"v1"}'))).toContain("unknown key 'Dialect'; did you mean 'dialect'?");
  });

  it('names list items and bad globs or grants by index', () => {
    const message = refusal(() => parseAgentDefinition('{"name":"a","model":"x:y","policy":{"allow":["tool.str.*","tool.$bad"],"grants":["nocolon"]}}', { source: 'a.json' }));
    expect(message).toMatch(/^a\.json: invalid agent definition: policy\.allow\[1\] \(line 1\): .+; policy\.grants\[0\] \(line 1\): .+/);
  });

  it('lists missing required keys and wrong types, every one', () => {
    const message = refusal(() => parseAgentDefinition('dialect: v3\nnudge: "yes"\n'));
    expect(message).toContain("(top level) (line 1): missing required key 'name'");
    expect(message).toContain("missing required key 'model'");
    expect(message).toContain("dialect (line 1): expected one of 'v4', 'v1', got the string \"v3\"");
    expect(message).toContain('nudge (line 2): expected true or false, got the string "yes"');
  });

  it("takes the host's model for a definition that names none, and keeps a definition's own", () => {
    expect(parseAgentDefinition('name: slow\n', { model: 'scripted:script' })).toEqual({ name: 'slow', model: 'scripted:script' });
    expect(parseAgentDefinition('name: slow\nmodel: openai:gpt-4.1-mini\n', { model: 'scripted:script' }).model).toBe('openai:gpt-4.1-mini');
    expect(refusal(() => parseAgentDefinition('name: slow\n'))).toContain("missing required key 'model'");
    // A bad model of the host's is reported as any bad model.
    expect(refusal(() => parseAgentDefinition('name: slow\n', { model: 'gpt4' }))).toContain("expected 'provider:model'");
  });

  it('refuses syntax errors with the line, non-maps, bad model ids and duplicate keys', () => {
    expect(refusal(() => parseAgentDefinition('name: a\nmodel: [unclosed\n', { source: 'x.yaml' }))).toMatch(/^x\.yaml:3:1: not valid JSON or YAML/);
    expect(refusal(() => parseAgentDefinition('[1, 2]'))).toContain('(top level) (line 1): expected a map, got a list');
    expect(refusal(() => parseAgentDefinition(''))).toContain('expected a map, got null');
    expect(refusal(() => parseAgentDefinition('name: a\nmodel: gpt4\n'))).toContain("model (line 2): expected 'provider:model'");
    expect(refusal(() => parseAgentDefinition('name: a\nname: b\nmodel: x:y\n'))).toContain('line 2');
    expect(refusal(() => parseAgentDefinition('name: Bad Name\nmodel: x:y\n'))).toContain('name (line 1): expected a name of lower-case letters');
  });

  it('refuses alias bombs and oversized texts instead of expanding them', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, level) => `${String.fromCharCode(98 + level)}: &${String.fromCharCode(98 + level)} [${Array(9).fill(`*${String.fromCharCode(97 + level)}`).join(', ')}]`)].join('\n');
    expect(refusal(() => parseAgentDefinition(bomb))).toContain('cannot read the definition: Excessive alias count');
    expect(refusal(() => parseAgentDefinition(`name: a\nmodel: x:y\ndescription: ${'x'.repeat(300_000)}\n`))).toContain('larger than');
  });

  it('validates definitions from code the same way', () => {
    const definition: AgentDefinition = { name: 'coder', model: 'anthropic:claude-sonnet-4-5', repair: 2 };
    expect(validateAgentDefinition(definition)).toBe(definition);
    expect(refusal(() => validateAgentDefinition({ ...definition, repair: -1 }))).toBe('invalid agent definition: repair: expected a whole number ≥ 0, got number -1');
  });

  // Spec audit: the first sighting of a digest counts as one of the N, so noProgressN 1 halted the first turn that
  // was not DONE (its output new), before any digest had repeated.
  it('refuses a noProgressN below 2, saying why', () => {
    const definition: AgentDefinition = { name: 'coder', model: 'anthropic:claude-sonnet-4-5' };
    expect(refusal(() => validateAgentDefinition({ ...definition, noProgressN: 1 }))).toBe('invalid agent definition: noProgressN: expected a whole number ≥ 2 (the first turn with a digest counts as one of them, so 1 would halt every turn that is not DONE), got number 1');
    expect(validateAgentDefinition({ ...definition, noProgressN: 2 }).noProgressN).toBe(2);
  });

  it('suggests only close names', () => {
    expect(didYouMean('max_turns', ['maxTurns', 'wallMs'])).toBe('maxTurns');
    expect(didYouMean('colour', ['maxTurns', 'wallMs'])).toBeUndefined();
  });
});

const word = fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}$/);
const count = (min: number) => fc.integer({ min, max: 1_000_000 });
const glob = fc.constantFrom('tool.str.*', 'tool.memory.*', 'tool.**', '*.length', 'tool.fs.Read');
const grant = fc.constantFrom('memory:read,write:/ingest/**', 'fs:read:/docs/**', 'net:read:*.example.com', 'mcp:call:git');

/** Valid definitions, every optional field sometimes present. */
const definitions: fc.Arbitrary<AgentDefinition> = fc.record(
  {
    name: word,
    model: fc.tuple(word, fc.stringMatching(/^[a-zA-Z0-9.:-]{1,20}$/)).map(([provider, model]) => `${provider}:${model}`),
    description: fc.string(),
    settings: fc.record({ temperature: fc.double({ min: 0, max: 2, noNaN: true }), topK: count(1), stopSequences: fc.array(fc.string(), { maxLength: 3 }), seed: count(0) }, { requiredKeys: [] }),
    dialect: fc.constantFrom('v4' as const, 'v1' as const),
    toolLoopPermitted: fc.boolean(),
    instructions: fc.string({ maxLength: 200 }),
    policy: fc.record(
      {
        allow: fc.array(glob, { maxLength: 4 }),
        deny: fc.array(glob, { maxLength: 2 }),
        grants: fc.array(grant, { maxLength: 3 }),
        trusted: fc.boolean(),
        limits: fc.record({ perTurn: count(0), perSession: count(0), tools: fc.dictionary(fc.constantFrom('tool.http.Fetch', 'tool.fs.Write'), fc.record({ perTurn: count(0) }, { requiredKeys: [] })) }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    ),
    quotas: fc.record({ fuel: count(1), wallMs: count(1), memoryMb: count(8), toolCalls: count(0) }, { requiredKeys: [] }),
    ceilings: fc.record({ maxTurns: count(1), tokens: count(1), costUsd: fc.double({ min: 0, max: 100, noNaN: true }), toolCalls: count(0) }, { requiredKeys: [] }),
    noProgressN: count(2),
    nudge: fc.boolean(),
    repair: count(0),
    maxErrorStreak: count(1),
    answerNow: fc.boolean(),
    maxAskDepth: count(0),
  },
  { requiredKeys: ['name', 'model'] },
);

describe('parseAgentDefinition round trip', () => {
  it('gives back every valid definition written as JSON or as YAML', () => {
    fc.assert(
      fc.property(definitions, (definition) => {
        expect(parseAgentDefinition(JSON.stringify(definition))).toEqual(definition);
        expect(parseAgentDefinition(stringify(definition))).toEqual(definition);
      }),
      { numRuns: 200 },
    );
  });
});

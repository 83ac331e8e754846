/**
 * A model id in askloop.config.yaml whose provider no plugin registers is
 * reported at its line, with the provider meant. Before, the error named only
 * the agent (`agent 'cli': … unknown provider "opneai"`), not the file, and
 * left the slip to be found in the list of providers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from './capture-io.ts';
import { main } from '../src/main.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-model-place-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CONFIG = ['models:', '  default: opneai:gpt-4.1-mini', 'agents:', '  writer:', '    instructions: write', '  reviewer:', '    model: antropic:claude-sonnet-4-5', ''].join('\n');

describe('a config model with no such provider', () => {
  writeFileSync(join(dir, 'askloop.config.yaml'), CONFIG);

  it.each([
    ['the bare agent: models.default', [], 2, 12, 'models.default', "did you mean 'openai:gpt-4.1-mini'?"],
    ['an agent that takes the default', ['--agent', 'writer'], 2, 12, 'models.default', "did you mean 'openai:gpt-4.1-mini'?"],
    ["an agent's own model", ['--agent', 'reviewer'], 7, 12, 'agents.reviewer.model', "did you mean 'anthropic:claude-sonnet-4-5'?"],
  ])('is located: %s', async (_name, agentArgs, line, column, field, meant) => {
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'x', ...agentArgs, '--db', 's.db', '--json'], io)).toBe(1);
    const { error } = JSON.parse(io.out) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ code: 'LOOP_PROVIDER_NOT_FOUND', file: join(dir, 'askloop.config.yaml'), line, column });
    expect(error['message']).toMatch(new RegExp(`^${field.replace('.', '\\.')}: agent '\\w+': `));
    expect(error['message']).toContain(meant);
  });

  it('is not located at the file when --model gave the model', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--model', 'nowhere:m', '--db', 's.db'], io)).toBe(1);
    expect(io.err).toContain("askloop: agent 'cli': [nowhere] PROVIDER_NOT_FOUND: unknown provider \"nowhere\"");
    expect(io.err).not.toContain('askloop.config.yaml');
  });
});

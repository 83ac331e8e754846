/** The gate's own pause message: the tools named as the program writes them, in a sentence that agrees with their number. */
import { createToolRegistry, defineTool, defineToolPack } from '@askloop/tools';
import { describe, expect, it } from 'vitest';
import type { PreparedProgram } from '../interpreter/loop-interpreter.ts';
import type { TurnContext } from '../plugin/plugin.ts';
import { gateProgram } from './approval-gate.ts';

const gated = (name: string) => defineTool({ name, description: 'Needs a person.', args: [], returns: 'string', effect: 'external', requiresApproval: true }, () => 'done');
const registry = createToolRegistry([defineToolPack('rocket', [gated('tool.rocket.Launch'), gated('tool.rocket.Abort')])]);
const program = (approvedTools: string[]) => ({ mode: 'agent', program: {}, libraries: [], approvedTools }) as unknown as PreparedProgram;

describe('gateProgram', () => {
  it('names the tools that need approval by their display names, "needs" for one and "need" for several', async () => {
    expect(await gateProgram([], registry, program(['tool.rocket.launch']), {} as TurnContext)).toEqual({
      kind: 'require-approval',
      message: "the program calls tool.rocket.Launch, which needs a person's approval before the program runs",
    });
    expect(await gateProgram([], registry, program(['tool.rocket.launch', 'tool.rocket.abort']), {} as TurnContext)).toMatchObject({
      message: "the program calls tool.rocket.Launch, tool.rocket.Abort, which need a person's approval before the program runs",
    });
    expect(await gateProgram([], registry, program([]), {} as TurnContext)).toEqual({ kind: 'approve' });
  });
});

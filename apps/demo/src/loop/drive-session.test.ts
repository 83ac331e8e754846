/**
 * What `driveSession` makes of a controller call that fails after a Ctrl-C:
 * the call refused because it was cancelled is exit 130 with the
 * controller's words; any other error is reported as itself.
 */
import { LoopError, type AskLoopWithMetrics } from '@askloop/controller';
import { describe, expect, it } from 'vitest';
import { captureIo } from '../../test/capture-io.ts';
import type { CliError } from '../cli-error.ts';
import { driveSession } from './drive-session.ts';

/** A loop whose `approve` is interrupted (Ctrl-C) while it runs, then fails with `error`. */
function interruptedLoop(error: LoopError, interrupt: () => void): AskLoopWithMetrics {
  return {
    approve: async () => {
      interrupt();
      throw error;
    },
    close: async () => undefined,
  } as unknown as AskLoopWithMetrics;
}

async function failureOf(error: LoopError): Promise<CliError> {
  const io = captureIo();
  let handler: ((signal: 'SIGINT' | 'SIGTERM') => void) | undefined;
  io.onInterrupt = (listener) => {
    handler = listener;
    return () => undefined;
  };
  const loop = interruptedLoop(error, () => handler?.('SIGINT'));
  return (await driveSession(io, loop, { kind: 'approve', sid: 's1' }, { json: true }).then(
    () => expect.unreachable(),
    (thrown: unknown) => thrown,
  )) as CliError;
}

describe('driveSession after a Ctrl-C', () => {
  it('reports a call cancelled mid-start with the controller\'s words and exit 130', async () => {
    const failure = await failureOf(new LoopError({ code: 'LOOP_CANCELLED', message: 'cancelled while the tool sources (MCP servers) started; nothing ran' }));
    expect({ code: failure.code, exitCode: failure.exitCode, message: failure.message }).toEqual({
      code: 'LOOP_CANCELLED',
      exitCode: 130,
      message: 'interrupted: cancelled while the tool sources (MCP servers) started; nothing ran',
    });
  });

  it('reports any other error as itself, not as the interrupt', async () => {
    const failure = await failureOf(new LoopError({ code: 'LOOP_APPROVAL_NOT_PENDING', message: 'session s1 has no program waiting for approval' }));
    expect({ code: failure.code, exitCode: failure.exitCode }).toEqual({ code: 'LOOP_APPROVAL_NOT_PENDING', exitCode: 1 });
    expect(failure.message).toContain('no program waiting for approval');
  });
});

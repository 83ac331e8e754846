/**
 * Options a JavaScript caller can get wrong, refused where they are given
 * and named: a prepare mode that does not exist (it used to pass prepare and
 * fail only at execute), and a limit that does not exist (`wallMS` was
 * ignored, the run keeping the default it meant to change).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createInterpreter } from './create-interpreter.ts';
import { closeDefaultPool } from './default-pool.ts';
import { runLimits } from './run-limits.ts';

// The runs below use the shared pool, as a caller who gives none does: close its workers with the file.
afterAll(closeDefaultPool);

describe('options a caller can get wrong', () => {
  it('refuses a prepare mode that does not exist, at prepare', async () => {
    const result = await createInterpreter().prepare('command\n  emit 1\nendcommand\n', { mode: 'agnt' as 'agent' });
    expect(result).toMatchObject({ ok: false, diagnostics: [{ code: 'SCRIPT_INVALID_PROGRAM', message: `prepare: mode must be 'agent' or 'host', got "agnt"` }] });
  });

  it('refuses a limit that does not exist, naming the one it most likely meant', () => {
    expect(() => runLimits({ wallMS: 1 } as never)).toThrow(expect.objectContaining({ code: 'SANDBOX_INVALID_REQUEST', message: expect.stringContaining('there is no limit wallMS; did you mean wallMs?') }));
    expect(() => runLimits({ nothing: 1 } as never)).toThrow(/there is no limit nothing \(the limits: fuel, wallMs/);
    expect(runLimits({ wallMs: 50 }).wallMs).toBe(50);
  });

  it('refuses createInterpreter options it would ignore or fail on only at the first run (walkthrough: accepted)', () => {
    const refusal = (options: unknown) => {
      try {
        createInterpreter(options as never);
      } catch (error) {
        return `${(error as { code?: string }).code}: ${(error as Error).message}`;
      }
      return undefined;
    };
    expect(refusal({ pools: {} })).toBe('SANDBOX_INVALID_REQUEST: createInterpreter(): there is no option pools (the options: pool, orchestrator, promptUser, limits)');
    expect(refusal({ pool: {} })).toBe('SANDBOX_INVALID_REQUEST: createInterpreter(): pool must be a sandbox pool (createSandboxPool()), with a run function');
    expect(refusal({ promptUser: 'yes' })).toContain('promptUser must be a function');
    expect(refusal({ orchestrator: { ask: () => 1 } })).toContain('orchestrator must be an object with a runAskLoop(request) function');
    expect(refusal({ limits: { wallMS: 5 } })).toContain('there is no limit wallMS; did you mean wallMs?');
    expect(refusal(5)).toContain('its options are an object');
    expect(refusal({ pool: { run: async () => ({}) }, orchestrator: { runAskLoop: () => 1 }, promptUser: () => 'x', limits: { wallMs: 5 } })).toBeUndefined();
  });
});

describe('observers that throw', () => {
  it('are not part of the run: onEmit and onWhisper throwing change nothing of its result', async () => {
    const result = await createInterpreter().run('command\n  emit "a"\n  whisper "n", "b"\n  emit "c"\nendcommand\n', {
      onEmit: () => {
        throw new Error('listener bug');
      },
      onWhisper: () => {
        throw new Error('listener bug');
      },
    });
    expect(result).toMatchObject({ ok: true, error: null, emits: ['a', 'c'], whispers: { n: 'b' } });
  });
});

describe('async observers that reject', () => {
  it('are not part of the run either, and their rejection is not left unhandled (Node would end the host)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const fail = async (): Promise<void> => {
        throw new Error('async listener bug');
      };
      const result = await createInterpreter().run('command\n  emit "a"\n  whisper "n", "b"\n  emit tool.t.X()\nendcommand\n', {
        mode: 'host',
        tools: { call: () => 'x' },
        onEmit: fail,
        onWhisper: fail,
        onToolCall: fail,
      });
      expect(result).toMatchObject({ ok: true, error: null, emits: ['a', 'x'], whispers: { n: 'b' } });
      // An async onStart that rejects fails the run as one that throws does.
      await expect(createInterpreter().run('command\n  emit "a"\nendcommand\n', { onStart: fail })).rejects.toThrow('async listener bug');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('globals that cannot be sent', () => {
  it('a BigInt or a cycle among the globals is refused by the sandbox with its code, not a bare TypeError', async () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle['self'] = cycle;
    for (const globals of [{ big: 1n }, { c: cycle }]) {
      await expect(createInterpreter().run('command\n  emit "hi"\nendcommand\n', { mode: 'host', globals: globals as never })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_REQUEST' });
    }
  });
});

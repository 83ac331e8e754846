import { describe, expect, it } from 'vitest';
import { isLoopError } from '../errors/loop-error.ts';
import { createSessionGate } from './session-gate.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('createSessionGate', () => {
  it('never overlaps two steps of one session while other sessions proceed', async () => {
    const gate = createSessionGate();
    const log: string[] = [];
    const step = (sid: string, name: string) => gate.run(sid, async () => {
      log.push(`${name}:start`);
      await tick();
      log.push(`${name}:end`);
      return name;
    });
    const results = await Promise.all([step('a', 'a1'), step('a', 'a2'), step('b', 'b1')]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a1:end')).toBeLessThan(log.indexOf('a2:start'));
    // b started while a1 was still running.
    expect(log.indexOf('b1:start')).toBeLessThan(log.indexOf('a1:end'));
    expect(gate.busy('a')).toBe(false);
  });

  it('runs the next step after a failed one', async () => {
    const gate = createSessionGate();
    await expect(gate.run('a', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(gate.run('a', async () => 'ok')).resolves.toBe('ok');
  });

  it('rejects a busy session in reject mode', async () => {
    const gate = createSessionGate('reject');
    const first = gate.run('a', tick);
    const second = gate.run('a', tick).catch((error: unknown) => error);
    await first;
    const error = await second;
    expect(isLoopError(error) && error.code).toBe('LOOP_SESSION_BUSY');
  });
});

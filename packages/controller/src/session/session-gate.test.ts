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

  it('lets a waiting caller whose signal aborts leave at once; its step never runs, the one in flight goes on', async () => {
    const gate = createSessionGate();
    const log: string[] = [];
    let finish = (): void => {};
    const first = gate.run('a', () => new Promise<string>((resolve) => (finish = () => resolve('first'))));
    const controller = new AbortController();
    const second = gate.run('a', async () => log.push('second ran'), controller.signal);
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: 'LOOP_CANCELLED', sid: 'a', message: expect.stringContaining('this call changed nothing') });
    expect(gate.busy('a')).toBe(true);
    finish();
    expect(await first).toBe('first');
    await tick();
    expect(log).toEqual([]);
    expect(gate.busy('a')).toBe(false);
    // A caller that finds the session free runs its step whatever its signal says (the step sees the abort itself).
    await expect(gate.run('a', async () => 'ran', AbortSignal.abort())).resolves.toBe('ran');
    // One whose signal aborted before it asked leaves at once too, not once the step it would wait for ends.
    let release = (): void => {};
    const busy = gate.run('a', () => new Promise<void>((resolve) => (release = resolve)));
    let settled = false;
    const late = gate.run('a', async () => 'never', AbortSignal.abort()).then(
      () => 'ran',
      (error: unknown) => error,
    ).finally(() => (settled = true));
    await tick();
    expect(settled).toBe(true);
    expect(await late).toMatchObject({ code: 'LOOP_CANCELLED' });
    release();
    await busy;
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

  it('takes a step a caller makes as soon as its previous one returned, in reject mode too', async () => {
    const gate = createSessionGate('reject');
    await gate.run('a', tick);
    // No turn of the event loop between: the previous step has left the lane before its caller went on.
    await expect(gate.run('a', async () => 'second')).resolves.toBe('second');
    await gate.run('a', async () => {
      throw new Error('boom');
    }).catch(() => undefined);
    expect(gate.busy('a')).toBe(false);
    await expect(gate.run('a', async () => 'after a failure')).resolves.toBe('after a failure');
  });

  it('keeps a session busy while a queued step waits, and frees it when the last one settles', async () => {
    const gate = createSessionGate();
    const first = gate.run('a', tick);
    const second = gate.run('a', tick);
    await first;
    expect(gate.busy('a')).toBe(true);
    await second;
    expect(gate.busy('a')).toBe(false);
  });
});

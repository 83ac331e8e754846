import { describe, expect, it } from 'vitest';
import { createRunAdmission } from './run-admission.ts';

describe('createRunAdmission', () => {
  it('admits at most its slots at once, the rest in arrival order, each release once', async () => {
    const admission = createRunAdmission(2);
    const order: number[] = [];
    // Without a signal a waiter always gets a slot.
    const slot = async (waiting: Promise<(() => void) | undefined>): Promise<() => void> => (await waiting) ?? expect.fail('no slot');
    const first = await slot(admission.acquire());
    const second = admission.tryAcquire();
    if (second === undefined) throw new Error('a second slot was free');
    expect(admission.tryAcquire()).toBeUndefined();
    const waiting = [3, 4, 5].map((n) => slot(admission.acquire()).then((release) => (order.push(n), release)));
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 2, waiting: 3 });
    first();
    first(); // a second call gives back nothing more
    const third = await waiting[0]!;
    expect(order).toEqual([3]);
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 2, waiting: 2 });
    second();
    third();
    const [fourth, fifth] = await Promise.all([waiting[1]!, waiting[2]!]);
    expect(order).toEqual([3, 4, 5]);
    fourth();
    fifth();
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 0, waiting: 0 });
  });

  it('drops a waiter whose signal aborts (it gets undefined and no slot); the next waiter gets the freed slot', async () => {
    const admission = createRunAdmission(1);
    const first = await admission.acquire();
    const cancel = new AbortController();
    const cancelled = admission.acquire(cancel.signal);
    const next = admission.acquire();
    cancel.abort();
    expect(await cancelled).toBeUndefined();
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 1, waiting: 1 });
    first?.();
    const second = await next;
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 1, waiting: 0 });
    second?.();
    expect(admission.running).toBe(0);
    // Already aborted and no slot free: undefined at once, nothing queued.
    const held = admission.tryAcquire();
    expect(await admission.acquire(AbortSignal.abort())).toBeUndefined();
    expect(admission.waiting).toBe(0);
    held?.();
  });
});

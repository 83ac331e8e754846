import { describe, expect, it } from 'vitest';
import { createRunAdmission } from './run-admission.ts';

describe('createRunAdmission', () => {
  it('admits at most its slots at once, the rest in arrival order, each release once', async () => {
    const admission = createRunAdmission(2);
    const order: number[] = [];
    const first = await admission.acquire();
    const second = admission.tryAcquire();
    if (second === undefined) throw new Error('a second slot was free');
    expect(admission.tryAcquire()).toBeUndefined();
    const waiting = [3, 4, 5].map((n) => admission.acquire().then((release) => (order.push(n), release)));
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
});

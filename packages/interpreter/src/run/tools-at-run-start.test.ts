import { describe, expect, it } from 'vitest';
import { toolsAtRunStart } from './tools-at-run-start.ts';

describe('toolsAtRunStart', () => {
  it('makes the tools once, at the run start, and routes every call to them', async () => {
    const made: number[] = [];
    const { call, onStart } = toolsAtRunStart(() => {
      made.push(made.length);
      return { call: (name, args) => `${name}:${args.length}` };
    });
    expect(made).toEqual([]);
    onStart();
    onStart();
    expect(await call('tool.a.B', [1, 2])).toBe('tool.a.B:2');
    expect(made).toEqual([0]);
  });

  it('makes them at the first call when the runner never reports the start', async () => {
    let made = 0;
    const { call } = toolsAtRunStart(() => ((made += 1), { call: () => 'ok' }));
    expect(made).toBe(0);
    expect(await call('tool.a.B', [])).toBe('ok');
    expect(await call('tool.a.B', [])).toBe('ok');
    expect(made).toBe(1);
  });
});

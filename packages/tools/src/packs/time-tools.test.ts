import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { createTimeTools } from './time-tools.ts';

const host = hostFor([createTimeTools()]);

describe('tool.time.*', () => {
  it('time.Now reads the injected clock', async () => {
    host.clock.set(Date.UTC(2026, 10, 22, 5, 0, 0, 123));
    expect(await host.call('tool.time.Now', [])).toBe('2026-11-22T05:00:00.123Z');
    expect(await host.call('tool.time.NowUnixMillis', [])).toBe(Date.UTC(2026, 10, 22, 5, 0, 0, 123));
    expect((await host.fail('tool.time.Now', [1])).code).toBe('TOOL_ARGUMENT_INVALID');
  });
});

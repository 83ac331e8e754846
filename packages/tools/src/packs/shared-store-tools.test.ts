/** Which tools see the shared memory and scratch stores is known per process, not per copy of the package. */
import { describe, expect, it } from 'vitest';
import type { ToolPack } from '../registry/tool-pack.ts';

describe('shared-store tools', () => {
  it('are recognised by a second copy of the module (a plugin bundling its own @askloop/tools; review)', async () => {
    // Two instances of the module, as two copies of the package in one process would load it.
    const module = new URL('./shared-store-tools.ts', import.meta.url).href;
    const first = (await import(`${module}?copy=first`)) as typeof import('./shared-store-tools.ts');
    const second = (await import(`${module}?copy=second`)) as typeof import('./shared-store-tools.ts');
    expect(first).not.toBe(second);
    const tool = { spec: { name: 'tool.memory.get' } } as unknown as ToolPack['tools'][number];
    first.markSharedStoreTools({ name: 'memory', tools: [tool] } as unknown as ToolPack);
    expect(second.seesSharedStores(tool)).toBe(true);
    expect(second.seesSharedStores({ ...tool })).toBe(false);
  });
});

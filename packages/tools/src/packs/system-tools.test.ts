import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { useTempStore } from '../../test/temp-store.ts';
import { createSafeToolPacks } from './default-registry.ts';
import { createFileSystemTools } from './fs-tools.ts';

const temp = useTempStore();

describe('tool.system.Caps', () => {
  it('says what the agent may do, in the shape seed 000 tests', async () => {
    const host = hostFor(createSafeToolPacks(), { allow: ['tool.system.*', 'tool.memory.**'], grants: ['memory:read'] }, { stores: temp.stores });
    expect(await host.call('tool.system.Caps', [])).toEqual({
      'memory:read': true,
      'memory:write': false,
      trusted: false,
      tools: ['tool.memory.Get', 'tool.system.Caps'],
      grants: ['memory:read'],
    });
  });

  it('gives the grants as written, scopes included, so a program can see which keys or paths it may use', async () => {
    const host = hostFor(createSafeToolPacks(), { allow: ['tool.system.*', 'tool.memory.**'], grants: ['memory:read,write:/notes/**', 'fs:read:/data/**'] }, { stores: temp.stores });
    const caps = (await host.call('tool.system.Caps', [])) as Record<string, unknown>;
    expect(caps.grants).toEqual(['memory:read,write:/notes/**', 'fs:read:/data/**']);
    expect([caps['memory:read'], caps['memory:write']]).toEqual([true, true]);
  });

  it('takes no arguments', async () => {
    const error = await hostFor(createSafeToolPacks(), { allow: ['**'] }).fail('tool.system.Caps', ['all']);
    expect([error.code, error.message]).toEqual(['TOOL_ARGUMENT_INVALID', 'tool.system.Caps takes at most 0 arguments (), got 1']);
  });

  it('turns wildcard grants into concrete answers', async () => {
    const host = hostFor([...createSafeToolPacks(), createFileSystemTools({ root: temp.directory })], { allow: ['**'], grants: ['*:*'] }, { stores: temp.stores });
    const caps = (await host.call('tool.system.Caps', [])) as Record<string, unknown>;
    expect([caps['memory:write'], caps['fs:delete'], caps['*:*']]).toEqual([true, true, true]);
  });
});

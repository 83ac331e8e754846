/**
 * A result the host cannot read — a getter or a Proxy trap that throws while
 * the result is copied — is the result's fault, not the handler's: it is
 * `TOOL_RESULT_INVALID` naming where in the result reading failed, with how
 * to fix it. Regression: it was `TOOL_FAILED … failed: trap!`, as if the
 * handler had thrown.
 */
import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { defineToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';

const trap = (): never => {
  throw new Error('trap!');
};

/** Results that throw when read, by where. */
const results: Record<string, () => unknown> = {
  getter: () => ({ items: [{ ok: 1, get broken() { return trap(); } }] }),
  index: () => ({ list: Object.defineProperty([1, 2], 1, { get: trap, enumerable: true }) }),
  ownKeys: () => ({ nested: new Proxy({}, { ownKeys: trap }) }),
  prototype: () => ({ nested: new Proxy({ a: 1 }, { getPrototypeOf: trap }) }),
  revoked: () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return [proxy];
  },
  // `then` answers: a promise's resolution reads it before the host sees the value (and a throw there is the call's).
  length: () => ({ list: new Proxy([1], { get: (target, key) => (key === 'length' ? trap() : Reflect.get(target, key)) }) }),
  whole: () => new Proxy({ a: 1 }, { get: (target, key) => (key === 'then' ? undefined : trap()) }),
};

const pack = defineToolPack(
  'odd',
  Object.entries(results).map(([name, make]) => defineTool({ name: `tool.odd.${name}`, description: `A result that cannot be read (${name}).`, args: [], returns: 'any' }, () => make() as never)),
);

describe('a result that cannot be read', () => {
  it.each([
    ['getter', '$.items[0].broken'],
    ['index', '$.list[1]'],
    ['ownKeys', '$.nested'],
    ['prototype', '$.nested'],
    ['revoked', '$[0]'],
    ['length', '$.list'],
    ['whole', '$'],
  ])('%s: TOOL_RESULT_INVALID at %s, not the handler failing', async (name, path) => {
    const error = await hostFor([pack]).fail(`tool.odd.${name}`, []);
    expect(error.code).toBe('TOOL_RESULT_INVALID');
    expect(error.message).toContain(`could not be read at ${path}`);
    expect(error.message).not.toContain('failed:');
    expect(error).toMatchObject({ tool: `tool.odd.${name}`, pack: 'odd' });
  });
});

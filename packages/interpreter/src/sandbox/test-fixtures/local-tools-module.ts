/**
 * A local tools module for the tests (`SandboxLocalTools.module`): the worker
 * imports it and answers these tools itself. `tool.test.upper` and
 * `tool.test.big` compute from their arguments as the tests' host bridge
 * does; `tool.test.decline` always leaves the call to the host.
 */
export function callLocalTool(name: string, args: readonly unknown[]): unknown {
  if (name === 'tool.test.upper') return String(args[0]).toUpperCase();
  if (name === 'tool.test.big') return 'x'.repeat(Number(args[0]));
  return undefined;
}

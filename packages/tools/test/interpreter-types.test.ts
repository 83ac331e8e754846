/**
 * This package declares the interpreter's tool interface (`ToolCatalog`,
 * `ToolSignature`…) itself (`src/spec/tool-signature.ts`), so its published
 * declarations do not need `@askloop/interpreter`, an optional peer. They must
 * be the interpreter's, member for member: a difference fails the typecheck
 * (`pnpm typecheck`) here, and the registry and the tool host must stay what
 * the interpreter's check and bridge take.
 */
import type * as Interpreter from '@askloop/interpreter';
import { describe, expectTypeOf, it } from 'vitest';
import { createDefaultRegistry, createPolicy, createToolHost, type HostToolCatalog, type ToolRegistry, type ToolSpec } from '../src/index.ts';
// From the package's entry: the types are exported, so a user can name them (walkthrough: they were declared but not exported).
import type * as Tools from '../src/index.ts';

describe("the interpreter's tool interface, as this package declares it", () => {
  it('is the interpreter’s, member for member', () => {
    expectTypeOf<Tools.ToolValueType>().toEqualTypeOf<Interpreter.ToolValueType>();
    expectTypeOf<Tools.ToolArgumentSignature>().toEqualTypeOf<Interpreter.ToolArgumentSignature>();
    expectTypeOf<Tools.ToolSignature>().toEqualTypeOf<Interpreter.ToolSignature>();
    expectTypeOf<Tools.ToolDenial>().toEqualTypeOf<Interpreter.ToolDenial>();
    expectTypeOf<Tools.StaticArgument>().toEqualTypeOf<Interpreter.StaticArgument>();
    expectTypeOf<Tools.ToolCatalog>().toEqualTypeOf<Interpreter.ToolCatalog>();
  });

  it('is what the registry, the host and a spec give the interpreter', () => {
    expectTypeOf<ToolRegistry>().toExtend<Interpreter.ToolCatalog>();
    expectTypeOf<HostToolCatalog>().toExtend<Interpreter.ToolCatalog>();
    expectTypeOf<ToolSpec>().toExtend<Interpreter.ToolSignature>();
    const registry = createDefaultRegistry();
    const host = createToolHost({ registry, policy: createPolicy({ allow: ['tool.str.*'] }), session: 's', turn: 1 });
    expectTypeOf(host.catalog).toExtend<Interpreter.ToolCatalog>();
  });
});

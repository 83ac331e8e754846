/**
 * Options a JavaScript caller can get wrong, refused where they are given
 * and named: a prepare mode that does not exist (it used to pass prepare and
 * fail only at execute), a limit that does not exist (`wallMS` was
 * ignored, the run keeping the default it meant to change), and an option
 * prepare, execute or run does not have (`prepare(source, { tools: catalog })`
 * checked no tool) or of the wrong kind.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createInterpreter } from './create-interpreter.ts';
import { closeDefaultPool } from './default-pool.ts';
import { runLimits } from './run-limits.ts';
import type { ToolCatalog } from '../tool-signature.ts';

// The runs below use the shared pool, as a caller who gives none does: close its workers with the file.
afterAll(closeDefaultPool);

describe('options a caller can get wrong', () => {
  it("refuses a prepare mode that does not exist, at prepare (the host's mistake: a rejection, not a diagnostic for the model)", async () => {
    await expect(createInterpreter().prepare('command\n  emit 1\nendcommand\n', { mode: 'agnt' as 'agent' })).rejects.toMatchObject({
      code: 'SANDBOX_INVALID_REQUEST',
      message: `prepare(): mode must be 'agent' or 'host', got "agnt"`,
    });
  });

  it('refuses a limit that does not exist, naming the one it most likely meant', () => {
    expect(() => runLimits({ wallMS: 1 } as never)).toThrow(expect.objectContaining({ code: 'SANDBOX_INVALID_REQUEST', message: expect.stringContaining('there is no limit wallMS; did you mean wallMs?') }));
    expect(() => runLimits({ nothing: 1 } as never)).toThrow(/there is no limit nothing \(the limits: fuel, wallMs/);
    expect(runLimits({ wallMs: 50 }).wallMs).toBe(50);
  });

  it('refuses createInterpreter options it would ignore or fail on only at the first run (walkthrough: accepted)', () => {
    const refusal = (options: unknown) => {
      try {
        createInterpreter(options as never);
      } catch (error) {
        return `${(error as { code?: string }).code}: ${(error as Error).message}`;
      }
      return undefined;
    };
    expect(refusal({ pools: {} })).toBe('SANDBOX_INVALID_REQUEST: createInterpreter(): there is no option pools (the options: pool, orchestrator, promptUser, limits)');
    expect(refusal({ pool: {} })).toBe('SANDBOX_INVALID_REQUEST: createInterpreter(): pool must be a sandbox pool (createSandboxPool()), with a run function');
    expect(refusal({ promptUser: 'yes' })).toContain('promptUser must be a function');
    expect(refusal({ orchestrator: { ask: () => 1 } })).toContain('orchestrator must be an object with a runAskLoop(request) function');
    expect(refusal({ limits: { wallMS: 5 } })).toContain('there is no limit wallMS; did you mean wallMs?');
    expect(refusal(5)).toContain('its options are an object');
    expect(refusal({ pool: { run: async () => ({}) }, orchestrator: { runAskLoop: () => 1 }, promptUser: () => 'x', limits: { wallMs: 5 } })).toBeUndefined();
  });
});

const COMMAND = 'command\n  emit tool.t.Upper("hi")\nendcommand\n';
/** A catalogue without the program's tool: a check against it refuses the program. */
const EMPTY_CATALOG: ToolCatalog = { get: () => undefined, names: () => [] };
/** How a call is refused: its code and message, or undefined when it is not. */
async function refusal(call: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await call();
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
  return undefined;
}

describe('prepare, execute and run refuse options they do not have or of the wrong kind', () => {
  it('prepare(source, { tools: catalog }) is refused, pointing at catalog: it used to prepare the program with no tool checked', async () => {
    const interpreter = createInterpreter();
    // Spelt right, the catalogue refuses the program before anything runs.
    expect(await interpreter.prepare(COMMAND, { catalog: EMPTY_CATALOG })).toMatchObject({ ok: false, diagnostics: [{ code: 'SCRIPT_TOOL_UNKNOWN' }] });
    expect(await refusal(() => interpreter.prepare(COMMAND, { tools: EMPTY_CATALOG } as never))).toBe(
      'SANDBOX_INVALID_REQUEST: prepare(): there is no option tools; prepare checks the tools against a catalogue: pass { catalog: host.catalog } (tools, the bridge that runs the calls, is an option of execute and run) (the options: mode, catalog, libraries, fileName, allowAsk, globalNames)',
    );
  });

  it('names the option most likely meant, or the method an option belongs to', async () => {
    const interpreter = createInterpreter();
    const prepare = (options: unknown) => refusal(() => interpreter.prepare(COMMAND, options as never));
    expect(await prepare({ catalgo: EMPTY_CATALOG })).toContain('there is no option catalgo; did you mean catalog? (the options: mode,');
    expect(await prepare({ tool: EMPTY_CATALOG })).toContain('there is no option tool; did you mean tools? prepare checks the tools against a catalogue: pass { catalog: host.catalog }');
    expect(await prepare({ globals: { a: 1 } })).toContain('there is no option globals; prepare takes the names execute will bind, as globalNames');
    expect(await prepare({ onEmit: () => {} })).toContain('there is no option onEmit; onEmit is an option of execute and run');
    expect(await prepare({ nothing: 1 })).toBe('SANDBOX_INVALID_REQUEST: prepare(): there is no option nothing (the options: mode, catalog, libraries, fileName, allowAsk, globalNames)');
    const prepared = await interpreter.prepare('command\n  emit 1\nendcommand\n');
    if (!prepared.ok) throw new Error('not prepared');
    const execute = (options: unknown) => refusal(() => interpreter.execute(prepared.prepared, options as never));
    expect(await execute({ tool: { call: () => 1 } })).toBe(
      'SANDBOX_INVALID_REQUEST: execute(): there is no option tool; did you mean tools? (the options: tools, localTools, limits, signal, userdata, globals, onEmit, onWhisper, onToolCall, onStart)',
    );
    expect(await execute({ catalog: EMPTY_CATALOG })).toContain('there is no option catalog; execute calls only the tools prepare approved, through tools');
    expect(await execute({ fileName: 'x.ns' })).toContain('there is no option fileName; fileName is an option of prepare and run');
    // @askloop/controller's interpreter port takes an ask hook per run: a bare interpreter given to its loop dropped it.
    expect(await execute({ ask: async () => 'answer' })).toContain(
      "there is no option ask; an ask statement goes to the interpreter's orchestrator (createInterpreter({ orchestrator })); for @askloop/controller, whose loop gives each run an ask hook, use its createDefaultInterpreter(pool)",
    );
    const run = (options: unknown) => refusal(() => interpreter.run(COMMAND, options as never));
    expect(await run({ tols: { call: () => 1 } })).toContain('run(): there is no option tols; did you mean tools? (the options: mode, catalog, libraries, fileName, allowAsk, globalNames, tools,');
    expect(await run({ catalogue: EMPTY_CATALOG })).toContain('run(): there is no option catalogue; did you mean catalog?');
  });

  it('refuses an option of the wrong kind, naming what it must be', async () => {
    const interpreter = createInterpreter();
    const prepare = (options: unknown) => refusal(() => interpreter.prepare(COMMAND, options as never));
    expect(await prepare(null)).toBe('SANDBOX_INVALID_REQUEST: prepare(): its options are an object ({ mode, catalog, libraries, fileName, allowAsk, globalNames }), got null');
    expect(await prepare({ catalog: { call: () => 1, catalog: EMPTY_CATALOG } })).toContain("catalog must be a tool catalogue with get(name) (a ToolHost's catalog), got a tool bridge: pass its catalog (host.catalog)");
    expect(await prepare({ catalog: ['tool.t.upper'] })).toContain("catalog must be a tool catalogue with get(name) (a ToolHost's catalog), got a list");
    expect(await prepare({ allowAsk: 'yes' })).toContain('allowAsk must be true or false, got "yes"');
    expect(await prepare({ globalNames: 'userdata' })).toContain('globalNames must be a list of names, got "userdata"');
    expect(await prepare({ libraries: 'func f() means\nendfunc' })).toContain('libraries must be a list of library sources or parsed programs');
    expect(await prepare({ fileName: 3 })).toContain('fileName must be a string, got number 3');
    const prepared = await interpreter.prepare('command\n  emit 1\nendcommand\n');
    if (!prepared.ok) throw new Error('not prepared');
    const execute = (options: unknown) => refusal(() => interpreter.execute(prepared.prepared, options as never));
    expect(await execute({ tools: EMPTY_CATALOG })).toContain('tools must be a tool bridge with a call(name, args) function (a ToolHost), got a tool catalogue: give it as catalog (to prepare or run), and a bridge as tools');
    expect(await execute({ onEmit: 'log' })).toContain('onEmit must be a function (text) => void, got "log"');
    expect(await execute({ signal: true })).toContain('signal must be an AbortSignal, got boolean true');
    expect(await execute({ globals: ['a'] })).toContain('globals must be an object of names and their values, got a list');
    expect(await refusal(() => interpreter.run(COMMAND, { mode: 'host', tools: EMPTY_CATALOG } as never))).toContain('run(): tools must be a tool bridge');
  });

  it('accepts every option each takes, and one set to undefined as unset', async () => {
    const interpreter = createInterpreter();
    const tools = { catalog: { get: () => ({ name: 'tool.t.upper', arguments: [{ name: 'text', type: 'string' as const, required: true }] }), names: () => ['tool.t.upper'] }, call: () => 'HI' };
    const checked = await interpreter.prepare(COMMAND, { mode: 'agent', catalog: tools.catalog, libraries: [], fileName: 'turn.ns', allowAsk: false, globalNames: ['userdata'] });
    expect(checked).toMatchObject({ ok: true });
    if (!checked.ok) return;
    const emitted: string[] = [];
    const full = { tools, limits: { wallMs: 2_000 }, signal: new AbortController().signal, userdata: { a: 1 }, globals: { g: 1 }, onEmit: (text: string) => void emitted.push(text), onWhisper: () => {}, onToolCall: () => {}, onStart: () => {} };
    expect(await interpreter.execute(checked.prepared, { ...full, localTools: undefined })).toMatchObject({ ok: true, emits: ['HI'] });
    expect(await interpreter.run(COMMAND, { mode: 'agent', fileName: 'turn.ns', catalog: undefined, ...full })).toMatchObject({ ok: true, emits: ['HI'] });
    expect(emitted).toEqual(['HI', 'HI']);
  });
});

describe('observers that throw', () => {
  it('are not part of the run: onEmit and onWhisper throwing change nothing of its result', async () => {
    const result = await createInterpreter().run('command\n  emit "a"\n  whisper "n", "b"\n  emit "c"\nendcommand\n', {
      onEmit: () => {
        throw new Error('listener bug');
      },
      onWhisper: () => {
        throw new Error('listener bug');
      },
    });
    expect(result).toMatchObject({ ok: true, error: null, emits: ['a', 'c'], whispers: { n: 'b' } });
  });
});

describe('async observers that reject', () => {
  it('are not part of the run either, and their rejection is not left unhandled (Node would end the host)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const fail = async (): Promise<void> => {
        throw new Error('async listener bug');
      };
      const result = await createInterpreter().run('command\n  emit "a"\n  whisper "n", "b"\n  emit tool.t.X()\nendcommand\n', {
        mode: 'host',
        tools: { call: () => 'x' },
        onEmit: fail,
        onWhisper: fail,
        onToolCall: fail,
      });
      expect(result).toMatchObject({ ok: true, error: null, emits: ['a', 'x'], whispers: { n: 'b' } });
      // An async onStart that rejects fails the run as one that throws does.
      await expect(createInterpreter().run('command\n  emit "a"\nendcommand\n', { onStart: fail })).rejects.toThrow('async listener bug');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('globals that cannot be sent', () => {
  it('a BigInt or a cycle among the globals is refused by the sandbox with its code, not a bare TypeError', async () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle['self'] = cycle;
    for (const globals of [{ big: 1n }, { c: cycle }]) {
      await expect(createInterpreter().run('command\n  emit "hi"\nendcommand\n', { mode: 'host', globals: globals as never })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_REQUEST' });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { parse } from '../parse/index.ts';
import type { Program } from '../ast/index.ts';
import type { ToolCatalog, ToolSignature } from '../tool-signature.ts';
import { findFunctionCallProblems, type FunctionCallContext } from './function-calls.ts';

function program(source: string): Program {
  const parsed = parse(source);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.program;
}

/** The unknown-function messages of a one-line command. */
function messagesOf(line: string, context?: FunctionCallContext, libraries: readonly Program[] = []): string[] {
  return findFunctionCallProblems([...libraries, program(`command\n  ${line}\nendcommand\n`)], context).map(({ code, message }) => `${code} ${message}`);
}

/** A catalogue of the named tools (asked by canonical, lower-case name, as the tool host is), allowing those not in `denied`. */
function catalogOf(names: readonly string[], denied: readonly string[] = []): ToolCatalog {
  const signatures = new Map(names.map((name): [string, ToolSignature] => [name.toLowerCase(), { name: name.toLowerCase(), displayName: name, arguments: [] }]));
  return {
    get: (name) => signatures.get(name),
    names: () => [...signatures.keys()],
    check: (name) => (denied.some((tool) => tool.toLowerCase() === name) ? { code: 'POLICY_NOT_ALLOWED', message: 'denied' } : undefined),
  };
}

describe('a call of a function nothing defines, in an agent turn', () => {
  it('names the while loop for range(), with no library advice the model cannot follow', () => {
    expect(messagesOf('for each i in range(5)\n    emit i\n  endfor', { mode: 'agent' })).toEqual([
      "SCRIPT_FUNCTION_UNKNOWN No function named 'range' exists: count with a while loop instead: 'set i = 0', then 'while i < n' … 'set i = i + 1' … 'endwhile'.",
    ]);
  });

  it('names the built-in or the tool for the built-ins of other languages, in any case', () => {
    const agent: FunctionCallContext = { mode: 'agent' };
    expect(messagesOf('emit length([1])', agent)[0]).toContain('len(x)');
    expect(messagesOf('emit str(3)', agent)[0]).toContain('"" + x');
    expect(messagesOf('emit int("3")', agent)[0]).toContain('x + 0');
    expect(messagesOf('set xs = append([], 1)', agent)[0]).toContain("'set xs = tool.list.Append(xs, item)'");
    expect(messagesOf('emit keys({"a": 1})', agent)[0]).toContain('tool.map.Keys(m)');
    expect(messagesOf('emit sorted([2, 1])', agent)[0]).toContain('tool.list.Sort(xs)');
    expect(messagesOf('emit split("a,b", ",")', agent)[0]).toContain('tool.str.Split(text, ",")');
    expect(messagesOf('emit join(["a"], ",")', agent)[0]).toContain('tool.str.Join(list, ", ")');
    expect(messagesOf('emit toUpperCase("a")', agent)[0]).toContain('tool.str.ToUpper(text)');
    expect(messagesOf('emit lower("A")', agent)[0]).toContain('tool.str.ToLower(text)');
    for (const message of [...messagesOf('emit str(3)', agent), ...messagesOf('emit keys({})', agent)]) expect(message).not.toContain('library');
  });

  it('says a turn cannot define functions when there is no equivalent', () => {
    expect(messagesOf('emit frobnicate(1)', { mode: 'agent' })).toEqual([
      "SCRIPT_FUNCTION_UNKNOWN No function named 'frobnicate' exists, and a turn's program cannot define functions: write the steps out in the command block, or use a built-in such as len(x) or a listed tool; or fix the name.",
    ]);
    const library = program('func helper() means\n  return 1\nendfunc\n');
    expect(messagesOf('emit frobnicate(1)', { mode: 'agent' }, [library])[0]).toContain("exists in this program or the host's libraries, and a turn's program cannot define functions");
  });

  it('suggests a tool only when the catalogue has it and allows it', () => {
    expect(messagesOf('emit keys({})', { mode: 'agent', tools: catalogOf(['tool.map.Keys']) })[0]).toContain('tool.map.Keys(m)');
    expect(messagesOf('emit keys({})', { mode: 'agent', tools: catalogOf(['tool.str.Split']) })[0]).toContain('cannot define functions');
    expect(messagesOf('emit keys({})', { mode: 'agent', tools: catalogOf(['tool.map.Keys'], ['tool.map.Keys']) })[0]).toContain('cannot define functions');
    // Advice that calls no tool needs none.
    expect(messagesOf('emit range(3)', { mode: 'agent', tools: catalogOf([]) })[0]).toContain('while loop');
  });
});

describe('a call of a function nothing defines, for a host', () => {
  it('keeps the library advice, after the equivalent when there is one', () => {
    expect(messagesOf('emit frobnicate(1)')).toEqual([
      "SCRIPT_FUNCTION_UNKNOWN No function named 'frobnicate' is defined in this program or its libraries; define it in a library passed with the program, or fix the name.",
    ]);
    expect(messagesOf('emit range(3)', { mode: 'host' })).toEqual([
      "SCRIPT_FUNCTION_UNKNOWN No function named 'range' is defined in this program or its libraries: count with a while loop instead: 'set i = 0', then 'while i < n' … 'set i = i + 1' … 'endwhile' (or define 'range' in a library passed with the program).",
    ]);
  });
});

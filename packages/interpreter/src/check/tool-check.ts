/**
 * Tool checks (seed 003 §11.1; reference §2.5 and the §7 checklist): every
 * tool reference anywhere in the AST — map keys, lvalue indexes,
 * interpolation holes, handlers, functions included — must exist in the
 * catalogue, be allowed by the catalogue's policy (asked with the call's
 * literal arguments), and get an accepted argument count.
 */
import type { CallExpression, Expression, Node, Program, ToolReference } from '../ast/index.ts';
import { forEachChild } from '../ast/index.ts';
import type { ToolCatalog, ToolSignature } from '../tool-signature.ts';
import type { CheckContext } from './check-context.ts';
import { staticArguments } from './static-arguments.ts';
import type { Finding } from './structure-check.ts';
import { grantOfDenial } from '../runtime/needed-grant.ts';

/** Every tool call in the program, in source order. */
export function findToolCalls(program: Program): { call: CallExpression; tool: ToolReference }[] {
  const calls: { call: CallExpression; tool: ToolReference }[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'CallExpression' && node.callee.type === 'ToolReference') calls.push({ call: node, tool: node.callee });
    forEachChild(node, visit);
  };
  visit(program);
  return calls;
}

function describeSignature(signature: ToolSignature): string {
  return signature.arguments.map((argument) => (argument.required ? argument.name : `${argument.name}?`)).join(', ');
}

function arityProblem(signature: ToolSignature, count: number): string | undefined {
  const required = signature.arguments.filter((argument) => argument.required).length;
  const maximum = signature.variadic ? Number.POSITIVE_INFINITY : signature.arguments.length;
  if (count >= required && count <= maximum) return undefined;
  const expected = maximum === required ? `${required}` : maximum === Number.POSITIVE_INFINITY ? `at least ${required}` : `${required} to ${maximum}`;
  return `takes ${expected} argument${maximum === 1 && required === 1 ? '' : 's'} (${describeSignature(signature)}) but is given ${count}`;
}

/**
 * The static keys of a map literal whose keys are all plain string literals,
 * or undefined when any key is computed.
 */
function literalKeys(expression: Expression | undefined): string[] | undefined {
  if (expression?.type !== 'MapLiteral') return undefined;
  const keys: string[] = [];
  for (const entry of expression.entries) {
    if (entry.key.type !== 'StringLiteral') return undefined;
    keys.push(entry.key.value);
  }
  return keys;
}

/** Values that can never be a map at run time. */
const NEVER_A_MAP = new Set(['NumberLiteral', 'StringLiteral', 'InterpolatedString', 'BooleanLiteral', 'NilLiteral', 'ListLiteral', 'BinaryExpression', 'UnaryExpression']);

/** Why the arguments of `call` do not fit `signature`, or undefined when they may. */
function argumentProblem(tools: ToolCatalog, signature: ToolSignature, call: CallExpression): string | undefined {
  const [only] = call.arguments;
  if (call.arguments.length === 1 && only) {
    const keys = literalKeys(only);
    // The host's binding rule decides; a catalogue that does not say leaves a map literal to the run time.
    if (keys && tools.isNamedArgumentMap === undefined) return undefined;
    if (keys && tools.isNamedArgumentMap?.(signature.name, keys) === true) {
      // Keys ignore case, so two that differ only in case name one argument twice; the host refuses that (a literal map
      // already in its check); a map with computed values is caught here, before anything runs.
      const sorted = [...keys].sort();
      const twice = sorted.findIndex((key, index) => index > 0 && key.toLowerCase() === sorted[index - 1]?.toLowerCase());
      if (twice > 0) return `is given one argument twice, as "${sorted[twice - 1]}" and "${sorted[twice]}" (named-argument keys ignore case); pass it once`;
      const given = new Set(keys.map((key) => key.toLowerCase()));
      const missing = signature.arguments.filter((argument) => argument.required && !given.has(argument.name.toLowerCase())).map((argument) => argument.name);
      if (missing.length === 0) return undefined;
      return `is called with named arguments but misses the required ${missing.map((name) => `"${name}"`).join(', ')} (arguments: ${describeSignature(signature)})`;
    }
    // A single value that may be a map at run time may be named arguments; the run time decides.
    if (!keys && !NEVER_A_MAP.has(only.type)) return undefined;
    const problem = arityProblem(signature, 1);
    if (problem && only.type === 'MapLiteral') {
      return `${problem}. Pass arguments positionally, tool.group.Name(a, b), or as one map whose keys are all argument names`;
    }
    return problem;
  }
  return arityProblem(signature, call.arguments.length);
}

/** The host's refusals of a literal argument's value (wrong type, nil where one is required), reported as SCRIPT_TOOL_ARGUMENT_TYPE. */
const ARGUMENT_REFUSALS: ReadonlySet<string> = new Set(['TOOL_ARGUMENT_INVALID', 'TOOL_ARGUMENT_MISSING']);

/**
 * The host's codes for a tool that is itself broken (its spec's scope function threw or returned no list of needs).
 * The call would fail when reached, so it is still refused before anything runs (the program proved whole), but in
 * words that put the fault on the tool, not on the policy: the model can only do without it.
 */
const BROKEN_TOOL: ReadonlySet<string> = new Set(['TOOL_SPEC_INVALID', 'TOOL_FAILED']);

/** How messages name a tool: as its author wrote it when the catalogue says so. */
const shownName = (signature: ToolSignature): string => signature.displayName ?? signature.name;

/**
 * How many distinct unknown tool names one check asks the catalogue for a "did you mean" (`suggest`). A lookup may
 * scan every tool with the host's policy (about 1 ms each with `@askloop/tools`' tool host, loaded machine), and a
 * 64 KiB program can name 2,000 unknown tools: that held the host's thread, every session's, for 1.9 s. Each name is
 * asked once; names past this many are reported without a suggestion (the model fixes the first ones first).
 */
export const MAX_TOOL_SUGGESTIONS = 20;

/** Runs the tool checks against the catalogue: existence, the host's policy decision (with the literal arguments), arity. */
export function checkTools(program: Program, context: CheckContext): Finding[] {
  const { tools } = context;
  if (!tools) return [];
  const findings: Finding[] = [];
  const suggestions = new Map<string, string | undefined>();
  const suggestionFor = (name: string): string | undefined => {
    if (suggestions.has(name) || suggestions.size >= MAX_TOOL_SUGGESTIONS) return suggestions.get(name);
    const [suggestion] = tools.suggest?.(name) ?? [];
    suggestions.set(name, suggestion);
    return suggestion;
  };
  for (const { call, tool } of findToolCalls(program)) {
    const where = { line: tool.line, column: tool.column, tool: `tool.${tool.name}` };
    const signature = tools.get(tool.canonicalName);
    if (!signature) {
      const suggestion = suggestionFor(tool.canonicalName);
      findings.push({
        code: 'SCRIPT_TOOL_UNKNOWN',
        message: `Unknown tool '${where.tool}'.${suggestion ? ` Did you mean '${suggestion}'?` : ''} Only tools the host lists can be called.`,
        ...where,
      });
      continue;
    }
    const refusal = tools.check?.(tool.canonicalName, staticArguments(call.arguments));
    if (refusal && ARGUMENT_REFUSALS.has(refusal.code)) {
      // A literal argument the host would refuse at run time: not a permission matter, a wrong value.
      findings.push({ code: 'SCRIPT_TOOL_ARGUMENT_TYPE', message: `Tool '${shownName(signature)}': ${refusal.message}.`, ...where });
      continue;
    }
    if (refusal && BROKEN_TOOL.has(refusal.code)) {
      findings.push({ code: 'SCRIPT_TOOL_DENIED', message: `Tool '${shownName(signature)}' cannot be used: it is broken (${refusal.code}): ${refusal.message}; do without it`, ...where });
      continue;
    }
    if (refusal) {
      // The grant that lifts it, as data beside the message (a host may say it without reading the message).
      const grant = grantOfDenial(refusal.grant, refusal.code);
      findings.push({ code: 'SCRIPT_TOOL_DENIED', message: `Tool '${shownName(signature)}' is not allowed here (${refusal.code}): ${refusal.message}`, ...where, ...(grant === undefined ? {} : { grant }) });
      continue;
    }
    const problem = argumentProblem(tools, signature, call);
    if (problem) findings.push({ code: 'SCRIPT_TOOL_ARGUMENT_COUNT', message: `Tool '${shownName(signature)}' ${problem}.`, ...where });
  }
  return findings;
}

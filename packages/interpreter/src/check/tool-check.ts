/**
 * Tool checks (seed 003 §11.1; reference §2.5 and the §7 checklist): every
 * tool reference anywhere in the AST — map keys, lvalue indexes,
 * interpolation holes, handlers, functions included — must exist in the
 * catalogue, be allowed by the policy, and get an accepted argument count.
 */
import type { CallExpression, Expression, Node, Program, ToolReference } from '../ast/index.ts';
import { childrenOf } from '../ast/index.ts';
import type { ToolCatalog, ToolSignature } from '../tool-signature.ts';
import type { CheckContext, ToolPolicy } from './check-context.ts';
import { nearestName } from './nearest-name.ts';
import type { Finding } from './structure-check.ts';
import { matchToolGlob } from './tool-glob.ts';

/** Every tool call in the program, in source order. */
export function findToolCalls(program: Program): { call: CallExpression; tool: ToolReference }[] {
  const calls: { call: CallExpression; tool: ToolReference }[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'CallExpression' && node.callee.type === 'ToolReference') calls.push({ call: node, tool: node.callee });
    for (const child of childrenOf(node)) visit(child);
  };
  visit(program);
  return calls;
}

/** Why a policy denies `name`, or undefined when it allows it. */
export function policyDenial(policy: ToolPolicy, name: string): string | undefined {
  const denied = policy.deny.find((pattern) => matchToolGlob(pattern, name));
  if (denied !== undefined) return `it matches the deny pattern '${denied}'`;
  if (!policy.allow.some((pattern) => matchToolGlob(pattern, name))) {
    return policy.allow.length === 0 ? 'the allow list is empty, so every tool is denied' : `it matches no allow pattern (allowed: ${policy.allow.join(', ')})`;
  }
  return undefined;
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

/**
 * Mirrors the tools package's rule for one map of named arguments: non-empty,
 * every key names a declared argument (case-insensitively), and when the first
 * argument accepts a map itself, some key names another argument.
 */
function isNamedArgumentMap(signature: ToolSignature, keys: readonly string[]): boolean {
  if (keys.length === 0 || signature.arguments.length === 0) return false;
  const declared = signature.arguments.map((argument) => argument.name.toLowerCase());
  const lower = keys.map((key) => key.toLowerCase());
  if (!lower.every((key) => declared.includes(key))) return false;
  const first = signature.arguments[0];
  if (first && (first.type === 'map' || first.type === 'any')) return lower.some((key) => key !== first.name.toLowerCase());
  return true;
}

/** Values that can never be a map at run time. */
const NEVER_A_MAP = new Set(['NumberLiteral', 'StringLiteral', 'InterpolatedString', 'BooleanLiteral', 'NilLiteral', 'ListLiteral', 'BinaryExpression', 'UnaryExpression']);

/** Why the arguments of `call` do not fit `signature`, or undefined when they may. */
function argumentProblem(signature: ToolSignature, call: CallExpression): string | undefined {
  const [only] = call.arguments;
  if (call.arguments.length === 1 && only) {
    const keys = literalKeys(only);
    if (keys && isNamedArgumentMap(signature, keys)) {
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

/** Runs the tool checks for whatever the context provides (catalogue, policy). */
export function checkTools(program: Program, context: CheckContext): Finding[] {
  const { tools, policy } = context;
  if (!tools && !policy) return [];
  const findings: Finding[] = [];
  for (const { call, tool } of findToolCalls(program)) {
    const where = { line: tool.line, column: tool.column };
    const written = `tool.${tool.name}`;
    const signature = tools?.get(tool.canonicalName);
    if (tools && !signature) {
      const suggestion = suggest(tools, tool.canonicalName, policy);
      findings.push({
        code: 'SCRIPT_TOOL_UNKNOWN',
        message: `Unknown tool '${written}'.${suggestion ? ` Did you mean '${suggestion}'?` : ''} Only tools the host lists can be called.`,
        ...where,
      });
      continue;
    }
    if (policy) {
      const denial = policyDenial(policy, tool.canonicalName);
      if (denial) {
        findings.push({ code: 'SCRIPT_TOOL_DENIED', message: `Tool '${tool.canonicalName}' is not allowed here: ${denial}. Use another way, or ask the host to allow it.`, ...where });
        continue;
      }
    }
    const refusal = tools?.check?.(tool.canonicalName);
    if (refusal) {
      findings.push({ code: 'SCRIPT_TOOL_DENIED', message: `Tool '${tool.canonicalName}' is not allowed here (${refusal.code}): ${refusal.message}`, ...where });
      continue;
    }
    if (signature) {
      const problem = argumentProblem(signature, call);
      if (problem) findings.push({ code: 'SCRIPT_TOOL_ARGUMENT_COUNT', message: `Tool '${signature.name}' ${problem}.`, ...where });
    }
  }
  return findings;
}

function suggest(tools: ToolCatalog, name: string, policy: ToolPolicy | undefined): string | undefined {
  const names = tools.names();
  const allowed = names.filter((candidate) => (policy === undefined || policyDenial(policy, candidate) === undefined) && tools.check?.(candidate) === undefined);
  return nearestName(name, allowed.length > 0 ? allowed : names);
}

/** Expressions → JavaScript expressions (reference §1.7). One dispatcher; helpers carry the semantics. */
import type { CallExpression, Expression } from '../../ast/index.ts';
import { findBuiltin } from '../../runtime/index.ts';
import type { BodyContext } from './code-context.ts';

const BINARY: Record<string, string> = {
  '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'mod', '**': 'pow',
  '<': 'lt', '>': 'gt', '<=': 'le', '>=': 'ge', '&': 'band', '|': 'bor', '^': 'bxor',
};

/** Generator failure on an AST the validator should have refused: an interpreter bug, reported as `SCRIPT_INTERNAL`. */
export function internal(message: string): never {
  throw new Error(`code generator: ${message}`);
}

/** The helper for a binary operator; only own entries of the table count (`constructor` is no operator). */
function binaryHelper(operator: string): string {
  if (!Object.hasOwn(BINARY, operator)) return internal(`unknown binary operator ${JSON.stringify(operator)}`);
  return BINARY[operator] as string;
}

/** A variable read whose value is only inspected, never stored. */
function peek(name: string, context: BodyContext): string {
  const global = context.globals.get(name);
  if (global !== undefined) return context.tables.constant(global);
  return `(${context.variable(name)} ?? null)`;
}

/** An operand that is only inspected: variables are read without sharing them. */
export function generateOperand(node: Expression, context: BodyContext): string {
  return node.type === 'Identifier' ? peek(node.name, context) : generateExpression(node, context);
}

/** Generates a JavaScript expression for a script expression. */
export function generateExpression(node: Expression, context: BodyContext): string {
  const { tables } = context;
  switch (node.type) {
    case 'NumberLiteral':
    case 'StringLiteral':
      return tables.constant(node.value);
    case 'BooleanLiteral':
      return node.value ? 'true' : 'false';
    case 'NilLiteral':
      return 'null';
    case 'InterpolatedString': {
      const parts = node.parts.map((part) => {
        if (part.type === 'TextPart') return tables.constant(part.value);
        if (part.type === 'InterpolationPart') return `txt(${generateExpression(part.expression, context)}, ${tables.position(part)})`;
        return internal(`unknown interpolation part ${JSON.stringify((part as { type: unknown }).type)}`);
      });
      if (node.parts.every((part) => part.type === 'TextPart')) return tables.constant(node.parts.map((part) => (part.type === 'TextPart' ? part.value : '')).join(''));
      return `cs(${parts.join(' + ')}, ${tables.position(node)})`;
    }
    case 'ListLiteral':
      if (node.elements.length > tables.collectionSize) return `size(${node.elements.length}, ${tables.position(node)})`;
      return `[${node.elements.map((element) => generateExpression(element, context)).join(', ')}]`;
    case 'MapLiteral':
      if (node.entries.length > tables.collectionSize) return `size(${node.entries.length}, ${tables.position(node)})`;
      return `map([${node.entries
        .map((entry) => {
          if (entry.type !== 'MapEntry') return internal(`unknown map entry ${JSON.stringify((entry as { type: unknown }).type)}`);
          return `${generateExpression(entry.key, context)}, ${generateExpression(entry.value, context)}`;
        })
        .join(', ')}], ${tables.position(node)})`;
    case 'Identifier':
    case 'Placeholder': {
      // A placeholder reads the variable, as interpolation does (the reference returns the text "{{name}}").
      const global = context.globals.get(node.name);
      if (global !== undefined) return tables.constant(global);
      return `sh(${context.variable(node.name)})`;
    }
    case 'LastExpression':
      return 'last';
    case 'EvalExpression':
      return `raise("SCRIPT_NOT_IMPLEMENTED", "eval() is not supported: NeuroScript cannot evaluate code from a string. Compute the value directly.", ${tables.position(node)})`;
    case 'BinaryExpression': {
      const left = generateOperand(node.left, context);
      const right = generateOperand(node.right, context);
      switch (node.operator) {
        case 'and':
          return `(tr(${left}) && tr(${right}))`;
        case 'or':
          return `(tr(${left}) || tr(${right}))`;
        case '==':
          return `eq(${left}, ${right}, ${tables.position(node)})`;
        case '!=':
          return `ne(${left}, ${right}, ${tables.position(node)})`;
        default:
          return `${binaryHelper(node.operator)}(${left}, ${right}, ${tables.position(node)})`;
      }
    }
    case 'UnaryExpression': {
      const argument = generateExpression(node.argument, context);
      switch (node.operator) {
        case '-':
          return `neg(${argument}, ${tables.position(node)})`;
        case 'not':
        case 'no':
          return `!tr(${argument})`;
        case 'some':
          return `tr(${argument})`;
        case '~':
          return `bnot(${argument}, ${tables.position(node)})`;
        case 'typeof':
          return `tof(${argument})`;
      }
      return internal(`unknown unary operator ${JSON.stringify((node as { operator: unknown }).operator)}`);
    }
    case 'IndexExpression':
      return `ix(${generateOperand(node.object, context)}, ${generateExpression(node.index, context)}, ${tables.position(node)})`;
    case 'CallExpression':
      return generateCall(node, context);
  }
  return internal(`unknown expression ${JSON.stringify((node as { type: unknown }).type)}`);
}

/** Calls: built-ins first (case-insensitive), then user functions; `tool.…` goes to the host. */
function generateCall(node: CallExpression, context: BodyContext): string {
  const { tables } = context;
  const where = tables.position(node);
  const callee = node.callee;
  if (callee.type === 'ToolReference') {
    const args = node.arguments.map((argument) => generateExpression(argument, context));
    return `tool(${tables.constant(callee.canonicalName)}, [${args.join(', ')}], ${where})`;
  }
  if (callee.type !== 'FunctionReference') return internal(`unknown callee ${JSON.stringify((callee as { type: unknown }).type)}`);
  if (findBuiltin(callee.name) !== undefined) {
    // Built-ins never store their arguments, so reading a variable for them does not share it.
    const args = node.arguments.map((argument) => generateOperand(argument, context));
    return `bi(${tables.constant(callee.name.toLowerCase())}, [${args.join(', ')}], ${where})`;
  }
  const args = node.arguments.map((argument) => generateExpression(argument, context));
  const target = context.functions.get(callee.name);
  if (target === undefined) {
    return `(${[...args, `raise("SCRIPT_FUNCTION_NOT_FOUND", ${tables.constant(`No function named '${callee.name}' is defined.`)}, ${where})`].join(', ')})`;
  }
  if (args.length < target.required || args.length > target.total) {
    const expected = target.required === target.total ? `${target.required}` : `${target.required} to ${target.total}`;
    const message = `${callee.name}() takes ${expected} argument${target.total === 1 ? '' : 's'}, got ${args.length}.`;
    return `(${[...args, `raise("SCRIPT_ARGUMENT_COUNT", ${tables.constant(message)}, ${where})`].join(', ')})`;
  }
  // Missing optional arguments are nil. The last argument runs after the others:
  // it records the call site (for error frames) and enters the call (fuel, depth).
  const padded = [...args, ...new Array<string>(target.total - args.length).fill('null')];
  return `${target.id}(${[...padded, `enter(site = ${where})`].join(', ')})`;
}

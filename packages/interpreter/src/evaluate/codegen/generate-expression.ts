/** Expressions → JavaScript expressions (reference §1.7). One dispatcher; helpers carry the semantics. */
import type { CallExpression, Expression, Identifier, Placeholder } from '../../ast/index.ts';
import type { UnsetRead } from '../../check/unset-variable-message.ts';
import { findBuiltin } from '../../runtime/index.ts';
import { type BodyContext, numberSource } from './code-context.ts';

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

/** Whether `name` is neither a global nor bound anywhere in the body's file: it could only ever read nil. */
function isUnset(name: string, context: BodyContext): boolean {
  return !context.globals.has(name) && !context.names.bound.has(name);
}

/** A read of an unset name: the run raises `SCRIPT_VARIABLE_UNSET` there (the check warns about it before the run). */
function unsetRead(node: Identifier | Placeholder, context: BodyContext, where: UnsetRead['where']): string {
  const message = context.names.unsetMessage(node.name, { where, inFunction: context.kind === 'function' });
  return `raise("SCRIPT_VARIABLE_UNSET", ${context.tables.constant(message)}, ${context.tables.position(node)})`;
}

/** A variable read whose value is only inspected, never stored (variables start as nil, so a slot is never undefined). */
function peek(node: Identifier, context: BodyContext): string {
  if (isUnset(node.name, context)) return unsetRead(node, context, 'code');
  return context.globals.has(node.name) ? context.tables.global(node.name) : context.variable(node.name);
}

/**
 * A number literal as JavaScript source, so V8 sees the constant (and drops
 * the type test on it); what `numberSource` refuses goes through the table.
 */
function numberLiteral(value: unknown, context: BodyContext): string {
  return numberSource(value) ?? context.tables.constant(value);
}

/** Whether an operand's code may be repeated: it has no effects and reads the same each time within one expression. */
function isPlain(node: Expression): boolean {
  return node.type === 'Identifier' || node.type === 'NumberLiteral' || node.type === 'StringLiteral' || node.type === 'LastExpression' ||
    node.type === 'BooleanLiteral' || node.type === 'NilLiteral';
}

/** Literals whose value is never a number. */
const NOT_NUMBERS: ReadonlySet<string> = new Set(['StringLiteral', 'InterpolatedString', 'BooleanLiteral', 'NilLiteral', 'ListLiteral', 'MapLiteral']);

/** Operators with an inline fast path when both operands are numbers, and the JavaScript operator that computes it. */
const NUMERIC_FAST: Record<string, string> = { '+': '+', '-': '-', '*': '*', '<': '<', '>': '>', '<=': '<=', '>=': '>=' };

/** Whether an expression always yields a boolean (so a condition needs no truthiness test). */
function isBoolean(node: Expression): boolean {
  if (node.type === 'BooleanLiteral') return true;
  if (node.type === 'BinaryExpression') return ['<', '>', '<=', '>=', '==', '!=', 'and', 'or'].includes(node.operator);
  if (node.type === 'UnaryExpression') return node.operator === 'not' || node.operator === 'no' || node.operator === 'some';
  return false;
}

/** A condition (`if`, `while`, `and`, `or`, `not`) as a JavaScript boolean. */
export function generateCondition(node: Expression, context: BodyContext): string {
  // Truthiness only inspects the value, so a variable is read without sharing it.
  const code = generateOperand(node, context);
  return isBoolean(node) ? code : `tr(${code})`;
}

/**
 * `left <op> right` for the arithmetic and ordering operators: the JavaScript
 * operator when both operands are numbers (the helper gives the same result
 * for them), the helper otherwise. Operands are evaluated once, left first.
 */
function generateNumericFast(node: Expression & { type: 'BinaryExpression' }, operator: string, context: BodyContext): string {
  const helper = binaryHelper(node.operator);
  const position = context.tables.position(node);
  // A literal that is no number never takes the fast path: call the helper straight away.
  if (NOT_NUMBERS.has(node.left.type) || NOT_NUMBERS.has(node.right.type)) {
    return `${helper}(${generateOperand(node.left, context)}, ${generateOperand(node.right, context)}, ${position})`;
  }
  // Each side's code once, left first: a temporary (assigned in `setup`) unless it may be repeated.
  let setup = '';
  const once = (side: Expression): string => {
    const code = generateOperand(side, context);
    if (isPlain(side)) return code;
    const temporary = context.scratch();
    setup += `${temporary} = ${code}, `;
    return temporary;
  };
  const left = once(node.left);
  const right = once(node.right);
  const isNumber = (side: Expression): boolean => side.type === 'NumberLiteral' && typeof side.value === 'number';
  const leftNumber = isNumber(node.left);
  const rightNumber = isNumber(node.right);
  const fast = `${left} ${operator} ${right}`;
  let choice: string;
  if (leftNumber && rightNumber) choice = `(${fast})`;
  else {
    const tests = leftNumber ? `typeof ${right} === 'number'` : rightNumber ? `typeof ${left} === 'number'` : `typeof ${left} === 'number' && typeof ${right} === 'number'`;
    choice = `(${tests} ? ${fast} : ${helper}(${left}, ${right}, ${position}))`;
  }
  return `(${setup}${choice})`;
}

/** An operand that is only inspected: variables are read without sharing them. */
export function generateOperand(node: Expression, context: BodyContext): string {
  return node.type === 'Identifier' ? peek(node, context) : generateExpression(node, context);
}

/** Generates a JavaScript expression for a script expression. */
export function generateExpression(node: Expression, context: BodyContext): string {
  const { tables } = context;
  switch (node.type) {
    case 'NumberLiteral':
      return numberLiteral(node.value, context);
    case 'StringLiteral':
      return tables.constant(node.value);
    case 'BooleanLiteral':
      return node.value ? 'true' : 'false';
    case 'NilLiteral':
      return 'null';
    case 'InterpolatedString': {
      const parts = node.parts.map((part) => {
        if (part.type === 'TextPart') return tables.constant(part.value);
        if (part.type === 'InterpolationPart') {
          const { expression } = part;
          const unset = expression.type === 'Identifier' && isUnset(expression.name, context);
          return `txt(${unset ? unsetRead(expression, context, 'hole') : generateExpression(expression, context)}, ${tables.position(part)})`;
        }
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
      if (isUnset(node.name, context)) return unsetRead(node, context, node.type === 'Placeholder' ? 'placeholder' : 'code');
      if (context.globals.has(node.name)) return tables.global(node.name);
      // Only a container can be shared; the test keeps the call off the path of numbers and strings.
      const variable = context.variable(node.name);
      return `(typeof ${variable} === 'object' ? sh(${variable}) : ${variable})`;
    }
    case 'LastExpression':
      return 'last';
    case 'EvalExpression':
      return `raise("SCRIPT_NOT_IMPLEMENTED", "eval() is not supported: NeuroScript cannot evaluate code from a string. Compute the value directly.", ${tables.position(node)})`;
    case 'BinaryExpression': {
      if (Object.hasOwn(NUMERIC_FAST, node.operator)) return generateNumericFast(node, NUMERIC_FAST[node.operator] as string, context);
      if (node.operator === 'and') return `(${generateCondition(node.left, context)} && ${generateCondition(node.right, context)})`;
      if (node.operator === 'or') return `(${generateCondition(node.left, context)} || ${generateCondition(node.right, context)})`;
      const left = generateOperand(node.left, context);
      const right = generateOperand(node.right, context);
      switch (node.operator) {
        case '==':
          return `eq(${left}, ${right}, ${tables.position(node)})`;
        case '!=':
          return `ne(${left}, ${right}, ${tables.position(node)})`;
        default:
          return `${binaryHelper(node.operator)}(${left}, ${right}, ${tables.position(node)})`;
      }
    }
    case 'UnaryExpression': {
      // The operand's code is generated once, by the case that uses it: generated twice, a chain of
      // `not not not …` doubled the code with every operator (2^n in the host, for a program of n words).
      switch (node.operator) {
        case '-':
          return `neg(${generateExpression(node.argument, context)}, ${tables.position(node)})`;
        case 'not':
        case 'no':
          return `!${generateCondition(node.argument, context)}`;
        case 'some':
          return generateCondition(node.argument, context);
        case '~':
          return `bnot(${generateExpression(node.argument, context)}, ${tables.position(node)})`;
        case 'typeof':
          return `tof(${generateExpression(node.argument, context)})`;
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
  const site = tables.positionIndex(node);
  const where = `P[${site}]`;
  const callee = node.callee;
  if (callee.type === 'ToolReference') {
    const args = node.arguments.map((argument) => generateExpression(argument, context));
    return `tool(${tables.constant(callee.canonicalName)}, [${args.join(', ')}], ${where}, ${tables.constant(`tool.${callee.name}`)})`;
  }
  if (callee.type !== 'FunctionReference') return internal(`unknown callee ${JSON.stringify((callee as { type: unknown }).type)}`);
  if (findBuiltin(callee.name) !== undefined) {
    // Built-ins never store their arguments, so reading a variable for them does not share it.
    // The built-in is looked up here, once, and travels in the constant table by name (resolved in the isolate).
    const name = callee.name.toLowerCase();
    const args = node.arguments.map((argument) => generateOperand(argument, context));
    return `bi(${tables.constant(name)}, ${tables.builtin(name)}, [${args.join(', ')}], ${where})`;
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
  // Missing optional arguments are nil. The callee's depth and site come last: the
  // site is recorded (for error frames) after the arguments ran, as the call starts.
  const padded = [...args, ...new Array<string>(target.total - args.length).fill('null')];
  return `${target.id}(${[...padded, 'depth + 1', `site = ${site}`].join(', ')})`;
}

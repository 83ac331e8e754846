/**
 * Statements → JavaScript statements (reference §1.8). Every statement costs
 * one unit of fuel (`fuelStep`). In a body with an `on error` handler each
 * statement is wrapped so a failure runs the handler and, after
 * `clear_error`, execution resumes at the next statement of the innermost
 * block; loops map to JavaScript loops, so `break`/`continue`/`return` are
 * JavaScript's own.
 */
import type { LValue, Statement } from '../../ast/index.ts';
import type { BodyContext } from './code-context.ts';
import { fuelStep, fuelSteps } from './fuel-step.ts';
import { generateCondition, generateExpression, internal } from './generate-expression.ts';

/** Generates code that stores the JavaScript value `value` into an lvalue. */
export function generateStore(target: LValue, value: string, context: BodyContext): string {
  const { tables } = context;
  if (target.type !== 'LValue') return internal(`unknown assignment target ${JSON.stringify((target as { type: unknown }).type)}`);
  if (context.globals.has(target.name)) {
    return `raise("SCRIPT_GLOBAL_READ_ONLY", ${tables.constant(`'${target.name}' is a global and cannot be changed; store the value under another name.`)}, ${tables.position(target)});`;
  }
  const variable = context.variable(target.name);
  if (target.accessors.length === 0) return `${variable} = ${value};`;
  // One accessor (the common `set x[key] = …`): no path to build. The value is taken first, as below.
  const only = target.accessors.length === 1 ? target.accessors[0] : undefined;
  if (only?.type === 'FieldAccessor' || only?.type === 'IndexAccessor') {
    const key = only.type === 'FieldAccessor' ? `${tables.constant(only.name)}, true` : `${generateExpression(only.index, context)}, false`;
    const taken = context.temporary();
    return `{ const ${taken} = ${value}; ${variable} = store1(${variable}, ${key}, ${tables.position(only)}, ${taken}); }`;
  }
  const steps = target.accessors.map((accessor) => {
    if (accessor.type === 'FieldAccessor') return `{ key: ${tables.constant(accessor.name)}, field: true, where: ${tables.position(accessor)} }`;
    if (accessor.type === 'IndexAccessor') return `{ key: ${generateExpression(accessor.index, context)}, field: false, where: ${tables.position(accessor)} }`;
    return internal(`unknown accessor ${JSON.stringify((accessor as { type: unknown }).type)}`);
  });
  const temporary = context.temporary();
  return `{ const ${temporary} = ${value}; ${variable} = store(${variable}, [${steps.join(', ')}], ${temporary}); }`;
}

/** Generates a block of statements. */
export function generateBlock(statements: readonly Statement[], context: BodyContext): string {
  return statements.map((statement) => generateStatement(statement, context)).join('\n');
}

/**
 * Generates a block whose first fuel step is paid ahead by the code that
 * enters it (see `fuelSteps`): returns the code and the position of that
 * step, or null when the block spends no fuel. Only in bodies without an
 * `on error` handler, where every statement's step sits right at its start.
 */
export function generateBlockPaidAhead(statements: readonly Statement[], context: BodyContext): { code: string; first: string | null } {
  // Blocks nest (a loop inside a loop body): keep the enclosing block's state.
  const { payingAhead, paidAt } = context;
  context.payingAhead = !context.hasHandler;
  context.paidAt = null;
  const code = generateBlock(statements, context);
  const first = context.paidAt;
  context.payingAhead = payingAhead;
  context.paidAt = paidAt;
  return { code, first };
}

function generateStatement(node: Statement, context: BodyContext): string {
  const { tables } = context;
  const paid = context.payingAhead;
  context.payingAhead = false;
  const body = generateStatementBody(node, context);
  // A statement that spends nothing passes the paid step on to the next one.
  if (body === '') {
    context.payingAhead = paid;
    return '';
  }
  const where = tables.position(node);
  if (paid) {
    context.paidAt = where;
    return body;
  }
  if (!context.hasHandler) return `${fuelStep(where)}\n${body}`;
  return `try {\n${fuelStep(where)}\n${body}\n} catch (error) { recover(error); }`;
}

function generateStatementBody(node: Statement, context: BodyContext): string {
  const { tables } = context;
  const where = (): string => tables.position(node);
  const expression = (value: Parameters<typeof generateExpression>[0]): string => generateExpression(value, context);
  switch (node.type) {
    case 'SetStatement': {
      const value = context.temporary();
      if (node.targets.length === 1) {
        return `{ const ${value} = ${expression(node.value)};\n${generateStore(node.targets[0] as LValue, value, context)}\nlast = ${value}; }`;
      }
      const list = context.temporary();
      const stores = node.targets.map((target, index) => generateStore(target, `(${list}[${index}] ?? null)`, context));
      return `{ const ${value} = ${expression(node.value)}; const ${list} = multi(${value}, ${node.targets.length}, ${where()});\n${stores.join('\n')}\nlast = ${value}; }`;
    }
    case 'CallStatement':
      return `last = ${expression(node.call)};`;
    case 'ReturnStatement': {
      if (context.inHandler) return `raise("SCRIPT_RETURN_IN_HANDLER", "'return' is not allowed inside an 'on error' handler.", ${where()});`;
      if (context.kind === 'command') {
        return `raise("SCRIPT_RETURN_IN_COMMAND", "'return' is not allowed in a command block; use 'fail' to stop or let the block end.", ${where()});`;
      }
      const values = node.values.map(expression);
      const result = values.length === 0 ? 'null' : values.length === 1 ? (values[0] as string) : `[${values.join(', ')}]`;
      const temporary = context.temporary();
      return `{ const ${temporary} = ${result}; return ${temporary}; }`;
    }
    case 'EmitStatement':
      return `last = emit(${expression(node.value)}, ${where()});`;
    case 'WhisperStatement':
      return `last = whisper(${expression(node.handle)}, ${expression(node.value)}, ${where()});`;
    case 'MustStatement':
      return `last = must(${expression(node.condition)}, ${where()});`;
    case 'FailStatement':
      return node.message === null ? `raise("SCRIPT_FAIL", "fail statement executed", ${where()});` : `failWith(${expression(node.message)}, ${where()});`;
    case 'ClearErrorStatement':
      if (!context.inHandler) return `raise("SCRIPT_CLEAR_ERROR_OUTSIDE_HANDLER", "'clear_error' is only allowed inside an 'on error' handler.", ${where()});`;
      return 'cleared = true;';
    case 'AskStatement': {
      const options = node.options === null ? 'undefined' : expression(node.options);
      const value = context.temporary();
      const store = node.into === null ? '' : generateStore(node.into, value, context);
      return `{ const ${value} = ask(${expression(node.agent)}, ${expression(node.prompt)}, ${options}, ${where()});\n${store}\nlast = ${value}; }`;
    }
    case 'PromptUserStatement': {
      const value = context.temporary();
      return `{ const ${value} = prompt(${expression(node.prompt)}, ${where()});\n${generateStore(node.into, value, context)}\nlast = ${value}; }`;
    }
    case 'BreakStatement':
      // Outside any loop (only possible in a handler, which the checker forbids anyway) it does nothing.
      return context.loopDepth > 0 ? 'break;' : '';
    case 'ContinueStatement':
      return context.loopDepth > 0 ? 'continue;' : '';
    case 'IfStatement': {
      const consequent = generateBlock(node.consequent, context);
      const alternate = node.alternate === null ? '' : ` else {\n${generateBlock(node.alternate, context)}\n}`;
      return `if (${generateCondition(node.condition, context)}) {\n${consequent}\n}${alternate}`;
    }
    case 'WhileStatement': {
      const position = where();
      const count = context.temporary();
      const condition = generateCondition(node.condition, context);
      context.loopDepth++;
      const body = generateBlockPaidAhead(node.body, context);
      context.loopDepth--;
      return `{ let ${count} = 0;\nwhile (${condition}) {\nif (++${count} > ${tables.maxLoop}) loopLimit(${position});\n${fuelSteps(position, body.first)}\n${body.code}\n} }`;
    }
    case 'ForEachStatement': {
      const position = where();
      const items = context.temporary();
      const index = context.temporary();
      const collection = expression(node.collection);
      if (context.globals.has(node.variable)) {
        return `raise("SCRIPT_GLOBAL_READ_ONLY", ${tables.constant(`'${node.variable}' is a global and cannot be a loop variable.`)}, ${position});`;
      }
      const variable = context.variable(node.variable);
      context.loopDepth++;
      const body = generateBlockPaidAhead(node.body, context);
      context.loopDepth--;
      return `{ const ${items} = items(${collection}, ${position});\nfor (let ${index} = 0; ${index} < ${items}.length; ${index}++) {\nif (${index} >= ${tables.maxLoop}) loopLimit(${position});\n${fuelSteps(position, body.first)}\n${variable} = ${items}[${index}];\n${body.code}\n} }`;
    }
    // `on error` is installed for the whole body where it is declared; where it is written it does nothing.
    case 'OnErrorStatement':
    // The host fires no events in this version, so registering or clearing a handler has no effect (docs/deviations).
    case 'OnEventStatement':
    case 'ClearEventStatement':
      return '';
  }
  return internal(`unknown statement ${JSON.stringify((node as { type: unknown }).type)}`);
}

/**
 * One function (or a program's command blocks) → one JavaScript function
 * (reference §1.7 "Calls", §1.8 `on error`, §1.9 scoping). Variables are
 * function locals; a function's parameters are its JavaScript parameters.
 */
import type { Statement } from '../../ast/index.ts';
import type { BodyContext } from './code-context.ts';
import { entrySteps } from './fuel-step.ts';
import { generateBlock, generateBlockPaidAhead } from './generate-statement.ts';

/** Finds the first `on error` of a body (outside nested handlers), wherever it is written. */
export function findHandler(statements: readonly Statement[]): readonly Statement[] | null {
  for (const statement of statements) {
    if (statement.type === 'OnErrorStatement') return statement.body;
    const nested =
      statement.type === 'IfStatement'
        ? (findHandler(statement.consequent) ?? (statement.alternate === null ? null : findHandler(statement.alternate)))
        : statement.type === 'WhileStatement' || statement.type === 'ForEachStatement'
          ? findHandler(statement.body)
          : null;
    if (nested !== null) return nested;
  }
  return null;
}

/**
 * Generates `function <id>(<parameters>, depth, at) { … }`. A function
 * receives its call depth and its call site (an index into `P`) from the
 * caller, so no shared depth counter is kept in step on every return, and
 * checks the depth limit and spends the call's unit of fuel before anything
 * else, as the caller did before. The body keeps `last`, `site` (index of the
 * call being made, -1 before the first, for error frames) and, with a handler,
 * its `recover` logic: set the error variables, run the handler once, resume
 * after `clear_error` or rethrow. Variables start as nil.
 */
export function generateBody(id: string, parameters: readonly string[], statements: readonly Statement[], context: BodyContext, returns: readonly string[] = []): string {
  const parameterNames = parameters.map((name) => context.variable(name));
  const handlerBody = findHandler(statements);
  const outerScratch = context.takeScratch();
  // A function pays its first statement's step with its entry step (commands have no entry step).
  const { code: body, first } = context.kind === 'function' ? generateBlockPaidAhead(statements, context) : { code: generateBlock(statements, context), first: null };
  let handler = '';
  if (handlerBody !== null) {
    const message = context.variable('system_error_message');
    const code = context.variable('system_error_code');
    context.inHandler = true;
    const savedLoops = context.loopDepth;
    context.loopDepth = 0;
    const bodyScratch = context.takeScratch();
    const handlerCode = generateBlock(handlerBody, context);
    const handlerScratch = context.restoreScratch(bodyScratch);
    context.inHandler = false;
    context.loopDepth = savedLoops;
    handler = [
      'let inHandler = false, cleared = false;',
      'const token = {};',
      `const handler = () => {\n${declare(handlerScratch)}\n${handlerCode}\n};`,
      'const recover = (error) => {',
      '  if (inHandler || !handles(error, token)) throw error;',
      `  ${message} = error.message; ${code} = error.code;`,
      '  inHandler = true; cleared = false;',
      // An error raised by the handler itself must not run the handler again in an enclosing block.
      '  try { handler(); } catch (inner) { if (inner !== null && typeof inner === "object") inner.handledBy = token; throw inner; } finally { inHandler = false; }',
      '  if (!cleared) throw error;',
      '  cleared = false;',
      '};',
    ].join('\n');
  }
  const scratch = context.restoreScratch(outerScratch);
  // Before the locals are listed: a `returns` name the body never mentions gets its slot (nil) here.
  const endValue = implicitReturn(returns, context);
  const locals = context.variables().filter((name) => !parameterNames.includes(name));
  const name = context.tables.constant(context.name);
  const isFunction = context.kind === 'function';
  return [
    `function ${id}(${[...parameterNames, ...(isFunction ? ['depth', 'at'] : [])].join(', ')}) {`,
    // The call's own checks: depth first, then fuel; outside the try, so a failure is the caller's (at its call site).
    isFunction ? `if (depth > ${context.tables.maxDepth}) depthLimit(at);\n${entrySteps('P[at]', first, name)}` : 'const depth = 0;',
    locals.length > 0 ? `let ${locals.map((local) => `${local} = null`).join(', ')};` : '',
    declare(scratch),
    'let last = null, site = -1;',
    handler,
    'try {',
    body,
    '} catch (error) { throw frame(error, ' + name + ', site); }',
    `return ${endValue};`,
    '}',
  ].join('\n');
}

/**
 * What a function gives back when it ends without `return`: the values of
 * its `returns` names, as `return a, b` would give them (one name: its value;
 * several: a list), so `func f(returns result)` that sets `result` and ends
 * returns it; nil without `returns`. A name the function never sets is nil
 * (`returns` binds its names, so this is no unset read); a global's name
 * gives the global, as reading it would.
 */
function implicitReturn(returns: readonly string[], context: BodyContext): string {
  if (context.kind !== 'function' || returns.length === 0) return 'null';
  const values = returns.map((name) => {
    if (context.globals.has(name)) return context.tables.global(name);
    const variable = context.variable(name);
    // Only a container can be shared (as a variable read marks it).
    return `(typeof ${variable} === 'object' ? sh(${variable}) : ${variable})`;
  });
  return values.length === 1 ? (values[0] as string) : `[${values.join(', ')}]`;
}

/** Declares expression temporaries. */
function declare(names: readonly string[]): string {
  return names.length > 0 ? `let ${names.join(', ')};` : '';
}

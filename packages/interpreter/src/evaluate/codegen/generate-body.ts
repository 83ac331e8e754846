/**
 * One function (or a program's command blocks) → one JavaScript function
 * (reference §1.7 "Calls", §1.8 `on error`, §1.9 scoping). Variables are
 * function locals; a function's parameters are its JavaScript parameters.
 */
import type { Statement } from '../../ast/index.ts';
import type { BodyContext } from './code-context.ts';
import { generateBlock } from './generate-statement.ts';

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
 * Generates `function <id>(<parameters>) { … }`. The body keeps `depth` (this
 * activation's call depth), `last`, `site` (the call being made, for error
 * frames) and, with a handler, its `recover` logic: set the error variables,
 * run the handler once, resume after `clear_error` or rethrow.
 */
export function generateBody(id: string, parameters: readonly string[], statements: readonly Statement[], context: BodyContext): string {
  const parameterNames = parameters.map((name) => context.variable(name));
  const handlerBody = findHandler(statements);
  const body = generateBlock(statements, context);
  let handler = '';
  if (handlerBody !== null) {
    const message = context.variable('system_error_message');
    const code = context.variable('system_error_code');
    context.inHandler = true;
    const savedLoops = context.loopDepth;
    context.loopDepth = 0;
    const handlerCode = generateBlock(handlerBody, context);
    context.inHandler = false;
    context.loopDepth = savedLoops;
    handler = [
      'let inHandler = false, cleared = false;',
      'const token = {};',
      `const handler = () => {\n${handlerCode}\n};`,
      'const recover = (error) => {',
      '  if (inHandler || !handles(error, token, depth)) throw error;',
      `  ${message} = error.message; ${code} = error.code;`,
      '  inHandler = true; cleared = false;',
      // An error raised by the handler itself must not run the handler again in an enclosing block.
      '  try { handler(); } catch (inner) { if (inner !== null && typeof inner === "object") inner.handledBy = token; throw inner; } finally { inHandler = false; }',
      '  if (!cleared) throw error;',
      '  cleared = false;',
      '};',
    ].join('\n');
  }
  const locals = context.variables().filter((name) => !parameterNames.includes(name));
  const name = context.tables.constant(context.name);
  const enter = context.kind === 'function' ? 'const depth = ++M.depth;' : 'const depth = M.depth;';
  return [
    `function ${id}(${parameterNames.join(', ')}) {`,
    enter,
    locals.length > 0 ? `let ${locals.join(', ')};` : '',
    'let last = null, site = null;',
    handler,
    'try {',
    body,
    '} catch (error) { throw frame(error, ' + name + ', site); }',
    context.kind === 'function' ? 'M.depth = depth - 1;' : '',
    'return null;',
    '}',
  ].join('\n');
}

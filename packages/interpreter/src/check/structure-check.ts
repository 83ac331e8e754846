/**
 * Structural checks (reference §1.5, §1.8): loop control outside loops,
 * duplicate functions, `return` in command blocks and error handlers,
 * `clear_error` outside handlers, and misplaced `on error` / `on event`.
 */
import type { Node, Program, Statement } from '../ast/index.ts';
import { forEachChild } from '../ast/index.ts';
import type { DiagnosticCode } from '../parse/diagnostic-codes.ts';
import type { NeededGrant } from '../runtime/needed-grant.ts';
import { duplicateParameterProblem } from './duplicate-parameter.ts';

/** A diagnostic before the file name and numeric code are attached. */
export interface Finding {
  readonly code: DiagnosticCode;
  readonly message: string;
  readonly line: number;
  readonly column: number;
  /** A warning does not stop the run (default: error). */
  readonly severity?: 'warning';
  /** The tool a `SCRIPT_TOOL_…` finding is about, as the program wrote it (`tool.fs.Read`). */
  readonly tool?: string;
  /** For a `SCRIPT_TOOL_DENIED` a grant would lift: that grant and the host's code of the denial. */
  readonly grant?: NeededGrant;
}

interface Scope {
  /** What encloses the statement: a function, a command block, or a top-level event handler. */
  readonly owner: 'function' | 'command' | 'event';
  readonly loopDepth: number;
  readonly inErrorHandler: boolean;
}

/** Runs the structural checks over the whole program. */
export function checkStructure(program: Program): Finding[] {
  const findings: Finding[] = [];
  const seen = new Map<string, number>();
  for (const definition of program.functions) {
    const firstLine = seen.get(definition.name);
    if (firstLine !== undefined) {
      findings.push({
        code: 'SCRIPT_DUPLICATE_FUNCTION',
        message: `Function '${definition.name}' is already defined at line ${firstLine}; rename one of them.`,
        line: definition.line,
        column: definition.column,
      });
    } else {
      seen.set(definition.name, definition.line);
    }
    const duplicate = duplicateParameterProblem(definition);
    if (duplicate !== undefined) findings.push({ code: 'SCRIPT_DUPLICATE_PARAMETER', message: duplicate, line: definition.line, column: definition.column });
    visitBody(definition.body, { owner: 'function', loopDepth: 0, inErrorHandler: false }, findings);
  }
  for (const handler of program.eventHandlers) {
    visitBody(handler.body, { owner: 'event', loopDepth: 0, inErrorHandler: false }, findings);
  }
  for (const command of program.commands) {
    visitBody(command.body, { owner: 'command', loopDepth: 0, inErrorHandler: false }, findings);
  }
  for (const definition of program.functions) findings.push(...unusedHandlers(definition.body, `function '${definition.name}'`));
  // The command blocks of a file run as one body, with one handler (generate-program.ts).
  findings.push(...unusedHandlers(program.commands.flatMap((command) => command.body), program.commands.length > 1 ? 'the command blocks (one body)' : 'the command block'));
  return findings;
}

/**
 * A warning for each `on error` handler of a body after its first: only the
 * first runs (the one `findHandler` picks for the generated code, searched
 * the same way), so the others are dead code whose author expects them to
 * handle something.
 */
function unusedHandlers(body: readonly Statement[], owner: string): Finding[] {
  const handlers: Statement[] = [];
  const collect = (statements: readonly Statement[]): void => {
    for (const statement of statements) {
      if (statement.type === 'OnErrorStatement') handlers.push(statement);
      else if (statement.type === 'IfStatement') {
        collect(statement.consequent);
        if (statement.alternate !== null) collect(statement.alternate);
      } else if (statement.type === 'WhileStatement' || statement.type === 'ForEachStatement') collect(statement.body);
    }
  };
  collect(body);
  const [first, ...rest] = handlers;
  return rest.map((handler) => ({
    code: 'SCRIPT_ON_ERROR_UNUSED' as const,
    message: `Only the first 'on error' handler of ${owner} runs (line ${first?.line}); this one never does: merge the two into the first.`,
    line: handler.line,
    column: handler.column,
    severity: 'warning' as const,
  }));
}

function visitBody(body: readonly Statement[], scope: Scope, findings: Finding[]): void {
  for (const statement of body) visitStatement(statement, scope, findings);
}

function visitStatement(statement: Statement, scope: Scope, findings: Finding[]): void {
  const report = (code: DiagnosticCode, message: string, severity?: 'warning'): void => {
    findings.push({ code, message, line: statement.line, column: statement.column, ...(severity === undefined ? {} : { severity }) });
  };
  switch (statement.type) {
    case 'BreakStatement':
    case 'ContinueStatement': {
      if (scope.loopDepth === 0) {
        const word = statement.type === 'BreakStatement' ? 'break' : 'continue';
        report(
          statement.type === 'BreakStatement' ? 'SCRIPT_BREAK_OUTSIDE_LOOP' : 'SCRIPT_CONTINUE_OUTSIDE_LOOP',
          `'${word}' statement found outside of a loop; use it only inside 'while' or 'for each'.`,
        );
      }
      return;
    }
    case 'ReturnStatement':
      if (scope.inErrorHandler) {
        // A warning, as in the reference: the run fails only if the handler reaches this `return` (deviation F12).
        report('SCRIPT_RETURN_IN_HANDLER', "'return' is not allowed inside an 'on error' handler: if the handler runs, this fails the run; set a variable and use 'clear_error' to resume instead.", 'warning');
      } else if (scope.owner === 'command') {
        report('SCRIPT_RETURN_IN_COMMAND', "'return' is not allowed in a command block; use 'emit' to produce output (a command block ends after its last statement).");
      }
      return;
    case 'ClearErrorStatement':
      if (!scope.inErrorHandler) {
        report('SCRIPT_CLEAR_ERROR_OUTSIDE_HANDLER', "'clear_error' is only allowed inside an 'on error do … endon' handler.");
      }
      return;
    case 'OnErrorStatement':
      if (scope.owner === 'event') {
        report('SCRIPT_ON_ERROR_PLACEMENT', "'on error' is only allowed inside a func or a command block, not inside an event handler.");
      }
      visitBody(statement.body, { ...scope, loopDepth: 0, inErrorHandler: true }, findings);
      return;
    case 'OnEventStatement':
      if (scope.owner === 'command') {
        report('SCRIPT_EVENT_HANDLER_PLACEMENT', "'on event' handlers are declared at the top level of a library script, not inside a command block.");
      }
      visitBody(statement.body, { owner: 'event', loopDepth: 0, inErrorHandler: false }, findings);
      return;
    case 'WhileStatement':
    case 'ForEachStatement':
      visitBody(statement.body, { ...scope, loopDepth: scope.loopDepth + 1 }, findings);
      return;
    case 'IfStatement':
      visitBody(statement.consequent, scope, findings);
      if (statement.alternate) visitBody(statement.alternate, scope, findings);
      return;
    default:
      return;
  }
}

/** Every statement of the given kinds anywhere below `node`, in source order. */
export function findStatements<T extends Statement['type']>(node: Node, types: readonly T[]): Extract<Statement, { type: T }>[] {
  const found: Extract<Statement, { type: T }>[] = [];
  const visit = (current: Node): void => {
    if ((types as readonly string[]).includes(current.type)) found.push(current as Extract<Statement, { type: T }>);
    forEachChild(current, visit);
  };
  visit(node);
  return found;
}

/**
 * Agent-mode checks (seed 003 §3.3: ACTIONS holds exactly one `command`
 * block; §2 and §11.1: nothing runs that the agent may not do).
 */
import type { Program } from '../ast/index.ts';
import type { CheckContext } from './check-context.ts';
import { findStatements, type Finding } from './structure-check.ts';

/** Runs the agent-mode checks; call only when `context.mode` is `agent`. */
export function checkAgentProgram(program: Program, context: CheckContext): Finding[] {
  const findings: Finding[] = [];
  for (const definition of program.functions) {
    findings.push({
      code: 'SCRIPT_AGENT_FUNCTION_DEFINITION',
      message: `An agent turn may not define functions ('func ${definition.name}'); write the steps directly inside the one command block.`,
      line: definition.line,
      column: definition.column,
    });
  }
  for (const handler of program.eventHandlers) {
    findings.push({
      code: 'SCRIPT_AGENT_EVENT_HANDLER',
      message: "An agent turn may not declare 'on event' handlers; write the steps directly inside the one command block.",
      line: handler.line,
      column: handler.column,
    });
  }
  if (program.commands.length === 0) {
    findings.push({
      code: 'SCRIPT_AGENT_COMMAND_COUNT',
      message: 'ACTIONS must hold exactly one command block: write "command", your statements, then "endcommand".',
      line: 1,
      column: 1,
    });
  }
  for (const extra of program.commands.slice(1)) {
    findings.push({
      code: 'SCRIPT_AGENT_COMMAND_COUNT',
      message: `ACTIONS must hold exactly one command block, but this is command block number ${program.commands.indexOf(extra) + 1}; merge the statements into the first block.`,
      line: extra.line,
      column: extra.column,
    });
  }
  const allowAsk = context.allowAsk ?? false;
  const allowPromptUser = context.allowPromptUser ?? false;
  for (const statement of findStatements(program, ['AskStatement', 'PromptUserStatement'])) {
    if (statement.type === 'AskStatement' && !allowAsk) {
      findings.push({
        code: 'SCRIPT_ASK_NOT_ALLOWED',
        message: "'ask' is not allowed in this agent's turns: it may ask no other agent (an agent definition lists the agents it may ask under 'asks'). Do the work with tools and emit the result.",
        line: statement.line,
        column: statement.column,
      });
    }
    if (statement.type === 'PromptUserStatement' && !allowPromptUser) {
      findings.push({
        code: 'SCRIPT_PROMPTUSER_NOT_ALLOWED',
        message: "'promptuser' is not allowed in an agent turn: nobody is at a keyboard. Emit your question as output instead.",
        line: statement.line,
        column: statement.column,
      });
    }
  }
  return findings;
}

/** Host-mode `ask`/`promptuser` checks: only when the context explicitly forbids them. */
export function checkHostStatements(program: Program, context: CheckContext): Finding[] {
  const findings: Finding[] = [];
  if (context.allowAsk !== false && context.allowPromptUser !== false) return findings;
  for (const statement of findStatements(program, ['AskStatement', 'PromptUserStatement'])) {
    if (statement.type === 'AskStatement' && context.allowAsk === false) {
      findings.push({ code: 'SCRIPT_ASK_NOT_ALLOWED', message: "'ask' is not allowed in this context.", line: statement.line, column: statement.column });
    }
    if (statement.type === 'PromptUserStatement' && context.allowPromptUser === false) {
      findings.push({ code: 'SCRIPT_PROMPTUSER_NOT_ALLOWED', message: "'promptuser' is not allowed in this context.", line: statement.line, column: statement.column });
    }
  }
  return findings;
}

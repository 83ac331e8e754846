/**
 * `tool.math.*`: arithmetic with the reference's names and argument order
 * (reference §2.7). Division and modulo by zero fail with code 14.
 */
import { ToolError } from '../errors/tool-error.ts';
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import { markWorkerLocal } from '../local/worker-local.ts';

const pair = [
  { name: 'num1', type: 'float', description: 'Left operand.' },
  { name: 'num2', type: 'float', description: 'Right operand.' },
] as const;

function finite(value: number, operation: string): number {
  if (!Number.isFinite(value)) throw new ToolError('TOOL_VALUE_INVALID', `${operation} overflowed to ${String(value)}`);
  return value;
}

/** Creates the `math` pack. */
export function createMathTools(): ToolPack {
  return markWorkerLocal(defineToolPack('math', [
    defineTool({ name: 'tool.math.Add', description: 'num1 + num2.', args: pair, returns: 'float' }, (args) => finite((args.num1 as number) + (args.num2 as number), 'Add')),
    defineTool({ name: 'tool.math.Subtract', description: 'num1 - num2.', args: pair, returns: 'float' }, (args) => finite((args.num1 as number) - (args.num2 as number), 'Subtract')),
    defineTool({ name: 'tool.math.Multiply', description: 'num1 * num2.', args: pair, returns: 'float' }, (args) => finite((args.num1 as number) * (args.num2 as number), 'Multiply')),
    defineTool({ name: 'tool.math.Divide', description: 'num1 / num2; fails when num2 is 0.', args: pair, returns: 'float' }, (args) => {
      if (args.num2 === 0) throw new ToolError('MATH_DIVISION_BY_ZERO', 'division by zero');
      return finite((args.num1 as number) / (args.num2 as number), 'Divide');
    }),
    defineTool(
      {
        name: 'tool.math.Modulo',
        description: 'Remainder of num1 / num2 (sign of num1, as in Go); fails when num2 is 0.',
        args: [
          { name: 'num1', type: 'int', description: 'Dividend.' },
          { name: 'num2', type: 'int', description: 'Divisor.' },
        ],
        returns: 'int',
      },
      (args) => {
        if (args.num2 === 0) throw new ToolError('MATH_DIVISION_BY_ZERO', 'modulo by zero');
        return (args.num1 as number) % (args.num2 as number);
      },
    ),
  ], { pure: true }));
}

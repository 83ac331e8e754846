/**
 * Precedence climbing for the grammar's flat `Operand (op Operand)*` layer:
 * builds the tree reference §1.3's precedence ladder describes (loosest
 * first: or, and, |, ^, &, == !=, < > <= >=, + -, * / %), every level
 * left-associative. (`**` and the prefix operators are handled in `Operand`.)
 */
import type { BinaryOperator, Expression } from '../ast/index.ts';

/** Binding strength of each binary operator (reference §1.3); higher binds tighter. All are left-associative. */
const PRECEDENCE: Record<string, number> = {
  or: 1,
  and: 2,
  '|': 3,
  '^': 4,
  '&': 5,
  '==': 6,
  '!=': 6,
  '<': 7,
  '>': 7,
  '<=': 7,
  '>=': 7,
  '+': 8,
  '-': 8,
  '*': 9,
  '/': 9,
  '%': 9,
};

/** Builds the left-associative tree for `first (op operand)*` by precedence climbing. */
export function climbPrecedence(first: Expression, operators: readonly BinaryOperator[], operands: readonly Expression[]): Expression {
  let index = 0;
  const climb = (left: Expression, minimum: number): Expression => {
    while (index < operators.length) {
      const operator = operators[index] as BinaryOperator;
      const strength = PRECEDENCE[operator] as number;
      if (strength < minimum) break;
      index += 1;
      let right = operands[index - 1] as Expression;
      while (index < operators.length && (PRECEDENCE[operators[index] as BinaryOperator] as number) > strength) {
        right = climb(right, strength + 1);
      }
      left = { type: 'BinaryExpression', operator, left, right, line: left.line, column: left.column };
    }
    return left;
  };
  return climb(first, 0);
}

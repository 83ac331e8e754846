/**
 * Syntax messages for numbers written in a form other languages accept and
 * NeuroScript does not. The grammar's number is `digits ("." digits)?
 * (("e" | "E") ("+" | "-")? digits)?`: a '.' needs digits on both sides. So
 * `1.e3` reads as the number `1` and a field access `.e3`, and `.5` as a
 * stray '.'; the generic messages would then say to write `["e3"]` or that a
 * value is missing. These name the number forms to write instead.
 */

/** A number literal without a fraction at the end of `before` (not the tail of a name, a fraction or an index). */
const TRAILING_INTEGER = /(?:^|[^A-Za-z0-9_.])(\d+)$/;

/** What may precede a value: not the end of a name, a number, a string or a closing bracket (then `.5` is no number). */
const VALUE_BEFORE = /(?:^|[^A-Za-z0-9_\])}"'`])\s*$/;

/**
 * The message for a number of another language's form where the parse
 * stopped (`rest` starts at the failure, `before` is its line up to there):
 * `1.e3` and `1.E-3` (no digit after the '.'), `1.` alone, and `.5` (no
 * digit before it). Undefined when `rest` starts with no such number.
 */
export function numberFormProblem(before: string, rest: string): string | undefined {
  if (!rest.startsWith('.')) return undefined;
  const integer = TRAILING_INTEGER.exec(before)?.[1];
  if (integer !== undefined) {
    const exponent = /^\.([eE][+-]?\d+)(?![A-Za-z0-9_.])/.exec(rest)?.[1];
    if (exponent !== undefined) {
      return `${integer}.${exponent} is not a number: a '.' needs digits after it. Write ${integer}.0${exponent} or ${integer}${exponent} instead.`;
    }
    if (/^\.(?![A-Za-z0-9_.[("'])/.test(rest)) return `${integer}. is not a number: a '.' needs digits after it. Write ${integer}.0 or ${integer} instead.`;
    return undefined;
  }
  const fraction = /^\.(\d+(?:[eE][+-]?\d+)?)(?![A-Za-z0-9_.])/.exec(rest)?.[1];
  if (fraction !== undefined && VALUE_BEFORE.test(before)) return `.${fraction} is not a number: a '.' needs a digit before it. Write 0.${fraction} instead.`;
  return undefined;
}

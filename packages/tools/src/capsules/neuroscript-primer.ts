/**
 * The NeuroScript primer every turn's system text carries, after the
 * envelope rules: the AEIOU rules say "write exactly one ns `command`
 * block" but not what one looks like, and a model that has never seen the
 * language guesses (Python, JavaScript, `call tool.x({...})` everywhere) and
 * spends its turns on syntax errors. It is short (it is paid for on every
 * turn), says nothing of how to finish (the dialect's rules before it do),
 * and its program runs as shown: a test runs it through the real
 * interpreter. `docs/neuroscript.md` is the whole language.
 */

/** A reply's ACTIONS program in the primer (the example a model copies first). */
export const PRIMER_EXAMPLE_PROGRAM = `command
  # comments start with #; one statement per line
  set total = 0
  for each n in [3, 4, 5]
    set total = total + n
  endfor
  if total > 10
    emit "sum is " + total
  else
    emit "small"
  endif
  set words = tool.str.Split("a,b,c", ",")
  whisper self, "found " + len(words) + " words"
endcommand`;

/** What a program can say, in a few lines a model reads every turn. */
export const NEUROSCRIPT_PRIMER = `NeuroScript (the language of ACTIONS), in brief:
- ACTIONS holds one block: command ... endcommand. Keywords are lower case; one statement per line.
- set x = expr (also set m["k"] = v, set xs[0] = v). emit expr writes a line of OUTPUT; whisper self, expr writes a line of SCRATCHPAD.
- Values: "text", 'text', 42, 3.5, true, false, nil, [1, 2], {"key": "value"}. Read with brackets: m["key"], xs[0]. len(x), typeof(x).
- Operators: + (adds numbers, otherwise joins text), - * / % **, == != < > <= >=, and or not.
- if cond ... else ... endif; while cond ... endwhile; for each item in list_or_map ... endfor; break; continue.
- Tools: tool.group.Name(arg1, arg2) as a value (set r = tool.str.ToUpper("a")), or call tool.group.Name(...) for its effect. Only the tools listed below exist for you.
- must cond stops the program when cond is false; fail "why" stops it. on error do ... clear_error ... endon handles a failure (system_error_code, system_error_message).
- The whole program is checked before any of it runs; an error comes back in OUTPUT as a SYSTEM_ERROR line with its code and line: fix that and reply again.
Example ACTIONS:
${PRIMER_EXAMPLE_PROGRAM}`;

/**
 * The NeuroScript primer every turn's system text carries, after the
 * envelope rules: the AEIOU rules say "write exactly one ns `command`
 * block" but not what one looks like, and a model that has never seen the
 * language guesses (Python, JavaScript, `call tool.x({...})` everywhere) and
 * spends its turns on syntax errors. Each turn is a fresh request, so it is
 * sent every turn: it is kept short (it costs tokens, and memory while
 * thousands of requests are in flight: about 15 MiB at 10,000 sessions per
 * KB of text), says nothing of how to finish (the dialect's rules before it
 * do), and its program runs as shown: a test runs it, and a program written
 * from each of its lines, through the real interpreter. `docs/neuroscript.md`
 * is the whole language.
 */

/** A reply's ACTIONS program in the primer (the example a model copies first). */
export const PRIMER_EXAMPLE_PROGRAM = `command
  set total = 0
  for each n in [3, 4, 5]
    set total = total + n
  endfor
  set parts = tool.str.Split("a,b", ",")
  emit "sum " + total + ", " + len(parts) + " parts"
endcommand`;

/** What a program can say, in the few lines a model reads every turn. */
export const NEUROSCRIPT_PRIMER = `NeuroScript, the language of ACTIONS: one block, command ... endcommand; one statement per line; keywords lower case.
set x = expr | set m["k"] = v | emit expr (a line of OUTPUT) | whisper self, expr (a line of SCRATCHPAD)
Values: "text" 42 3.5 true false nil [1, 2] {"k": "v"} (map keys in quotes); read m["k"], xs[0]; len(x); + adds numbers (text that reads as a number too: "1" + "2" is 3), else joins text; - * / % **; == != < > <= >= and or not; #, -- and // start a comment (// is no division)
The variable userdata holds USERDATA: userdata["subject"] is the task, userdata["fields"] its fields.
if c ... else ... endif | while c ... endwhile | for each v in xs ... endfor (over a map: its values; tool.map.Keys(m) gives its keys) | break | continue
Tools: set r = tool.group.Name(a, b), or call tool.group.Name(a); only the tools listed below exist.
must c and fail "why" stop the program; on error do ... clear_error ... endon handles a failure (system_error_message).
Example:
${PRIMER_EXAMPLE_PROGRAM}`;

/**
 * The NeuroScript primer every turn's system text carries, after the
 * envelope rules: the AEIOU rules say "write exactly one ns `command`
 * block" but not what one looks like, and a model that has never seen the
 * language guesses (Python, JavaScript, `call tool.x({...})` everywhere) and
 * spends its turns on syntax errors. Each turn is a fresh request, so it is
 * sent every turn: it is kept short (it costs tokens, and memory while
 * thousands of requests are in flight: about 30 MiB at 10,000 sessions per
 * KB of text in the controller's benchmark, `bench/notes.md`), says nothing of how to finish (the dialect's rules before it
 * do), and its program runs as shown: a test runs it, and a program written
 * from each of its lines, through the real interpreter. It names no tool the
 * agent may not call (`neuroscriptPrimer`). `docs/neuroscript.md` is the whole
 * language.
 */

/** The example's tool: shown only to an agent that may call it (see {@link neuroscriptPrimer}). */
const EXAMPLE_TOOL = 'tool.str.Split';
/** The tool the primer names for a map's keys: likewise. */
const KEYS_TOOL = 'tool.map.Keys';

/** The example program's first lines, which call no tool. */
const EXAMPLE_LOOP = `command
  set total = 0
  for each n in [3, 4, 5]
    set total = total + n
  endfor`;

/** A reply's ACTIONS program in the primer (the example a model copies first), for an agent that may call `tool.str.Split`. */
export const PRIMER_EXAMPLE_PROGRAM = `${EXAMPLE_LOOP}
  set parts = ${EXAMPLE_TOOL}("a,b", ",")
  emit "sum " + total + ", " + len(parts) + " parts"
endcommand`;

/** The example for an agent that may not call `tool.str.Split` (or has no such tool): a copied program is not refused. */
export const PRIMER_EXAMPLE_WITHOUT_TOOL = `${EXAMPLE_LOOP}
  emit "sum " + total
endcommand`;

/** The primer around `example`; `keys` says how to get a map's keys (empty: not said). */
function primerText(example: string, keys: string): string {
  return `NeuroScript, the language of ACTIONS: one block, command ... endcommand; one statement per line; keywords lower case.
set x = expr | set m["k"] = v | emit expr (a line of OUTPUT) | whisper self, expr (a line of SCRATCHPAD)
Values: "text" 42 3.5 true false nil [1, 2] {"k": "v"} (map keys in quotes); read m["k"], xs[0]; len(x); + adds numbers (text that reads as a number too: "1" + "2" is 3), else joins text; - * / % **; == != < > <= >= and or not; #, -- and // start a comment (// is no division)
The variable userdata holds USERDATA: userdata["subject"] is the task, userdata["fields"] its fields.
if c ... else ... endif | while c ... endwhile | for each v in xs ... endfor (over a map: its values${keys}) | break | continue
Tools: set r = tool.group.Name(a, b), or call tool.group.Name(a); only the tools listed below exist.
must c and fail "why" stop the program; on error do ... clear_error ... endon handles a failure (system_error_message).
Example:
${example}`;
}

const KEYS_HINT = `; ${KEYS_TOOL}(m) gives its keys`;

/**
 * What a program can say, in the few lines a model reads every turn: the primer of an agent that may call
 * `tool.str.Split` and `tool.map.Keys` (the default agent's), in its system text and in the capsule
 * `capsule/neuroscript` alike (each agent reads its own {@link neuroscriptPrimer} there).
 */
export const NEUROSCRIPT_PRIMER = primerText(PRIMER_EXAMPLE_PROGRAM, KEYS_HINT);

/**
 * The primer for an agent that may call the tools `callable` says yes to (by display name, e.g. `tool.str.Split`:
 * in the registry, and allowed by the agent's policy). It names no tool the agent cannot call: a model copies the
 * example, and a program calling a tool it may not call is refused (`SCRIPT_TOOL_DENIED`) before it runs. Without
 * `tool.str.Split` the example calls no tool; without `tool.map.Keys` the primer does not say how to get a map's keys.
 * With both it is {@link NEUROSCRIPT_PRIMER} itself, so the common case costs no text of its own.
 */
export function neuroscriptPrimer(callable: (tool: string) => boolean): string {
  const example = callable(EXAMPLE_TOOL);
  const keys = callable(KEYS_TOOL);
  if (example && keys) return NEUROSCRIPT_PRIMER;
  return primerText(example ? PRIMER_EXAMPLE_PROGRAM : PRIMER_EXAMPLE_WITHOUT_TOOL, keys ? KEYS_HINT : '');
}

/**
 * A short NeuroScript guide served as an MCP resource. There is no guide
 * file in the repository yet; this is written from the interpreter README
 * and should be replaced by the real guide when one exists.
 */

/** The guide's resource URI. */
export const GUIDE_URI = 'askloop://guide/neuroscript';

/** Markdown text of the guide. */
export const NEUROSCRIPT_GUIDE = `# NeuroScript in AskLoop (short guide)

A program for \`neuroscript_run\` is exactly one command block. It is parsed and
statically checked first — syntax, every tool name, the policy, argument
counts — and nothing runs when any check fails.

\`\`\`
command
  set name = "world"
  set greeting = tool.str.ToUpper("hello " + name)
  emit greeting
  whisper "notes", "kept in the scratchpad"
  if tool.str.Length(greeting) > 5
    emit "long"
  else
    emit "short"
  endif
  for each item in [1, 2, 3]
    emit item * 2
  endfor
  on error do
    emit "something failed"
    clear_error
  endon
  must greeting != ""
endcommand
\`\`\`

- Statements: \`set\`, \`call tool.x.Y(...)\` (a call on its own), \`emit\`,
  \`whisper target, value\`, \`must cond\`, \`fail "why"\`, \`if … else … endif\`,
  \`while … endwhile\`, \`for each v in list|string|map … endfor\`, \`break\`,
  \`continue\`, \`on error do … endon\` with \`clear_error\`.
- Values: strings (\`"…"\`, \`'…'\`, \`'''raw'''\`), numbers, \`true\`/\`false\`,
  \`nil\`, lists \`[1, "a"]\`, maps \`{"k": 1}\` read with \`m["k"]\`.
- Operators: \`+ - * / % **\`, \`== != < <= > >=\`, \`and or not\`.
- Tools: \`tool.<group>.<Name>(args…)\` — positionally, or one map of named
  arguments \`tool.x.Y({"arg": "value"})\`. The catalogue resource
  (askloop://catalogue) lists the tools this server allows, with arguments.
- Functions (\`func name(needs a, b) means … endfunc\`) live in libraries,
  passed separately as \`libraries\`.
- Quotas: fuel (evaluation steps), wall-clock time, memory, tool calls,
  output size; going over stops the program with a typed error.
`;

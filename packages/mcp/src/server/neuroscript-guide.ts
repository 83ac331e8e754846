/**
 * The NeuroScript guide served as an MCP resource: the project's guide
 * (docs/neuroscript.md, embedded at development time by scripts/embed-guide.ts)
 * after a short note on how its programs reach this server.
 */
import { NEUROSCRIPT_GUIDE_TEXT } from './neuroscript-guide-text.ts';

/** The guide's resource URI. */
export const GUIDE_URI = 'askloop://guide/neuroscript';

/** What differs for a client of this server; the guide itself is written for agents in the ask loop. */
const MCP_PREFACE = `# Using NeuroScript through AskLoop's MCP server

Send one \`command … endcommand\` block to \`neuroscript_run\` (optionally with
\`libraries\`: scripts of \`func\` definitions the program may call);
\`neuroscript_check\` runs the same check without running anything. The whole
program is checked first — syntax, every tool name, the policy, argument
counts — and nothing runs when any check fails. The tools you may call, with
their arguments, are listed in the resource \`askloop://catalogue\`. \`ask\` and
\`promptuser\` statements are not available in programs sent here. The result
has the emits, the whispers, and the error with its line and column.

The guide below is the one written for agents in the ask loop; the language is
the same.

---

`;

/** Markdown text of the guide. */
export const NEUROSCRIPT_GUIDE: string = MCP_PREFACE + NEUROSCRIPT_GUIDE_TEXT;

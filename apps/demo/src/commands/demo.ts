import { composeEnvelope, extractEnvelope, progressDigest, scanDoneMarker, validateUserdata } from '@askloop/envelope';
import { parseArgs } from 'node:util';
import type { Command } from '../io.ts';

/** What a model might answer on turn 1: prose, then the envelope in a fence. */
const SCRIPTED_REPLY = `I'll count the words and finish.

\`\`\`
<<<NSENV:V4:START>>>
<<<NSENV:V4:USERDATA>>>
{"subject":"demo","fields":{}}
<<<NSENV:V4:ACTIONS>>>
command
  set words = tool.str.Split(userdata["sentence"], " ")
  emit "counted " + len(words) + " words"
  emit "<<<LOOP:DONE>>> " + len(words)
endcommand
<<<NSENV:V4:END>>>
\`\`\`
`;

/** `askloop demo`: walks one AEIOU v4 turn through the codec. */
export const demoCommand: Command = {
  name: 'demo',
  summary: 'walk one AEIOU v4 turn through AskLoop (no API key needed)',
  usage: `Usage: askloop demo

Shows one turn of the loop with a scripted model: the host composes the
envelope, the model's reply is recovered and parsed, and the turn's OUTPUT is
scanned for the DONE marker and digested for the no-progress guard.
`,
  async run(args, io) {
    parseArgs({ args, options: {}, allowPositionals: false, strict: true });
    const userdata = { subject: 'word count', brief: 'Count the words of the sentence.', fields: { sentence: 'the quick brown fox jumps' } };
    validateUserdata(userdata);
    const envelope = composeEnvelope({ userdata, actions: '(the model writes this)' });
    io.stdout(`== 1. The host sends the model this envelope ==\n${envelope}\n`);
    io.stdout(`== 2. The scripted model replies ==\n${SCRIPTED_REPLY}\n`);
    const { envelope: reply, lints } = extractEnvelope(SCRIPTED_REPLY);
    io.stdout(`== 3. The host recovers the envelope and keeps only ACTIONS ==\n${reply.actions}\n`);
    for (const lint of lints) io.stdout(`lint ${lint.code}: ${lint.message}\n`);
    const emits = ['counted 5 words', '<<<LOOP:DONE>>> 5'];
    io.stdout(`\n== 4. Running the program emits ==\n${emits.join('\n')}\n`);
    const done = scanDoneMarker(emits);
    io.stdout(`\n== 5. Decision ==\n${done.done ? `DONE, final result: ${done.result}` : 'CONTINUE'}\n`);
    io.stdout(`progress digest: ${progressDigest(emits.join('\n'), '')}\n`);
    return 0;
  },
};

/**
 * What the demo's scripted model answers, turn by turn. Turn 1 is written the
 * way real models often answer (prose and a markdown fence around the
 * envelope); turn 2 is a bare envelope that ends the loop.
 */

const envelope = (actions: string) =>
  ['<<<NSENV:V4:START>>>', '<<<NSENV:V4:USERDATA>>>', '{}', '<<<NSENV:V4:ACTIONS>>>', actions, '<<<NSENV:V4:END>>>', ''].join('\n');

const TURN_1 = `I'll start by counting the words.

\`\`\`
${envelope(`command
  set words = tool.str.SplitWords(userdata["fields"]["sentence"])
  whisper "plan", "counted " + len(words) + " words; next: find the longest"
  emit "The sentence has " + len(words) + " words."
endcommand`)}\`\`\`
`;

const TURN_2 = envelope(`command
  set words = tool.str.SplitWords(userdata["fields"]["sentence"])
  set longest = ""
  for each word in words
    if len(word) > len(longest)
      set longest = word
    endif
  endfor
  emit "<<<LOOP:DONE>>> " + len(words) + " words; the longest is " + longest
endcommand`);

/** The scripted replies, in order. */
export const DEMO_REPLIES: readonly string[] = [TURN_1, TURN_2];

/** A program the host must refuse before running any of it. */
export const HOSTILE_ACTIONS = `command
  emit "about to read a secret"
  emit tool.fs.Read("/etc/passwd")
endcommand`;

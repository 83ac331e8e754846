/**
 * Benchmark inputs for the loop: model replies holding an ACTIONS program of
 * a chosen size with a chosen number of tool calls, and one whose OUTPUT is a
 * chosen size. Every program differs by its `tag`, so the progress guard
 * never sees two identical turns.
 */

/** The envelope a model sends back around `actions`. */
export function replyEnvelope(actions: string): string {
  return `<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{}\n<<<NSENV:V4:ACTIONS>>>\n${actions}<<<NSENV:V4:END>>>\n`;
}

/** Padding statements of the shape models write: data, a condition, a string built from parts. */
const filler = (index: number): string =>
  [
    `  set item_${index} = {"n": ${index}, "name": "value ${index}", "tags": ["a", "b"], "ok": true}`,
    `  if item_${index}["n"] > 2 and len(item_${index}["tags"]) == 2`,
    `    set label_${index} = "item " + item_${index}["name"] + " has " + len(item_${index}["tags"]) + " tags"`,
    '  endif',
  ].join('\n');

/**
 * A command block of about `bytes` bytes (UTF-8) making `toolCalls` calls of
 * `tool.str.ToUpper`, emitting one line, and ending the session when `done`.
 */
export function turnProgram(bytes: number, toolCalls: number, tag: string, done = false): string {
  const head = ['command', ...Array.from({ length: toolCalls }, (_, index) => `  set t${index} = tool.str.ToUpper("part ${index} of ${tag}")`)];
  const tail = [`  emit ${done ? '"<<<LOOP:DONE>>> " + ' : ''}"turn ${tag}: " + ${toolCalls > 0 ? 't0' : '"no tools"'}`, 'endcommand', ''];
  const size = (body: string[]): number => Buffer.byteLength([...head, ...body, ...tail].join('\n'));
  const body: string[] = [];
  for (let index = 0; size([...body, filler(index)]) <= bytes; index += 1) body.push(filler(index));
  return [...head, ...body, ...tail].join('\n');
}

/**
 * A command block emitting one line of `characters` ASCII characters, built
 * from doublings of a short piece (a loop adding one character at a time
 * would cost the interpreter more than the host; there is no substring builtin).
 */
export function outputProgram(characters: number, tag: string): string {
  const lines = ['command', `  set piece = "${tag.slice(0, 1) || 'x'}"`, '  set s = ""'];
  for (let rest = characters; rest > 0; rest = Math.floor(rest / 2)) {
    if (rest % 2 === 1) lines.push('  set s = s + piece');
    if (rest > 1) lines.push('  set piece = piece + piece');
  }
  lines.push(`  emit "${tag}"`, '  emit s', 'endcommand', '');
  return lines.join('\n');
}

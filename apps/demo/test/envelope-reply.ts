/**
 * A reply for the tests' scripted models: a v4 envelope, empty USERDATA,
 * around one command block whose statements are `lines` (indented by the
 * helper), ending with a newline as a model's reply does.
 */
export function envelope(...lines: string[]): string {
  return ['<<<NSENV:V4:START>>>', '<<<NSENV:V4:USERDATA>>>', '{}', '<<<NSENV:V4:ACTIONS>>>', 'command', ...lines.map((line) => `  ${line}`), 'endcommand', '<<<NSENV:V4:END>>>', ''].join('\n');
}

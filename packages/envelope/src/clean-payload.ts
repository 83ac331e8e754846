/**
 * Cleans a final-result payload the way the reference's `CleanLLMPayload`
 * does (reference doc §3.7): models wrap answers in labels and fences.
 */
import { LOOP_DONE_MARKER } from './markers.ts';
import { isSpaceTabOrCR, trimEndWhere } from './trim.ts';
import { utf8Length } from './utf8.ts';
import { requireString } from './argument-type.ts';

const LABELS = [
  'here is the json output:',
  'here is the json result:',
  'here is the output:',
  'here is the result:',
  'final result:',
  'final answer:',
  'result is:',
  'answer is:',
  'response:',
  'result:',
  'answer:',
  'output:',
];

const FENCE_TAGS = /^```(?:json|neuroscript|ns|text|markdown|md)?[ \t]*/i;

/**
 * 1. trim; 2. remove every `<<<LOOP:DONE>>>`; 3. turn literal `\n` pairs into
 * newlines; 4. strip a trailing `\` from each line; 5. strip leading labels
 * such as `Result:` (repeatedly, any case); 6. strip a markdown fence around
 * the text; 7. trim.
 */
export function cleanPayload(raw: string): string {
  requireString(raw, 'cleanPayload: raw');
  let text = raw.trim().split(LOOP_DONE_MARKER).join('').trim();
  text = text.replaceAll('\\n', '\n');
  text = text
    .split('\n')
    .map((line) => {
      const trimmed = trimEndWhere(line, isSpaceTabOrCR);
      return trimmed.endsWith('\\') ? trimmed.slice(0, -1) : trimmed;
    })
    .join('\n');
  for (let stripped = true; stripped; ) {
    stripped = false;
    const lower = text.toLowerCase();
    for (const label of LABELS) {
      if (lower.startsWith(label)) {
        text = text.slice(label.length).trimStart();
        stripped = true;
        break;
      }
    }
  }
  if (text.startsWith('```')) {
    const newline = text.indexOf('\n');
    // "Shorter than 40" counts bytes, as the reference's Go string length does.
    if (newline !== -1 && utf8Length(text.slice(0, newline)) < 40) text = text.slice(newline + 1);
    else text = text.replace(FENCE_TAGS, '');
  }
  if (text.endsWith('```')) text = text.slice(0, -3);
  return text.trim();
}

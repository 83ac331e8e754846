import { describe, expect, it } from 'vitest';
import { cleanPayload } from './clean-payload.ts';

describe('cleanPayload', () => {
  it.each([
    ['  42  ', '42'],
    ['<<<LOOP:DONE>>> done', 'done'],
    ['Result: Answer: 7', '7'],
    ['FINAL ANSWER: yes', 'yes'],
    ['```json\n{"a":1}\n```', '{"a":1}'],
    ['```{"a":1}```', '{"a":1}'],
    ['line one\\nline two', 'line one\nline two'],
    ['a \\\nb', 'a \nb'], // as the reference: the space before the backslash stays
    ['here is the JSON output: [1]', '[1]'],
    // The fence line is 43 bytes (20 two-byte letters): too long to drop whole, so only the fence goes.
    [`\`\`\`${'é'.repeat(20)}\nbody\n\`\`\``, `${'é'.repeat(20)}\nbody`],
  ])('cleans %j to %j', (raw, cleaned) => {
    expect(cleanPayload(raw)).toBe(cleaned);
  });
});

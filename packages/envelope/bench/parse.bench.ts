/**
 * `pnpm bench`: parses a 1 MiB envelope and compares the codec with a
 * baseline that only scans the same input for newlines (the floor any
 * line-based parser pays).
 */
import { EnvelopeStreamParser, MAX_ENVELOPE_BYTES, parseEnvelope } from '@askloop/envelope';
import { runSuite } from '../../../scripts/bench-harness.ts';

function buildEnvelope(ascii: boolean): string {
  const line = (index: number) =>
    ascii
      ? `turn ${index}: checked item ${index % 97} - status ok, value=${(index * 7919) % 10007} (ok)`
      : `turn ${index}: checked item ${index % 97} — status ok, value=${(index * 7919) % 10007} ✓`;
  const block = (count: number, offset: number) => Array.from({ length: count }, (_, index) => line(index + offset)).join('\n');
  let text = '<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{"subject":"audit","brief":"check every item","fields":{"items":1000}}\n';
  text += `<<<NSENV:V4:SCRATCHPAD>>>\n${block(5000, 0)}\n<<<NSENV:V4:OUTPUT>>>\n${block(5000, 5000)}\n<<<NSENV:V4:ACTIONS>>>\ncommand\n`;
  const end = '\nendcommand\n<<<NSENV:V4:END>>>\n';
  let index = 0;
  // The byte length kept as a running sum: measuring the whole text each time made building it quadratic.
  let bytes = Buffer.byteLength(text);
  while (bytes + 200 < MAX_ENVELOPE_BYTES - end.length) {
    const statement = `  emit "${line(index++)}"\n`;
    text += statement;
    bytes += Buffer.byteLength(statement);
  }
  return `${text.trimEnd()}${end}`;
}

let sink = 0;
for (const ascii of [false, true]) {
const text = buildEnvelope(ascii);
const bytes = new TextEncoder().encode(text);
const kind = ascii ? 'ASCII-only text' : 'every line has non-ASCII characters';
console.log(`\nenvelope: ${bytes.length} bytes, ${text.split('\n').length} lines, ${kind}`);
await runSuite(
  `Parse a 1 MiB envelope, string input (${kind})`,
  {
    name: 'baseline: find every newline in the string',
    run: () => {
      let count = 0;
      for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
      sink += count;
    },
  },
  [
    { name: 'parseEnvelope(string)', run: () => (sink += parseEnvelope(text).envelope.actions.length) },
    {
      name: 'EnvelopeStreamParser, 16-character chunks (token-sized)',
      run: () => {
        const parser = new EnvelopeStreamParser();
        for (let offset = 0; offset < text.length; offset += 16) parser.push(text.slice(offset, offset + 16));
        sink += parser.end().envelope.actions.length;
      },
    },
    {
      name: 'EnvelopeStreamParser, 16 KiB string chunks',
      run: () => {
        const parser = new EnvelopeStreamParser();
        for (let offset = 0; offset < text.length; offset += 16_384) parser.push(text.slice(offset, offset + 16_384));
        sink += parser.end().envelope.actions.length;
      },
    },
  ],
  `envelope.parse-string.${ascii ? 'ascii' : 'non-ascii'}`,
);
await runSuite(
  `Parse a 1 MiB envelope, UTF-8 bytes input (${kind})`,
  {
    name: 'baseline: find every newline byte',
    run: () => {
      let count = 0;
      for (let index = bytes.indexOf(10); index !== -1; index = bytes.indexOf(10, index + 1)) count += 1;
      sink += count;
    },
  },
  [{ name: 'parseEnvelope(bytes) (validates UTF-8)', run: () => (sink += parseEnvelope(bytes).envelope.actions.length) }],
  `envelope.parse-bytes.${ascii ? 'ascii' : 'non-ascii'}`,
);
}
if (sink === 0) console.log('');

/** The served guide is the project's guide: the embedded copy must match docs/neuroscript.md. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NEUROSCRIPT_GUIDE } from '../src/index.ts';
import { NEUROSCRIPT_GUIDE_TEXT } from '../src/server/neuroscript-guide-text.ts';

describe('the NeuroScript guide resource', () => {
  it('embeds docs/neuroscript.md as it is now (run `pnpm embed-guide` after editing the guide)', () => {
    const guide = readFileSync(new URL('../../../docs/neuroscript.md', import.meta.url), 'utf8');
    expect(NEUROSCRIPT_GUIDE_TEXT === guide).toBe(true);
    expect(NEUROSCRIPT_GUIDE.endsWith(guide)).toBe(true);
  });
});

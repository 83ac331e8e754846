import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

describe('askloop demo', () => {
  it('runs two real turns to DONE and shows a refused program', async () => {
    const io = captureIo();
    expect(await main(['demo'], io)).toBe(0);
    expect(io.out).toContain('recovered: LINT_RECOVERED_FENCE');
    expect(io.out).toContain('emit    The sentence has 9 words.');
    expect(io.out).toContain('whisper plan: counted 9 words; next: find the longest');
    expect(io.out).toContain('Decision: CONTINUE');
    // Turn 2's envelope carries turn 1's OUTPUT and SCRATCHPAD back to the model.
    expect(io.out).toMatch(/<<<NSENV:V4:SCRATCHPAD>>>\n\s+counted 9 words/);
    expect(io.out).toContain('Decision: DONE — final result: 9 words; the longest is quick');
    expect(io.out).toContain('SCRIPT_TOOL_DENIED');
    expect(io.out).toContain('nothing — no statement ran');
  });
});

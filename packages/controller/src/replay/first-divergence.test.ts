/** How replay compares a turn's decision: a HALT's message with its code said once, on both sides. */
import { describe, expect, it } from 'vitest';
import { sampleTurn } from '../testing/transcript-fixtures.ts';
import { firstDivergence } from './first-divergence.ts';

const halted = (message: string) => sampleTurn('s', 1, { decision: { kind: 'HALT', reason: 'ERR_PROVIDER', message } as never });

describe('firstDivergence: decisions', () => {
  it('reads an old recording that said a provider failure\'s code twice as the replay says it once', () => {
    expect(firstDivergence([halted('PROVIDER_SERVER: [acme:m] PROVIDER_SERVER: HTTP 500')], [halted('[acme:m] PROVIDER_SERVER: HTTP 500')])).toBeNull();
  });

  it('matches a decision worded with its code twice against itself (review: only the recording was read so)', () => {
    const worded = 'PLUGIN_STOP: [gate] PLUGIN_STOP: budget spent';
    expect(firstDivergence([halted(worded)], [halted(worded)])).toBeNull();
  });

  it('still reports a decision that says something else', () => {
    expect(firstDivergence([halted('[acme:m] PROVIDER_SERVER: HTTP 500')], [halted('[acme:m] PROVIDER_SERVER: HTTP 502')])).toMatchObject({ field: 'decision' });
  });
});

/**
 * The fingerprints a turn's sandbox worker looks for secrets by are those of
 * the turn's own secrets, as its tool host's `redact` is: kept from the last
 * turn only while the secrets are the same list.
 */
import { secretFingerprints } from '@askloop/interpreter';
import { secretForms, type LanguageModel } from '@askloop/providers';
import { describe, expect, it } from 'vitest';
import { createToolOutputRedaction } from '../src/loop/tool-output-redaction.ts';

const model = { secrets: () => [] } as unknown as LanguageModel;

describe('createToolOutputRedaction: fingerprints per turn', () => {
  it('are remade when the secrets change, even when their texts joined are the same (a key holding U+0000)', () => {
    let secrets = ['abcd\u0000efgh'];
    const redaction = createToolOutputRedaction(() => secrets);
    expect(redaction(model)?.fingerprints).toEqual(secretFingerprints(secretForms(secrets)));
    secrets = ['abcd', 'efgh'];
    const turn = redaction(model);
    // The host hides each key: the worker must look for each.
    expect(turn?.redact('x abcd y')).toBe('x [REDACTED] y');
    expect(turn?.fingerprints).toEqual(secretFingerprints(secretForms(secrets)));
  });

  it('are kept while the secrets stay the same, and remade for a rotated key', () => {
    let secrets = ['sk-old-0123456789'];
    const redaction = createToolOutputRedaction(() => secrets);
    const first = redaction(model)?.fingerprints;
    expect(redaction(model)?.fingerprints).toBe(first);
    secrets = ['sk-new-9876543210'];
    expect(redaction(model)?.fingerprints).toEqual(secretFingerprints(secretForms(secrets)));
  });
});

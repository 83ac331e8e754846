import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReplayTranscript } from './parse-replay-transcript.ts';
import { createReplayModel } from './replay-provider.ts';

const TRANSCRIPT = [
  '{"type":"session-start","id":"s1"}',
  '{"type":"model-reply","turn":1,"provider":"openai","model":"gpt-4.1-mini","text":"first","usage":{"inputTokens":10,"outputTokens":2},"finishReason":"stop","latencyMs":812}',
  '',
  '{"type":"decision","turn":1,"decision":"CONTINUE"}',
  '{"type":"model-reply","turn":2,"error":{"code":"PROVIDER_RATE_LIMIT","message":"HTTP 429"}}',
  '{"type":"model-reply","turn":3,"text":"third"}',
].join('\n');

describe('createReplayModel', () => {
  it('replays replies from a JSONL file in order, skipping other records', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'askloop-replay-'));
    const path = join(directory, 'transcript.jsonl');
    await writeFile(path, TRANSCRIPT);
    const model = createReplayModel({ path });
    expect(await model.generate({ prompt: 'a' })).toMatchObject({ provider: 'replay', text: 'first', usage: { inputTokens: 10, outputTokens: 2 } });
    await expect(model.generate({ prompt: 'b' })).rejects.toMatchObject({ code: 'PROVIDER_RATE_LIMIT', attempts: 1 });
    expect((await model.generate({ prompt: 'c' })).text).toBe('third');
    await expect(model.generate({ prompt: 'd' })).rejects.toMatchObject({ code: 'PROVIDER_SCRIPT_EXHAUSTED' });
  });

  it('accepts a JSON array and in-memory records', async () => {
    const model = createReplayModel({ text: '[{"type":"model-reply","text":"x"}]' }, { modelId: 'gpt-4.1-mini' });
    expect(await model.generate({ prompt: 'a' })).toMatchObject({ text: 'x', model: 'gpt-4.1-mini' });
    expect((await createReplayModel({ records: [{ type: 'model-reply', text: 'y' }] }).generate({ prompt: 'a' })).text).toBe('y');
  });

  it('reports a malformed transcript or a missing file as PROVIDER_REPLAY_INVALID', async () => {
    expect(() => parseReplayTranscript('{"type":"model-reply","text":"ok"}\n{oops')).toThrow(/PROVIDER_REPLAY_INVALID: line 2 is not JSON/);
    expect(() => parseReplayTranscript('{"type":"model-reply"}')).toThrow(/PROVIDER_REPLAY_INVALID: record 1 has neither/);
    await expect(createReplayModel({ path: '/nonexistent/transcript.jsonl' }).generate({ prompt: 'a' })).rejects.toMatchObject({ code: 'PROVIDER_REPLAY_INVALID' });
  });
});

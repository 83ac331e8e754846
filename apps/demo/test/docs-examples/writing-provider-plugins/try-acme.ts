import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { builtinPlugin, createAskLoop, createMemoryTranscriptStore } from '@askloop/controller';
import acmePlugin from './acme-provider.ts';

// A stand-in for the ACME API on a loopback port: it checks the key and answers with one envelope.
const envelope = `<<<NSENV:V4:START>>>
<<<NSENV:V4:USERDATA>>>
{}
<<<NSENV:V4:ACTIONS>>>
command
  emit "<<<LOOP:DONE>>> " + tool.str.ToUpper(userdata["subject"])
endcommand
<<<NSENV:V4:END>>>
`;
const server = createServer((request, response) => {
  const authorized = request.headers.authorization === 'Bearer test-key-123';
  response.writeHead(authorized ? 200 : 401, { 'content-type': 'application/json' });
  response.end(JSON.stringify(authorized ? { text: envelope, usage: { input: 900, output: 40 } } : { error: 'unauthorized' }));
});
await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
const { port } = server.address() as { port: number };

// A mistake in the options is named when the plugin is made (a config file's line shows it), not at the first call.
assert.throws(() => acmePlugin({ baseUrl: 'http://127.0.0.1' }), /options\.baseUrl is not an option \(the options: baseURL, /);

const events: string[] = [];
const loop = createAskLoop({
  plugins: [builtinPlugin(), acmePlugin({ baseURL: `http://127.0.0.1:${port}`, apiKey: 'test-key-123', prices: { small: { inputPerMillion: 2, outputPerMillion: 8 } } })],
  store: createMemoryTranscriptStore(),
  onEvent: (event) => events.push(JSON.stringify(event)),
});
try {
  // Prices let the agent set a cost ceiling: without them it would be refused (LOOP_AGENT_INVALID), never reached.
  const agent = { name: 'shouter', model: 'acme:small', policy: { allow: ['tool.str.*'] }, ceilings: { costUsd: 0.5 } };
  const result = await loop.run({ agent, task: 'hello' });
  assert.equal(result.status, 'DONE');
  assert.equal(result.result, 'HELLO');
  assert.equal(result.usage.inputTokens, 900);
  assert.equal(result.usage.costUsd.toFixed(5), '0.00212'); // 900 tokens in at $2 a million, 40 out at $8
  // The key never reaches an event (or a stored record).
  assert.ok(events.every((event) => !event.includes('test-key-123')));
} finally {
  await loop.close();
  server.close();
}

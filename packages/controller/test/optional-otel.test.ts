/**
 * `@opentelemetry/api` is an optional peer: in a real Node process where it
 * cannot be resolved, the controller still imports and runs, and only
 * calling `otelPlugin()` fails — with LOOP_CONFIG_INVALID saying what to install.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const hide = fileURLToPath(new URL('./hide-otel-api.ts', import.meta.url));
const entry = new URL('../src/index.ts', import.meta.url).href;

it('imports and runs without @opentelemetry/api; otelPlugin() alone asks for it', () => {
  const script = `
    const hidden = await import('@opentelemetry/api').then(() => false, () => true);
    const controller = await import(${JSON.stringify(entry)});
    const store = controller.createSqliteTranscriptStore(':memory:');
    await store.createSession({ sid: 's', agent: 'a', agentDefinition: {}, userdata: {}, status: 'running', createdAt: 't', updatedAt: 't', turns: 0 });
    const sessions = (await store.listSessions()).length;
    await store.close();
    let otel;
    try { controller.otelPlugin(); otel = 'created'; } catch (error) { otel = { code: error.code, message: error.message }; }
    process.stdout.write(JSON.stringify({ hidden, sessions, otel }));
  `;
  const output = execFileSync(process.execPath, ['--no-node-snapshot', '--conditions=@askloop/source', '--import', hide, '--input-type=module', '--eval', script], { encoding: 'utf8' });
  expect(JSON.parse(output)).toEqual({
    hidden: true,
    sessions: 1,
    otel: { code: 'LOOP_CONFIG_INVALID', message: expect.stringContaining('npm install @opentelemetry/api') },
  });
});

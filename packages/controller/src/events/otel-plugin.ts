/**
 * `otelPlugin({ tracer? })`: OpenTelemetry GenAI spans for every loop, as a
 * plugin whose `event` hook feeds `createOtelListener`. `@opentelemetry/api`
 * is an optional peer dependency: it is loaded when this factory is called
 * (never when the controller is imported), so a host without it can use
 * everything else; calling the factory without it throws `LOOP_CONFIG_INVALID`.
 */
import { createRequire } from 'node:module';
import type { Tracer } from '@opentelemetry/api';
import { LoopError } from '../errors/loop-error.ts';
import { definePlugin, type AskLoopPlugin } from '../plugin/plugin.ts';
import { createOtelListener, type OtelApiSubset } from './otel-spans.ts';

/** Options of {@link otelPlugin}. */
export interface OtelPluginOptions {
  /** Where spans go; default the global tracer provider's `@askloop/controller` tracer. */
  readonly tracer?: Tracer;
  /** The plugin's name (unique among plugins); default `otel`. */
  readonly name?: string;
}

const requireFromHere = createRequire(import.meta.url);

/** Loads `@opentelemetry/api` now (synchronously; it is CommonJS-compatible), or explains how to get it. */
function loadOtelApi(): OtelApiSubset {
  try {
    return requireFromHere('@opentelemetry/api') as OtelApiSubset;
  } catch (error) {
    throw new LoopError({ code: 'LOOP_CONFIG_INVALID', message: 'otelPlugin needs the optional peer dependency @opentelemetry/api: install it next to @askloop/controller (npm install @opentelemetry/api)', cause: error });
  }
}

/** Creates the plugin. Throws `LOOP_CONFIG_INVALID` when `@opentelemetry/api` is not installed. */
export function otelPlugin(options: OtelPluginOptions = {}): AskLoopPlugin {
  const api = loadOtelApi();
  const tracer = options.tracer ?? api.trace.getTracer('@askloop/controller');
  return definePlugin({ name: options.name ?? 'otel', specificationVersion: 'v1', hooks: { event: createOtelListener(api, tracer) } });
}

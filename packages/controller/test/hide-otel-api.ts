/**
 * A Node preload (`--import`) for the optional-peer test: makes
 * `@opentelemetry/api` unresolvable, for `import` and `require` alike, as on
 * a host that never installed it.
 */
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === '@opentelemetry/api' || specifier.startsWith('@opentelemetry/api/')) {
      throw Object.assign(new Error(`Cannot find package '${specifier}' (hidden by hide-otel-api.ts)`), { code: 'ERR_MODULE_NOT_FOUND' });
    }
    return nextResolve(specifier, context);
  },
});

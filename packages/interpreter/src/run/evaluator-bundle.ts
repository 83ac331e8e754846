/** The evaluator as the sandbox's runtime bundle (generated source; see generate-runtime-bundle.ts). */
import { createRuntimeBundle, type RuntimeBundle } from '../sandbox/index.ts';
import { RUNTIME_BUNDLE_SOURCE } from './runtime-bundle-source.generated.ts';

/** The global function the bundle defines. */
export const EVALUATOR_ENTRY = '__askloopEvaluate';

let bundle: RuntimeBundle | undefined;

/** The evaluator bundle (hashed once). */
export function evaluatorBundle(): RuntimeBundle {
  bundle ??= createRuntimeBundle(RUNTIME_BUNDLE_SOURCE, 'askloop-evaluator');
  return bundle;
}

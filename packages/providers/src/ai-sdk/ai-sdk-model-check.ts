/**
 * What `fromAISDK` is given, checked where it is given. Before,
 * `fromAISDK(undefined)` threw a bare TypeError, a number or a plain object
 * was blamed on its `provider`, and an AI SDK 4 model (`'v1'`) was taken and
 * then failed every call as PROVIDER_BAD_RESPONSE. What was passed is named by
 * its kind, never its content: a string passed by mistake may be a key.
 */
import { describeKind, isRecord } from '../call/provider-definition-check.ts';
import { ProviderError } from '../errors/provider-error.ts';

/** The specification versions `aiSDKAttempt` reads (`AISDKLanguageModel`). */
const CALLED_VERSIONS: readonly unknown[] = ['v2', 'v3', 'v4'];
/** A version label, safe to quote (it cannot be a key); anything else is named by its kind. */
const VERSION_LABEL = /^v\d{1,3}$/;
/** What to pass, said after every refusal of a value that is no model. */
const PASS_A_MODEL = "pass a model an AI SDK provider makes: fromAISDK(provider('model-id')), e.g. fromAISDK(createMistral()('mistral-large'))";

/** Where the model came from, for the message and the error's fields. */
export interface AISDKModelSource {
  /** How the message begins: `fromAISDK takes`, or `createAISDKProvider's languageModel('id') must return`. */
  readonly lead: string;
  readonly provider?: string | undefined;
  readonly modelId?: string | undefined;
}

/** How `fromAISDK` itself is named in its refusals. */
export const FROM_AISDK: AISDKModelSource = { lead: 'fromAISDK takes' };

/** What is wrong with `model` as an AI SDK language model, after "got", or undefined. */
function aiSDKModelProblem(model: unknown): string | undefined {
  // Class instances are objects; an AI SDK provider is a function (with `languageModel` and the like on it).
  if (typeof model !== 'function' && !isRecord(model)) return `${describeKind(model)}; ${PASS_A_MODEL}`;
  const fields = model as Record<string, unknown>;
  if (typeof fields['doGenerate'] !== 'function' && typeof fields['languageModel'] === 'function') {
    return "an AI SDK provider, not one of its models; pass a model it makes: fromAISDK(provider('model-id'))";
  }
  const missing = [
    ...(fields['specificationVersion'] === undefined ? ['specificationVersion'] : []),
    ...(typeof fields['doGenerate'] === 'function' ? [] : ['doGenerate']),
    ...(typeof fields['doStream'] === 'function' ? [] : ['doStream']),
  ];
  if (missing.length > 0) return `${describeKind(model)} without ${joinOr(missing)}; ${PASS_A_MODEL}`;
  const version = fields['specificationVersion'];
  if (!CALLED_VERSIONS.includes(version)) return versionProblem(version);
  if (typeof fields['modelId'] !== 'string') return `a model whose modelId is ${describeKind(fields['modelId'])}: its modelId must be a string (results and errors name the model by it)`;
  return undefined;
}

/** Why a model of another specification version cannot be called. */
function versionProblem(version: unknown): string {
  if (version === 'v1') {
    return "a model of specificationVersion 'v1' (AI SDK 4's LanguageModelV1), which fromAISDK cannot call; use a provider package of AI SDK 5 or later, whose models are 'v2', 'v3' or 'v4'";
  }
  if (typeof version === 'string' && VERSION_LABEL.test(version)) {
    return `a model of specificationVersion '${version}', which this version of @askloop/providers does not know (it calls 'v2', 'v3' and 'v4'); update @askloop/providers, or use a provider package that makes one of those`;
  }
  return `a model with a specificationVersion that is ${describeKind(version)}, not 'v2', 'v3' or 'v4'; ${PASS_A_MODEL}`;
}

/** `a`, `a or b`, `a, b or c`. */
function joinOr(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`;
}

/** Throws `PROVIDER_CONFIG` unless `model` is an AI SDK language model `aiSDKAttempt` can call. */
export function requireAISDKModel(model: unknown, source: AISDKModelSource): void {
  const problem = aiSDKModelProblem(model);
  if (problem === undefined) return;
  const modelId = source.modelId ?? (isRecord(model) && typeof model['modelId'] === 'string' ? model['modelId'] : undefined);
  throw new ProviderError({
    code: 'PROVIDER_CONFIG',
    provider: source.provider,
    model: modelId,
    retryable: false,
    message: `${source.lead} an AI SDK language model (a LanguageModelV2, V3 or V4), got ${problem}`,
  });
}

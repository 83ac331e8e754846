/**
 * The check of one call's options (`model.generate(options)`), made before
 * anything is sent: a misspelt option (`promt`, `setings`) was ignored, so a
 * request went out without the envelope or the settings meant; a prompt that
 * was no text was sent as whatever it was; a misspelt setting
 * (`temprature`) or one of the wrong kind (`temperature: 'hot'`) was dropped
 * or sent to the server as given; and a call without options failed as
 * `PROVIDER_UNKNOWN` ("Cannot read properties of undefined"). Values are
 * named by their kind, never quoted: the prompt and messages may hold keys.
 */
import { callSettingsProblem, describeKind, describeSetting, isRecord, meantName } from './provider-definition-check.ts';

/** The fields of `GenerateOptions`. */
const OPTIONS = ['system', 'prompt', 'messages', 'settings', 'signal', 'onText', 'onEvent', 'timeoutMs'] as const;
/** The fields of `GenerationSettings`, and whether each is a whole number. */
const SETTINGS = { temperature: false, topP: false, topK: true, maxOutputTokens: true, seed: true } as const;
const SETTING_NAMES = [...Object.keys(SETTINGS), 'stopSequences'];

/** What is wrong with a call's `settings`, or undefined. */
function settingsProblem(settings: unknown): string | undefined {
  if (!isRecord(settings)) return `settings must be an object ({ temperature?, maxOutputTokens?, … }), got ${describeSetting(settings)}`;
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if (key === 'stopSequences') {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return `settings.stopSequences must be a list of texts, got ${describeKind(value)}`;
      continue;
    }
    if (!Object.hasOwn(SETTINGS, key)) {
      const meant = meantName(key, SETTING_NAMES);
      return `settings has no field '${key}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the fields: ${SETTING_NAMES.join(', ')})`;
    }
    const whole = SETTINGS[key as keyof typeof SETTINGS];
    if (typeof value !== 'number' || !Number.isFinite(value) || (whole && !Number.isSafeInteger(value))) return `settings.${key} must be ${whole ? 'a whole number' : 'a finite number'}, got ${describeSetting(value)}`;
  }
  return undefined;
}

/** What is wrong with a call's `messages`, or undefined. */
function messagesProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return `messages must be a list of { role: 'user' | 'assistant', content }, got ${describeKind(messages)}`;
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return `messages[${index}] must be { role: 'user' | 'assistant', content }, got ${describeKind(message)}`;
    if (message['role'] !== 'user' && message['role'] !== 'assistant') return `messages[${index}].role must be 'user' or 'assistant', got ${describeSetting(message['role'])}${message['role'] === 'system' ? ' (the system text goes in the option system)' : ''}`;
    if (typeof message['content'] !== 'string') return `messages[${index}].content must be text, got ${describeKind(message['content'])}`;
  }
  return undefined;
}

/**
 * What is wrong with the options of one `generate` call, or undefined; the
 * text follows "the call's" in a `PROVIDER_CONFIG` message.
 */
export function generateOptionsProblem(options: unknown): string | undefined {
  if (!isRecord(options)) return `options must be an object ({ prompt, system?, settings?, … }), got ${describeKind(options)}`;
  for (const key of Object.keys(options)) {
    if ((OPTIONS as readonly string[]).includes(key)) continue;
    const meant = meantName(key, OPTIONS);
    return `options have no field '${key}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the fields: ${OPTIONS.join(', ')})`;
  }
  const { system, prompt, messages, settings, signal, onText, onEvent, timeoutMs } = options;
  if (typeof prompt !== 'string') return `prompt must be text (the turn's envelope), got ${describeKind(prompt)}`;
  if (system !== undefined && typeof system !== 'string') return `system must be text, got ${describeKind(system)}`;
  if (messages !== undefined) {
    const problem = messagesProblem(messages);
    if (problem !== undefined) return problem;
  }
  if (settings !== undefined) {
    const problem = settingsProblem(settings);
    if (problem !== undefined) return problem;
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) return `signal must be an AbortSignal, got ${describeKind(signal)}`;
  if (onText !== undefined && typeof onText !== 'function') return `onText must be a function (delta) => void, got ${describeKind(onText)}`;
  if (onEvent !== undefined && typeof onEvent !== 'function') return `onEvent must be a function (event) => void, got ${describeKind(onEvent)}`;
  return callSettingsProblem({ timeoutMs });
}

/**
 * A turn's failure as the message of the halt it causes, its code said once.
 * A provider's message names its code already (`[acme:m] PROVIDER_SERVER:
 * HTTP 500 …`, as `ProviderError` builds it); prefixed again, every halt on
 * a provider failure read `PROVIDER_SERVER: [acme:m] PROVIDER_SERVER: …`.
 */

/** Whether `message` starts with `code: `, or with `[provider:model] code: ` (a `ProviderError`'s message). */
function namesCode(code: string, message: string): boolean {
  if (message.startsWith(`${code}: `)) return true;
  const close = message.startsWith('[') ? message.indexOf('] ') : -1;
  return close !== -1 && message.startsWith(`${code}: `, close + 2);
}

/** `CODE: message`, or the message as it is when it names its code at its start already. */
export function failureLine(failure: { readonly code: string; readonly message: string }): string {
  return namesCode(failure.code, failure.message) ? failure.message : `${failure.code}: ${failure.message}`;
}

/**
 * A halt message as {@link failureLine} words it now: a recording made before
 * said a provider failure's code twice (`CODE: [p:m] CODE: …`), and replaying
 * it must not count that as a divergence.
 */
export function withCodeOnce(message: string): string {
  const code = /^([A-Z][A-Z0-9_]*): /.exec(message)?.[1];
  if (code === undefined) return message;
  const rest = message.slice(code.length + 2);
  // `CODE: CODE: …` too: `failureLine` says a message that names its code as it is, however it names it.
  return namesCode(code, rest) ? rest : message;
}

/** A model id `provider:model` split at its first `:` (the model part may hold more: `ollama:llama3:8b`). */

/** `provider:model` → its two parts; an id without `:` has no provider (`''`) and is all model. */
export function splitModelId(id: string): { readonly provider: string; readonly model: string } {
  const colon = id.indexOf(':');
  return colon < 0 ? { provider: '', model: id } : { provider: id.slice(0, colon), model: id.slice(colon + 1) };
}

/** The errno code of what `node:fs` threw (`ENOENT`, `EEXIST`, …), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/**
 * A bounded cache of parsed programs by source text (and file name), so a
 * program seen again — a replay, a retried turn, a model repeating itself —
 * is not parsed again. Only the parse is cached, never the check: the check
 * reads the turn's catalogue and policy (functions, with no version that
 * covers everything they answer) and costs about 1% of a parse, so it runs
 * every time and a cached program can never slip past a changed policy.
 * Each hit hands out a fresh copy, so nothing a caller does to its AST
 * reaches the cache.
 */
import { parseBounded, type ParseResult } from '../parse/index.ts';

/** Default number of sources kept: a few sessions' recent programs. */
export const DEFAULT_PARSE_CACHE_ENTRIES = 64;
/** Sources longer than this are not cached (they are rare, and the cache stays small: at most entries × this). */
export const MAX_CACHED_SOURCE_LENGTH = 16 * 1024;

/** Parses through the cache. */
export type CachedParse = (source: string, fileName: string | undefined) => Promise<ParseResult>;

/**
 * A parse function with a least-recently-used cache of `maxEntries` results
 * (0: no cache, every call parses). Results come from `parseBounded`.
 */
export function createParseCache(maxEntries: number = DEFAULT_PARSE_CACHE_ENTRIES): CachedParse {
  const entries = new Map<string, ParseResult>();
  return async (source, fileName) => {
    const parseOptions = fileName === undefined ? {} : { fileName };
    if (maxEntries <= 0 || typeof source !== 'string' || source.length > MAX_CACHED_SOURCE_LENGTH) return parseBounded(source, parseOptions);
    // The file name is copied into the program and its diagnostics, so it is part of the key.
    const key = `${fileName ?? ''}\u0000${source}`;
    const cached = entries.get(key);
    if (cached !== undefined) {
      entries.delete(key);
      entries.set(key, cached);
      return structuredClone(cached);
    }
    const result = await parseBounded(source, parseOptions);
    // Only programs are kept: a failure may come from a bound (the parse worker's deadline under load), which another try may pass.
    if (!result.ok) return result;
    entries.set(key, structuredClone(result));
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    return result;
  };
}

/**
 * A strict JSON reader (RFC 8259) that keeps each scalar's exact source text,
 * so canonicalisation can reorder keys without re-writing numbers or strings.
 */
import { JsonDepthError, JsonSyntaxError } from './errors.ts';

/** A JSON value with scalars kept as source text. */
export type JsonNode =
  | { kind: 'scalar'; raw: string }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'object'; members: Map<string, JsonNode> };

/** Reads one JSON value filling the whole text (white space around it allowed). */
export function readJsonTree(text: string, maxDepth: number): JsonNode {
  const reader = new Reader(text, maxDepth);
  reader.skipSpace();
  const node = reader.value(0, '$');
  reader.skipSpace();
  if (reader.index < text.length) reader.fail('unexpected text after the JSON value', '$');
  return node;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// A JSON string: no raw control characters, only the escapes JSON allows.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

class Reader {
  index = 0;
  readonly text: string;
  readonly maxDepth: number;

  constructor(text: string, maxDepth: number) {
    this.text = text;
    this.maxDepth = maxDepth;
  }

  skipSpace(): void {
    while (this.index < this.text.length) {
      const code = this.text.charCodeAt(this.index);
      if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return;
      this.index += 1;
    }
  }

  fail(message: string, path: string): never {
    throw new JsonSyntaxError(`invalid JSON at offset ${this.index} (${path}): ${message}`, { path });
  }

  value(depth: number, path: string): JsonNode {
    const char = this.text[this.index];
    if (char === '{' || char === '[') {
      if (depth >= this.maxDepth) throw new JsonDepthError(`JSON nests deeper than ${this.maxDepth} levels (at ${path})`, { path });
      return char === '{' ? this.object(depth + 1, path) : this.array(depth + 1, path);
    }
    if (char === '"') return { kind: 'scalar', raw: this.match(STRING, 'a malformed string', path) };
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.index)) {
        this.index += word.length;
        return { kind: 'scalar', raw: word };
      }
    }
    return { kind: 'scalar', raw: this.match(NUMBER, char === undefined ? 'the text ended where a value was expected' : `unexpected ${JSON.stringify(char)}`, path) };
  }

  match(pattern: RegExp, problem: string, path: string): string {
    pattern.lastIndex = this.index;
    const found = pattern.exec(this.text);
    if (found === null) this.fail(problem, path);
    this.index += found[0].length;
    return found[0];
  }

  array(depth: number, path: string): JsonNode {
    this.index += 1;
    const items: JsonNode[] = [];
    this.skipSpace();
    if (this.text[this.index] === ']') {
      this.index += 1;
      return { kind: 'array', items };
    }
    for (;;) {
      this.skipSpace();
      items.push(this.value(depth, `${path}[${items.length}]`));
      this.skipSpace();
      const char = this.text[this.index++];
      if (char === ']') return { kind: 'array', items };
      if (char !== ',') {
        this.index -= 1;
        this.fail('expected "," or "]"', path);
      }
    }
  }

  object(depth: number, path: string): JsonNode {
    this.index += 1;
    const members = new Map<string, JsonNode>();
    this.skipSpace();
    if (this.text[this.index] === '}') {
      this.index += 1;
      return { kind: 'object', members };
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.index] !== '"') this.fail('expected a quoted key', path);
      const key = JSON.parse(this.match(STRING, 'a malformed key', path)) as string;
      this.skipSpace();
      if (this.text[this.index] !== ':') this.fail('expected ":" after a key', path);
      this.index += 1;
      this.skipSpace();
      members.delete(key);
      members.set(key, this.value(depth, `${path}.${key}`));
      this.skipSpace();
      const char = this.text[this.index++];
      if (char === '}') return { kind: 'object', members };
      if (char !== ',') {
        this.index -= 1;
        this.fail('expected "," or "}"', path);
      }
    }
  }
}

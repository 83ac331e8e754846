/**
 * The YAML parser's warnings, as problems of the file (askloop.config.yaml,
 * an agent definition, an `--mcp-config` file). The parser warns and reads on
 * where the file does not say what it means, and the value then becomes
 * something else: a tag it does not know (`!!flaot 1`, `!custom x`) or one
 * the value does not fit (`!!float 1`, `!!bool yes`) leaves the text as
 * written ("1"); a tag for another kind of node is dropped; an unknown
 * directive is skipped. A mistake in a file is never silent: each warning is
 * reported at its place, with the fix.
 */
import { isMap, isScalar, isSeq, type Document, type YAMLWarning } from 'yaml';
import { closestOption } from '../closest-option.ts';
import { yamlNodes, type YamlNodeAt, type YamlProblem } from './yaml-node-paths.ts';

/** The prefix of the YAML tags (`!!float` is `tag:yaml.org,2002:float`). */
const YAML_TAG = 'tag:yaml.org,2002:';

/**
 * The tags a fix suggests: those whose values are plain data, read alike in
 * YAML 1.2 and 1.1 (`!!binary`, `!!timestamp`, `!!set` and the like are not
 * plain data, which the files askloop reads hold).
 */
const PLAIN_TAGS = ['str', 'int', 'float', 'bool', 'null'] as const;

/** What a value of each plain tag looks like (examples read alike in YAML 1.2 and 1.1). */
const FORMS: Readonly<Record<string, string>> = {
  int: 'a whole number (42, -7, 0x2A)',
  float: 'a number with a point or an exponent (1.0, 2.5e3)',
  bool: 'true or false',
  null: 'null, ~ or nothing',
};

/** A kind of node in the words of the file. */
const KINDS = { scalar: 'a single value', map: 'a map', seq: 'a list' } as const;

/**
 * Every warning of the parser, in the order written, with what to write
 * instead. `text` is the text `document` was parsed from.
 */
export function yamlWarningProblems(document: Document, text: string): YamlProblem[] {
  let tagged: YamlNodeAt[] | undefined;
  return document.warnings.map((warning) => {
    if (warning.code === 'TAG_RESOLVE_FAILED' || warning.code === 'BAD_COLLECTION_TYPE') {
      // The tagged nodes in the order written, to find each warning's by a binary search (a file may hold thousands).
      tagged ??= yamlNodes(document).filter(({ node }) => node.tag !== undefined && node.range !== undefined && node.range !== null).sort((a, b) => start(a) - start(b));
      const tag = tagProblem(document, text, warning, tagged);
      if (tag !== undefined) return tag;
    }
    return { offset: warning.pos[0], path: undefined, message: otherWarningMessage(text, warning) };
  });
}

/** Where a node's value starts (past its tag and anchor). */
const start = (entry: YamlNodeAt): number => entry.node.range?.[0] ?? 0;

/**
 * The node a tag ending at `end` is written on: the first tagged node after
 * it, with only blanks, comments and an anchor between (else none: a tag
 * inside a key that is a list, whose node has no path).
 */
function nodeOfTag(text: string, end: number, full: string, tagged: readonly YamlNodeAt[]): YamlNodeAt | undefined {
  let low = 0;
  let high = tagged.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (start(tagged[middle]!) < end) low = middle + 1;
    else high = middle;
  }
  // A tagged map and its tagged first key start together: the one carrying this tag.
  while (tagged[low] !== undefined && tagged[low + 1] !== undefined && tagged[low]!.node.tag !== full && start(tagged[low + 1]!) === start(tagged[low]!)) low++;
  const found = tagged[low];
  if (found === undefined || found.node.tag !== full) return undefined;
  // Each comment and anchor matched whole (up to its end), so the test stays linear in the text between.
  return /^(?:\s|#[^\n]*(?=\n|$)|&\S+(?=\s|$))*$/.test(text.slice(end, start(found))) ? found : undefined;
}

/** A tag the parser could not apply: unknown, or for a value of another form or kind. */
function tagProblem(document: Document, text: string, warning: YAMLWarning, nodes: readonly YamlNodeAt[]): YamlProblem | undefined {
  // The tag as written (`!!flaot`, `!custom`, `!<tag:…>`); the warning spans it.
  const written = text.slice(warning.pos[0], warning.pos[1]);
  const full = document.directives?.tagName(written, () => {}) ?? null;
  if (full === null || !written.startsWith('!')) return undefined;
  const tagged = nodeOfTag(text, warning.pos[1], full, nodes);
  const path = tagged === undefined ? undefined : tagged.key ? [...tagged.path, keyText(tagged)] : tagged.path;
  const kind = tagged === undefined ? undefined : isMap(tagged.node) ? 'map' : isSeq(tagged.node) ? 'seq' : 'scalar';
  const known = [...document.schema.tags, ...Object.values(document.schema.knownTags)].filter((candidate) => candidate.tag === full);
  const offset = warning.pos[0];
  if (known.length === 0) {
    const name = full.startsWith(YAML_TAG) ? full.slice(YAML_TAG.length) : full.startsWith('!') ? full.replace(/^!+/, '') : '';
    const meant = closestTag(name);
    const version = document.directives?.yaml.version ?? '1.2';
    const use = PLAIN_TAGS.map((plain) => `!!${plain}`).join(', ');
    return {
      offset,
      path,
      message: `unknown tag ${shown(written)}${meant === undefined ? '' : ` (did you mean !!${meant}?)`}; drop it (a value's form gives its type: 8 is a whole number, 1.5 a number, true a boolean, "8" text) or use a tag YAML ${version} reads: ${use}`,
    };
  }
  const tagKind = known[0]?.collection ?? 'scalar';
  if (kind !== undefined && kind !== tagKind) return { offset, path, message: `${shown(written)} is for ${KINDS[tagKind]}, not ${KINDS[kind]}; drop the tag` };
  const form = full.startsWith(YAML_TAG) ? FORMS[full.slice(YAML_TAG.length)] : undefined;
  return {
    offset,
    path,
    message: form === undefined ? `${shown(written)} does not fit this value; drop the tag` : `${shown(written)} does not fit this value: a ${shown(written)} is ${form}; write the value so, or drop the tag`,
  };
}

/** The plain tag a misspelt one most likely meant (`flaot` → `float`): within 2 edits, and fewer than half its letters. */
function closestTag(name: string): string | undefined {
  return closestOption(name, PLAIN_TAGS, Math.min(2, Math.ceil(name.length / 2) - 1));
}

/** A key's text, as the path of the value under it names it. */
function keyText(entry: YamlNodeAt): string {
  return isScalar(entry.node) ? String(entry.node.value) : '?';
}

/** A tag as the message shows it: as written, cut short when long. */
function shown(tag: string): string {
  return tag.length > 60 ? `${tag.slice(0, 59)}…` : tag;
}

/** A warning other than a tag's: a directive, an anchor or alias whose name ends in ':', or one this version does not name. */
function otherWarningMessage(text: string, warning: YAMLWarning): string {
  if (warning.code === 'BAD_DIRECTIVE') {
    const start = text.lastIndexOf('\n', warning.pos[0] - 1) + 1;
    const line = text.slice(start, text.indexOf('\n', start) === -1 ? undefined : text.indexOf('\n', start)).trim();
    const [name = '', version = ''] = line.split(/\s+/);
    if (name === '%YAML') return `%YAML ${shown(version)} is not a version askloop reads; write %YAML 1.2, or remove the line`;
    return `unknown directive ${shown(name)}; YAML has %YAML and %TAG: remove the line`;
  }
  if (warning.code === 'BAD_ALIAS') {
    // The name is on the warning's line, up to the ':' the warning points at.
    const name = /[&*]\S*$/.exec(text.slice(text.lastIndexOf('\n', warning.pos[0]) + 1, warning.pos[1]))?.[0];
    if (name !== undefined) return `the ${name.startsWith('&') ? 'anchor' : 'alias'} ${shown(name)} ends in ':', which YAML takes as part of its name; remove the ':' or put a space before it`;
  }
  return `${warning.message.split('\n')[0]}; fix the YAML here`;
}

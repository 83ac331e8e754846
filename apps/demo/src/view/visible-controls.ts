/**
 * Invisible control characters in untrusted text, made visible. A model (or a
 * tool's output) can put a right-to-left override (U+202E) or an isolate in
 * its text so it reads differently on screen than it is stored — `txt.exe`
 * shown as `exe.txt` — or hide a control character entirely. The viewer shows
 * each such character as a mark, `⟨U+202E⟩`, styled apart from the text (so a
 * model cannot pass off typed brackets as one), and the character itself never
 * reaches the page. The stored record is unchanged; only what is drawn is.
 *
 * Ordinary text of any script is left alone: Arabic and Hebrew still read
 * right to left by their own letters, and the joiners inside emoji and
 * Persian words (U+200C, U+200D) are not marked.
 */

// The marked characters: the one list the terminal's escaping uses too.
import { CONTROL_CLASS } from '../control-characters.ts';

/** The mark shown for `character`: `⟨U+202E⟩`. */
export function controlMark(character: string): string {
  return `⟨U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** `text` with every character of {@link CONTROL_CLASS} replaced by its mark: for places that hold plain text only (a tooltip, the window title). */
export function markControls(text: string): string {
  return text.replace(new RegExp(CONTROL_CLASS, 'g'), controlMark);
}

/**
 * The page script's part: `markControls(text)` as above, and
 * `setText(node, text)`, which fills `node` with `text` as text nodes and each
 * control character as a `span.ctl` holding its mark (a tooltip names it).
 * Text nodes and `textContent` only, never markup.
 */
export const VISIBLE_TEXT_SCRIPT = String.raw`
  var CONTROL = /${CONTROL_CLASS}/g;
  var CONTROL_NAMES = { '61C': 'ARABIC LETTER MARK', '200E': 'LEFT-TO-RIGHT MARK', '200F': 'RIGHT-TO-LEFT MARK',
    '202A': 'LEFT-TO-RIGHT EMBEDDING', '202B': 'RIGHT-TO-LEFT EMBEDDING', '202C': 'POP DIRECTIONAL FORMATTING', '202D': 'LEFT-TO-RIGHT OVERRIDE', '202E': 'RIGHT-TO-LEFT OVERRIDE',
    '2066': 'LEFT-TO-RIGHT ISOLATE', '2067': 'RIGHT-TO-LEFT ISOLATE', '2068': 'FIRST STRONG ISOLATE', '2069': 'POP DIRECTIONAL ISOLATE' };
  function controlCode(character) { return character.charCodeAt(0).toString(16).toUpperCase(); }
  function controlMark(character) { var code = controlCode(character); while (code.length < 4) code = '0' + code; return '\u27e8U+' + code + '\u27e9'; }
  function markControls(text) { return String(text).replace(CONTROL, controlMark); }
  function setText(node, text) {
    text = String(text);
    CONTROL.lastIndex = 0;
    // Most text has none: one test, then textContent as before.
    if (!CONTROL.test(text)) { node.textContent = text; return node; }
    node.textContent = '';
    var at = 0;
    text.replace(CONTROL, function (character, index) {
      if (index > at) node.appendChild(document.createTextNode(text.slice(at, index)));
      var mark = document.createElement('span');
      mark.className = 'ctl';
      mark.textContent = controlMark(character);
      mark.title = controlMark(character) + ' ' + (CONTROL_NAMES[controlCode(character)] || 'control character') + ': stored in the text, shown here instead of acting';
      node.appendChild(mark);
      at = index + 1;
      return character;
    });
    if (at < text.length) node.appendChild(document.createTextNode(text.slice(at)));
    return node;
  }
`;

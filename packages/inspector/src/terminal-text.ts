/**
 * Text from an MCP server made safe to print on a terminal. A server names itself, and writes
 * versions, titles, instructions, error messages and stderr output; printed as received, an
 * escape sequence in any of them drives the user's terminal — retitles the window
 * (`ESC ] 0 ; … BEL`), clears the screen (`ESC [ 2 J`), rewrites earlier lines, or, through
 * some terminals' OSC 52, writes the clipboard — and bidirectional overrides make the text read
 * differently from what it is (the "Trojan Source" attack, CVE-2021-42574). So every character
 * that is not plain printable text is shown as a visible escape instead: the C0 controls
 * (U+0000–U+001F) and DEL, the C1 controls (U+0080–U+009F, where U+009B is a one-character CSI),
 * and the bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069). Nothing survives that a terminal interprets; what the server sent stays
 * readable (`\x1b]0;pwned\x07` prints as those ten characters).
 */

/** Characters a terminal acts on, or that reorder text: C0 and DEL, C1, and the bidi formatting characters. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same, but tab and line feed kept (multi-line output such as a server's stderr). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_KEEPING_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control character (C0, DEL, C1) and bidirectional formatting character
 * replaced by a visible escape (`\x1b`, `\u202e`); `keepLines` keeps tab and line feed.
 *
 * @example
 * ```ts
 * terminalText('evil\x1b]0;pwned\x07'); // 'evil\\x1b]0;pwned\\x07'
 * ```
 */
export function terminalText(text: string, options: { readonly keepLines?: boolean } = {}): string {
  return text.replace(options.keepLines === true ? UNSAFE_KEEPING_LINES : UNSAFE, visible);
}

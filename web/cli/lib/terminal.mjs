// Terminal output of the CLI (issue #33, C-3): document text, file names and LLM replies reach the
// terminal through terminalSafe, so a control character is shown, not executed. A document cannot
// set the window title, write the clipboard (OSC 52) or move the cursor through `ragwasm ask`.
// Every C0 control except tab and line feed, DEL and the C1 controls (U+0080-U+009F, which some
// terminals take as 8-bit CSI/OSC) become `\u001b`-style escapes: inside JSON text that is the same
// string (a JSON escape), so --json output stays valid and means the same.

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with control characters written as \uXXXX (tab and line feed kept). */
export function terminalSafe(text) {
  return String(text).replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A stream whose string writes pass through terminalSafe (bytes pass unchanged: binary output such as
 * `embed` vectors); `redraw(line)` rewrites the current line (\r + the escaped line) for progress bars.
 */
export function safeStream(stream) {
  return {
    get isTTY() { return stream.isTTY; },
    get columns() { return stream.columns; },
    write(chunk, ...rest) {
      return stream.write(typeof chunk === 'string' ? terminalSafe(chunk) : chunk, ...rest);
    },
    redraw(line) {
      return stream.write(`\r${terminalSafe(line)}`);
    },
    raw: stream,
  };
}

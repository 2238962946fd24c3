//! Text for a terminal: whatever a corpus, a file name or a result file
//! holds is shown with its control characters escaped, so that it cannot
//! move the cursor, clear the screen, set the window title or colour a
//! fake message. Ordinary UTF-8 is kept as it is.
//!
//! Every string the command line prints comes through [`escape_lines`]
//! (the messages on standard error, the tables on standard output);
//! strings from a corpus that might hold a line break (a file name, a
//! malformed line) go through [`escape_controls`] first, so that they stay
//! on one line.

use std::borrow::Cow;
use std::fmt::Write;

/// `text` with every control character escaped: `\t`, `\n`, `\r`, `\xHH`
/// for the other C0 controls and DEL (ESC is `\x1b`), `\u{HH}` for the C1
/// controls (U+0080 to U+009F). Anything else, backslashes included, is
/// kept; text without controls is returned as it is.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() && (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `text` with every control character but the line break escaped
/// ([`escape_controls`] line by line): for messages and tables of several
/// lines.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && c.is_control()) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<Cow<'_, str>> = text.split('\n').map(escape_controls).collect();
    Cow::Owned(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_shown_not_obeyed() {
        let attack = "\x1b]0;title\x07\x1b[2J\x1b[32mall solvers OK\x1b[0m";
        assert_eq!(
            escape_controls(attack),
            "\\x1b]0;title\\x07\\x1b[2J\\x1b[32mall solvers OK\\x1b[0m"
        );
        assert_eq!(
            escape_controls("a\tb\r\nc\x7f\u{9b}2J"),
            "a\\tb\\r\\nc\\x7f\\u{9b}2J"
        );
    }

    #[test]
    fn ordinary_text_is_kept_and_borrowed() {
        for text in ["", "plain", "naïve ünïcödé 数独 — ok", "back\\slash"] {
            assert!(matches!(escape_controls(text), Cow::Borrowed(t) if t == text));
            assert!(matches!(escape_lines(text), Cow::Borrowed(t) if t == text));
        }
        assert!(matches!(escape_lines("two\nlines\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn lines_keep_their_breaks() {
        assert_eq!(
            escape_lines("one \x1b[2J\ntwo\x07\n"),
            "one \\x1b[2J\ntwo\\x07\n"
        );
        assert_eq!(escape_lines("a\r\nb"), "a\\r\nb");
    }
}

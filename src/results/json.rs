//! JSON files of a result directory: written with sorted keys, read with
//! errors that name the field.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::ResultError;

/// `value` as pretty-printed JSON with every object's keys in sorted order
/// (through [`serde_json::Value`], whose maps are sorted), as `run.json`
/// and `histograms.json` have always been written.
pub fn to_json<T: Serialize>(value: &T) -> serde_json::Result<String> {
    serde_json::to_string_pretty(&serde_json::to_value(value)?)
}

/// `text`, the contents of the file `path`, as a `T`; an error names the
/// file and the field (`corpora[1].bytes`) where the text is not what a
/// `T` is.
pub fn from_json<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, ResultError> {
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        if e.is_syntax() || e.is_eof() {
            return ResultError::Json {
                path: path.to_path_buf(),
                message,
            };
        }
        let field = field_at(text, e.line(), e.column());
        ResultError::Field {
            path: path.to_path_buf(),
            field: if field.is_empty() {
                "(top level)".to_string()
            } else {
                field
            },
            message,
        }
    })
}

/// One level of the path to a place in a JSON text.
#[derive(Debug)]
enum Level {
    /// In an object: the key whose value comes or came last.
    Object(Option<String>),
    /// In an array: the index of the current element.
    Array(usize),
}

/// The path (`corpora[1].bytes`) of the value at `line` and `column`
/// (1-based, as serde_json reports them) of `text`: the innermost value
/// being read there. Empty at the top level.
fn field_at(text: &str, line: usize, column: usize) -> String {
    // Byte offset of the position.
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            offset += column.min(l.len());
            break;
        }
        offset += l.len();
    }
    let prefix = &text.as_bytes()[..offset.min(text.len())];
    let mut stack: Vec<Level> = Vec::new();
    let mut i = 0;
    while i < prefix.len() {
        match prefix[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < prefix.len() && prefix[i] != b'"' {
                    i += if prefix[i] == b'\\' { 2 } else { 1 };
                }
                let end = i.min(prefix.len());
                // A string followed by `:` is a key.
                let rest = prefix.get(end + 1..).unwrap_or(&[]);
                let is_key = rest
                    .iter()
                    .find(|b| !b.is_ascii_whitespace())
                    .is_some_and(|b| *b == b':');
                if let (true, Some(Level::Object(key))) = (is_key, stack.last_mut()) {
                    *key = Some(String::from_utf8_lossy(&prefix[start..end]).into_owned());
                }
            }
            b'{' => stack.push(Level::Object(None)),
            b'[' => stack.push(Level::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Level::Array(n)) => *n += 1,
                Some(Level::Object(key)) => *key = None,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for level in &stack {
        match level {
            Level::Object(Some(key)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Level::Object(None) => {}
            Level::Array(n) => path.push_str(&format!("[{n}]")),
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_of_a_place() {
        let text = "{\n  \"a\": 1,\n  \"b\": [\n    {\"c\": 2},\n    {\"d\": \"x\"}\n  ]\n}";
        // Line 5, after `"x"`.
        assert_eq!(field_at(text, 5, 13), "b[1].d");
        // After the closing brace: the object itself.
        assert_eq!(field_at(text, 5, 14), "b[1]");
        assert_eq!(field_at(text, 2, 8), "a");
        assert_eq!(field_at("{\"s\": \"a,\\\"b\", \"t\": 1}", 1, 20), "t");
        assert_eq!(field_at("[1, 2]", 1, 5), "[1]");
    }
}

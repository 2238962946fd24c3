//! Text notation shared by the puzzle formats: the symbol [`Alphabet`]s
//! that spell cell values and the output [`Format`]s.
//!
//! A leaf module: it knows nothing of grids (see [`crate::sudoku`] for the
//! readers and writers that use it).

/// Symbols used for cell values in one-line and grid formats.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Alphabet {
    /// `1-9`, then `A-Z`, then `a-z` (sides up to 61); blanks `.` or `0`.
    #[default]
    Standard,
    /// `0-9` then `A-Z` for values 1.. (so `0` is a symbol, blank is `.`),
    /// as many 16x16 files write `0-9A-F`. Lower-case letters read as
    /// upper-case. Sides up to 36.
    ZeroBased,
}

/// Output formats.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Format {
    /// `n*n` symbols on one line, `.` for blank.
    #[default]
    Line,
    /// Rows on separate lines with box separators.
    Grid,
    /// A shape line, then `n` lines of `n` numbers, `0` for blank.
    Numeric,
}

/// Marks a byte that is no symbol in a lookup table; above every side.
pub(crate) const NOT_A_SYMBOL: u8 = 0xFF;

const fn symbol_table(zero_based: bool) -> [u8; 256] {
    let mut t = [NOT_A_SYMBOL; 256];
    t[b'.' as usize] = 0;
    let mut i = 0;
    while i < 26 {
        if i < 10 {
            t[b'0' as usize + i] = if zero_based { i as u8 + 1 } else { i as u8 };
        }
        if zero_based {
            t[b'A' as usize + i] = 11 + i as u8;
            t[b'a' as usize + i] = 11 + i as u8;
        } else {
            t[b'A' as usize + i] = 10 + i as u8;
            t[b'a' as usize + i] = 36 + i as u8;
        }
        i += 1;
    }
    t
}

static STANDARD_TABLE: [u8; 256] = symbol_table(false);
static ZERO_BASED_TABLE: [u8; 256] = symbol_table(true);

impl Alphabet {
    /// The largest side whose values this alphabet can spell.
    pub fn max_side(self) -> usize {
        match self {
            Alphabet::Standard => 61,
            Alphabet::ZeroBased => 36,
        }
    }

    /// The value of every byte: 0 for a blank, `NOT_A_SYMBOL` for a byte
    /// that is neither blank nor symbol.
    pub(crate) fn table(self) -> &'static [u8; 256] {
        match self {
            Alphabet::Standard => &STANDARD_TABLE,
            Alphabet::ZeroBased => &ZERO_BASED_TABLE,
        }
    }

    /// The value a byte stands for: `Some(0)` for a blank, `Some(v)` for a
    /// symbol, `None` for a byte that is neither.
    pub fn value_of(self, byte: u8) -> Option<u8> {
        match self.table()[byte as usize] {
            NOT_A_SYMBOL => None,
            v => Some(v),
        }
    }

    /// The symbol of `value` (`.` for 0), or `None` above
    /// [`Alphabet::max_side`].
    pub fn symbol(self, value: u8) -> Option<char> {
        const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        let v = value as usize;
        match (self, v) {
            (_, 0) => Some('.'),
            (Alphabet::Standard, 1..=9) => Some(DIGITS[v] as char),
            (Alphabet::Standard, 10..=35) => Some(DIGITS[v] as char),
            (Alphabet::Standard, 36..=61) => Some((b'a' + (v - 36) as u8) as char),
            (Alphabet::ZeroBased, 1..=36) => Some(DIGITS[v - 1] as char),
            _ => None,
        }
    }

    /// The symbols and blanks of a grid of side `side`, for messages:
    /// `1-9, A-G, '.' or '0' for blank`.
    pub fn describe(self, side: usize) -> String {
        let side = side.min(self.max_side()).max(1) as u8;
        let mut ranges = Vec::new();
        // Break the range where the symbols stop being consecutive.
        let mut start = 1u8;
        for v in 2..=side + 1 {
            let consecutive = v <= side
                && self.symbol(v).map(|c| c as u32) == self.symbol(v - 1).map(|c| c as u32 + 1);
            if !consecutive {
                let (a, b) = (self.symbol(start).unwrap(), self.symbol(v - 1).unwrap());
                ranges.push(if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                });
                start = v;
            }
        }
        let blank = match self {
            Alphabet::Standard => "'.' or '0' for blank",
            Alphabet::ZeroBased => "'.' for blank",
        };
        format!("{}, {blank}", ranges.join(", "))
    }
}

impl std::str::FromStr for Alphabet {
    type Err = String;
    /// `standard` or `zero-based`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "standard" => Ok(Alphabet::Standard),
            "zero-based" | "zero" => Ok(Alphabet::ZeroBased),
            _ => Err(format!(
                "expected an alphabet `standard` or `zero-based`, found `{s}`"
            )),
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    /// `line`, `grid` or `numeric`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "line" => Ok(Format::Line),
            "grid" => Ok(Format::Grid),
            "numeric" => Ok(Format::Numeric),
            _ => Err(format!(
                "expected a format `line`, `grid` or `numeric`, found `{s}`"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alphabets_describe_and_parse_names() {
        assert_eq!(Alphabet::Standard.describe(9), "1-9, '.' or '0' for blank");
        assert_eq!(
            Alphabet::Standard.describe(10),
            "1-9, A, '.' or '0' for blank"
        );
        assert_eq!(
            Alphabet::Standard.describe(40),
            "1-9, A-Z, a-e, '.' or '0' for blank"
        );
        assert_eq!(Alphabet::ZeroBased.describe(4), "0-3, '.' for blank");
        for v in 0..=61u8 {
            let c = Alphabet::Standard.symbol(v).unwrap();
            assert_eq!(Alphabet::Standard.value_of(c as u8), Some(v));
        }
        assert_eq!(Alphabet::Standard.symbol(62), None);
        assert_eq!(Alphabet::Standard.value_of(b'0'), Some(0));
        assert_eq!(Alphabet::ZeroBased.value_of(b'0'), Some(1));
        assert_eq!(Alphabet::ZeroBased.value_of(b'#'), None);
        assert_eq!("zero-based".parse(), Ok(Alphabet::ZeroBased));
        assert_eq!("grid".parse(), Ok(Format::Grid));
        assert!("pretty".parse::<Format>().is_err());
    }
}

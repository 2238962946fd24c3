//! The puzzle kinds, listed once.
//!
//! A kind is a type that is a [`Puzzle`] (parse, write, check, symmetries,
//! embedded corpus), [`Generate`]s puzzles and has [`Builtin`] solvers; the
//! harness and every subcommand are written once, generic over it. To add
//! a kind, write its module (see `src/hanidoku/` for a complete one) and add
//! one line to the `kinds!` list below: `--kind NAME` then works in
//! `bench`, `solve`, `check` and `generate`.
//!
//! ```
//! use dlxbench::kinds::{Kind, KindVisitor, PuzzleKind};
//!
//! /// Names each kind's built-in solvers.
//! struct Solvers;
//! impl KindVisitor for Solvers {
//!     type Output = Vec<String>;
//!     fn visit<P: Kind>(self) -> Vec<String> {
//!         let set = dlxbench::solvers::SolverSet::<P>::builtin();
//!         set.names().iter().map(|s| s.to_string()).collect()
//!     }
//! }
//! let kind: PuzzleKind = "hanidoku".parse().unwrap();
//! assert_eq!(kind.visit(Solvers), ["dlx", "dc", "backtrack"]);
//! assert_eq!(PuzzleKind::default().name(), "sudoku");
//! ```

use crate::puzzle::{Generate, Puzzle};
use crate::solvers::Builtin;

/// Everything the subcommands need of a kind.
pub trait Kind: Puzzle + Generate + Builtin {}

impl<P: Puzzle + Generate + Builtin> Kind for P {}

/// Code generic over the kind, run for the kind chosen at run time
/// ([`PuzzleKind::visit`]).
pub trait KindVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the kind's puzzle type.
    fn visit<P: Kind>(self) -> Self::Output;
}

/// Declares [`PuzzleKind`] from the list of kinds: the first is the default.
macro_rules! kinds {
    ($($variant:ident => $puzzle:ty),+ $(,)?) => {
        /// A kind of puzzle, as `--kind` names it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum PuzzleKind {
            $(
                #[doc = concat!("[`", stringify!($puzzle), "`].")]
                $variant,
            )+
        }

        impl PuzzleKind {
            /// Every kind; the first is the default.
            pub const ALL: &'static [PuzzleKind] = &[$(PuzzleKind::$variant),+];

            /// The lower-case name used on the command line and in files.
            pub fn name(self) -> &'static str {
                match self {
                    $(PuzzleKind::$variant => <$puzzle as Puzzle>::NAME,)+
                }
            }

            /// Runs `visitor` with this kind's puzzle type.
            pub fn visit<V: KindVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $(PuzzleKind::$variant => visitor.visit::<$puzzle>(),)+
                }
            }
        }
    };
}

kinds! {
    Sudoku => crate::sudoku::Grid,
    Hanidoku => crate::hanidoku::Board,
}

impl Default for PuzzleKind {
    fn default() -> Self {
        PuzzleKind::ALL[0]
    }
}

impl std::fmt::Display for PuzzleKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for PuzzleKind {
    type Err = String;

    /// A kind's name, in any case.
    fn from_str(s: &str) -> Result<Self, String> {
        let wanted = s.to_ascii_lowercase();
        PuzzleKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == wanted)
            .ok_or_else(|| {
                let names: Vec<&str> = PuzzleKind::ALL.iter().map(|k| k.name()).collect();
                format!("expected {}, found `{s}`", names.join(" or "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_and_print() {
        for &kind in PuzzleKind::ALL {
            assert_eq!(kind.to_string().parse::<PuzzleKind>(), Ok(kind));
            assert_eq!(kind.name().to_uppercase().parse::<PuzzleKind>(), Ok(kind));
        }
        let error = "kakuro".parse::<PuzzleKind>().unwrap_err();
        assert_eq!(error, "expected sudoku or hanidoku, found `kakuro`");
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = PuzzleKind::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PuzzleKind::ALL.len());
    }
}

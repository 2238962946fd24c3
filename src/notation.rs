//! Text notation shared by every puzzle kind (temporary re-export).
pub use crate::sudoku::{Alphabet, Format};

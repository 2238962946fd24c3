//! Temporary 9x9 line parser until `sudoku::parse_line_into` lands.
use crate::sudoku::{BoxShape, Grid, GridError, ParseOptions};

pub(crate) fn parse_line_into(
    line: &[u8],
    _options: ParseOptions,
    grid: &mut Grid,
) -> Result<(), GridError> {
    if line.len() != 81 {
        return Err(GridError {
            line: 0,
            column: 0,
            message: format!("expected 81 cells, found {}", line.len()),
        });
    }
    grid.reset(BoxShape::NINE);
    for (i, (&b, c)) in line.iter().zip(grid.cells_mut()).enumerate() {
        *c = match b {
            b'.' | b'0' => 0,
            b'1'..=b'9' => b - b'0',
            _ => {
                return Err(GridError {
                    line: 0,
                    column: i + 1,
                    message: format!("expected 1-9, '.' or '0', found {:?}", b as char),
                })
            }
        };
    }
    Ok(())
}

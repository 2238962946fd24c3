//! (to be written)
use super::{Budget, Outcome, Solver, SolverInfo};
use crate::sudoku::Grid;

/// Registry entry.
pub const INFO: SolverInfo = SolverInfo {
    name: "heuristic",
    description: "todo",
    make: || todo!(),
};
#[allow(dead_code)]
struct Todo;
impl Solver for Todo {
    fn name(&self) -> &'static str {
        INFO.name
    }
    fn solve(&mut self, _: &Grid, _: u64, _: Budget, _: &mut Grid) -> Outcome {
        todo!()
    }
}

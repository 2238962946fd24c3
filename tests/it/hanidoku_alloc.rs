//! The Hanidoku solvers allocate nothing per puzzle once made (the DLX arena
//! and the backtracking tables are built by the constructor).

use dlxbench::hanidoku::generate::Generator;
use dlxbench::hanidoku::{solvers, Board};
use dlxbench::solvers::Budget;

use crate::common::alloc::allocations;

#[test]
fn solving_allocates_nothing() {
    let mut g = Generator::new(2);
    let (mut puzzle, mut solved) = (Board::EMPTY, Board::EMPTY);
    g.next_into(&mut puzzle, &mut solved).unwrap();
    let mut clash = puzzle;
    let blank = (0..61).find(|&c| puzzle.get(c) == 0).unwrap();
    clash.set(blank, if solved.get(blank) == 1 { 2 } else { 1 });
    let puzzles = [puzzle, solved, clash, Board::EMPTY];
    for info in solvers::REGISTRY {
        let mut solver = (info.make)();
        let mut solution = Board::EMPTY;
        let before = allocations();
        for p in &puzzles {
            for (limit, budget) in [(2, Budget::UNLIMITED), (u64::MAX, Budget::nodes(300))] {
                std::hint::black_box(solver.solve(p, limit, budget, &mut solution));
            }
        }
        let made = allocations() - before;
        assert_eq!(made, 0, "{} allocated {made} times", info.name);
    }
}

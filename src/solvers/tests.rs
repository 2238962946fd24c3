//! Tests of the kind-neutral parts: statuses and outcomes.

use super::*;

#[test]
fn statuses_follow_the_limit_and_round_trip_by_name() {
    let found = |solutions| Outcome {
        solutions,
        ..Outcome::default()
    };
    assert_eq!(found(1).status(1), Status::Solved);
    assert_eq!(found(1).status(2), Status::Unique);
    assert_eq!(found(2).status(2), Status::Multiple);
    assert_eq!(found(0).status(2), Status::NoSolution);
    for status in Status::ALL {
        assert_eq!(Status::from_name(status.as_str()), Some(status));
    }
    assert_eq!(Status::from_name("solvedd"), None);
}

#[test]
fn exact_cover_stats_become_an_outcome() {
    let stats = SearchStats {
        solutions: 2,
        nodes: 7,
        guesses: 3,
        updates: 40,
        mems: Some(300),
        budget_exceeded: false,
    };
    let outcome = Outcome::from(stats);
    assert_eq!(
        outcome,
        Outcome {
            solutions: 2,
            nodes: Some(7),
            guesses: 3,
            updates: Some(40),
            mems: Some(300),
            budget_exceeded: false,
            failure: None,
            timing: Timing::Call,
            host: None,
        }
    );
    assert_eq!(outcome.status(2), Status::Multiple);
    let dlx = Outcome::from(SearchStats {
        mems: None,
        ..stats
    });
    assert_eq!((dlx.updates, dlx.mems), (Some(40), None));
}

use super::*;
use crate::harness::Schedule;
use crate::rng::SplitMix;
use crate::solvers::{SolverEntry, SolverSet};
use crate::sudoku::Grid;

/// Uniform in [-1, 1).
fn uniform(rng: &mut SplitMix) -> f64 {
    rng.next_u64() as f64 / u64::MAX as f64 * 2.0 - 1.0
}

/// One synthetic pass of `n` puzzles: every puzzle's log-ratio is
/// `ln(ratio)`, plus the pass's `shift` (the same for every puzzle of
/// the pass: load, frequency, layout), plus puzzle noise of +-20%.
fn pass_row(n: usize, ratio: f64, shift: f64, rng: &mut SplitMix) -> Vec<f64> {
    (0..n)
        .map(|_| ratio.ln() + shift + 0.2 * uniform(rng))
        .collect()
}

fn measured(n: usize) -> Measured {
    let mut m = Measured::default();
    for line in 0..n as u64 {
        m.column(0, line);
    }
    m
}

/// Simulates `ab`'s stop rule on synthetic passes whose shift is a
/// random multiplicative factor within `+-shift`: the verdict and the
/// last interval.
fn simulate(ratio: f64, shift: f64, seed: u64, options: &Options) -> (TimeVerdict, Ratio) {
    let mut rng = SplitMix::new(seed);
    let mut m = measured(300);
    let mut pass = 0;
    loop {
        let s = (1.0 + shift * uniform(&mut rng)).ln();
        let row = pass_row(300, ratio, s, &mut rng);
        pass += 1;
        if pass > options.warmup_passes {
            m.rows.push(row);
        }
        let overall = m.ratio("all", None, options.confidence);
        if settled(&overall, m.rows.len(), pass, options).is_some() || pass >= options.max_passes {
            return (judge(&overall, options), overall);
        }
    }
}

#[test]
fn an_a_a_with_a_per_pass_shift_gives_no_verdict() {
    // Each pass shifted by up to +-3%, the same for all its puzzles:
    // what a burst of load or a new layout does. Within a pass the
    // puzzles agree, so an interval over puzzles would be narrow and
    // off; the interval over pairs of passes sees the shift.
    let options = Options {
        max_passes: 61,
        ..Options::default()
    };
    let (mut verdicts, mut contain) = (0, 0);
    for seed in 0..200 {
        let (v, r) = simulate(1.0, 0.03, seed, &options);
        verdicts += usize::from(matches!(
            v,
            TimeVerdict::Regression | TimeVerdict::Improvement
        ));
        contain += usize::from(r.interval.unwrap().contains(1.0));
    }
    assert!(verdicts <= 2, "{verdicts} false verdicts of 200");
    assert!(contain >= 180, "{contain} of 200 contain 1.0");
    // The puzzle-level interval of one such pass excludes 1.0 most of
    // the time: what the bootstrap over puzzles used to report.
    let mut rng = SplitMix::new(1);
    let mut excluded = 0;
    for _ in 0..50 {
        let s = (1.0 + 0.03 * uniform(&mut rng)).ln();
        let row = pass_row(300, 1.0, s, &mut rng);
        let i = bootstrap::paired(&row, 500, 1, 0.95).unwrap();
        excluded += usize::from(!i.contains(1.0));
    }
    assert!(excluded >= 20, "{excluded} of 50");
}

#[test]
fn a_real_three_percent_is_caught_through_realistic_noise() {
    let options = Options {
        max_passes: 61,
        ..Options::default()
    };
    for seed in 0..100 {
        // +-1% per pass.
        let (v, r) = simulate(1.03, 0.01, seed, &options);
        assert_eq!(v, TimeVerdict::Regression, "{seed}: {r:?}");
        let (v, _) = simulate(1.0 / 1.03, 0.01, seed, &options);
        assert_eq!(v, TimeVerdict::Improvement, "{seed}");
    }
    // Through +-3% per pass too, given the passes.
    let mut caught = 0;
    for seed in 0..50 {
        let (v, _) = simulate(1.03, 0.03, seed, &options);
        caught += usize::from(v == TimeVerdict::Regression);
    }
    assert!(caught >= 45, "{caught} of 50");
}

#[test]
fn an_order_effect_cancels_within_a_pair_of_passes() {
    // B 2% slower whenever it goes second (odd passes), faster when
    // first: pairs see none of it.
    let mut m = measured(100);
    let mut rng = SplitMix::new(3);
    for p in 0..10 {
        let order = if p % 2 == 0 { 0.02 } else { -0.02 };
        m.rows.push(pass_row(100, 1.0, order, &mut rng));
    }
    let r = m.ratio("all", None, 0.95);
    assert_eq!((r.units, r.puzzles), (5, 100));
    let i = r.interval.unwrap();
    assert!(i.contains(1.0) && r.half_width().unwrap() < 0.01, "{i:?}");
}

#[test]
fn no_verdict_before_the_minimum_and_the_floor_raises_the_threshold() {
    let mut m = measured(2000);
    let mut rng = SplitMix::new(4);
    for _ in 0..4 {
        m.rows.push(pass_row(2000, 1.05, 0.0, &mut rng));
    }
    let options = Options::default();
    let r = m.ratio("all", None, 0.95);
    assert_eq!(r.units, 2);
    assert!(r.interval.unwrap().low > 1.01);
    assert_eq!(options.min_units(), 5);
    assert_eq!(judge(&r, &options), TimeVerdict::NotEnoughData);
    assert_eq!(settled(&r, 4, 5, &options), None);
    let early = Options {
        min_passes: 5,
        ..options
    };
    assert_eq!(early.min_units(), 2);
    assert_eq!(judge(&r, &early), TimeVerdict::Regression);
    assert_eq!(settled(&r, 4, 5, &early), Some(Stop::Decided));
    // Mid-pair: no stop.
    assert_eq!(settled(&r, 3, 5, &early), None);
    // A floor of 10% (an A/A that moved by that much): judged at it.
    let floored = Options {
        floor: Some(0.10),
        ..early
    };
    assert_eq!(floored.judged_at(), 0.10);
    assert_eq!(judge(&r, &floored), TimeVerdict::NoChange);
}

#[test]
fn puzzles_untimed_in_a_pass_are_left_out_of_every_pass() {
    let mut m = measured(10);
    let mut rng = SplitMix::new(5);
    for p in 0..4 {
        let mut row = pass_row(10, 1.0, 0.0, &mut rng);
        if p == 2 {
            row[0] = f64::NAN;
        }
        m.rows.push(row);
    }
    // A puzzle first seen in a later pass is not in the earlier ones.
    m.column(0, 99);
    m.rows[3].push(0.0);
    let r = m.ratio("all", None, 0.95);
    assert_eq!((r.puzzles, r.units), (9, 2));
    assert_eq!(r.distribution.count(), 9);
    let one = m.ratio("c", Some(1), 0.95);
    assert_eq!((one.puzzles, one.interval), (0, None));
    let floor = r.floor().unwrap();
    let i = r.interval.unwrap();
    assert!((floor - (i.high - 1.0).max(1.0 - i.low)).abs() < 1e-12);
}

#[test]
fn over_two_passes_each_side_goes_first_on_every_block_once() {
    let schedule = Schedule { block: 3 };
    for chunk in 0..4 {
        // Lineup A, B on even passes and B, A on odd ones: solver
        // index 0 is A, then B.
        let first = |flip: bool| -> Vec<bool> {
            schedule
                .steps(20, 2, chunk, 0)
                .step_by(2)
                .map(|s| (s.solver == 0) != flip)
                .collect()
        };
        let (even, odd) = (first(false), first(true));
        assert_eq!(even.len(), 7);
        assert!(even.iter().zip(&odd).all(|(x, y)| x != y));
        // Within a pass, A goes first on every other block.
        let a_first = even.iter().filter(|&&a| a).count();
        assert!(a_first == 3 || a_first == 4, "{even:?}");
    }
}

fn corpus() -> Corpus {
    let embedded = Grid::embedded_corpus();
    Corpus::from_static(embedded.name, embedded.text).unwrap()
}

fn setup(a: SolverEntry<Grid>, b: SolverEntry<Grid>) -> Setup<Grid> {
    let mut setup = Setup::new(Lineup::new(vec![a, b]));
    setup.config_mut().threads = 1;
    setup
}

/// A warm-up and two pairs.
fn fast() -> Options {
    Options {
        min_passes: 5,
        max_passes: 5,
        ..Options::default()
    }
}

fn dlx_again() -> SolverEntry<Grid> {
    SolverEntry::new("dlx'", "dlx, again", || {
        (crate::sudoku::solvers::dlx::INFO.make)()
    })
}

#[test]
fn one_solver_under_two_names_runs_the_same_algorithm() {
    let set = SolverSet::<Grid>::builtin();
    let dlx = set.by_name("dlx").unwrap().clone();
    let setup = setup(dlx, dlx_again());
    let mut reports = Vec::new();
    let r = run(&[corpus()], &setup, &fast(), None, &mut |p| {
        reports.push((p.pass, p.warmup, p.aa))
    })
    .unwrap();
    assert_eq!((r.a.as_str(), r.b.as_str()), ("dlx", "dlx'"));
    assert_eq!(r.passes, reports.len() as u32);
    assert!(r.passes >= 1 && r.passes <= 5, "{}", r.passes);
    assert_eq!(reports[0], (1, true, false));
    assert_eq!(r.warmup_passes, 1);
    assert_eq!(r.pass_ratios.len(), r.passes as usize);
    assert_eq!(r.method, METHOD);
    if r.passes == 5 {
        assert_eq!(r.overall.units, 2);
        assert!(r.overall.interval.is_some());
    }
    assert_eq!(r.overall.puzzles, 1000);
    assert_eq!(r.corpora[0].puzzles, 1000);
    let (x, y) = r.nodes.totals.unwrap();
    assert_eq!(x, y);
    assert_eq!((r.nodes.changed, r.nodes.outcome_changed), (0, 0));
    assert!(r.discrepancies.is_empty());
    assert!(r.aa.is_none());
}

#[test]
fn an_a_a_first_gives_the_floor_the_a_b_is_judged_with() {
    let set = SolverSet::<Grid>::builtin();
    let dlx = set.by_name("dlx").unwrap().clone();
    let ab_setup = setup(set.by_name("singles").unwrap().clone(), dlx.clone());
    let aa_setup = setup(dlx, dlx_again());
    let mut phases = Vec::new();
    let r = run_with_aa(&[corpus()], &ab_setup, &aa_setup, &fast(), None, &mut |p| {
        phases.push(p.aa)
    })
    .unwrap();
    let aa = r.aa.as_deref().unwrap();
    assert_eq!((aa.a.as_str(), aa.b.as_str()), ("dlx", "dlx'"));
    assert_eq!((r.a.as_str(), r.b.as_str()), ("singles", "dlx"));
    let n = aa.passes as usize;
    assert!(phases[..n].iter().all(|&x| x) && phases[n..].iter().all(|&x| !x));
    assert_eq!(r.floor, aa.overall.floor());
    assert_eq!(r.judged_at, 0.01f64.max(r.floor.unwrap_or(0.0)));
    assert!(aa.aa.is_none() && aa.floor.is_none());
}

#[test]
fn different_algorithms_show_as_changed_node_counts() {
    let set = SolverSet::<Grid>::builtin();
    let setup = setup(
        set.by_name("dlx").unwrap().clone(),
        set.by_name("singles").unwrap().clone(),
    );
    let r = run(&[corpus()], &setup, &fast(), None, &mut |_| {}).unwrap();
    assert!(r.nodes.changed > 0);
    let (x, y) = r.nodes.totals.unwrap();
    assert_ne!(x, y);
    assert_eq!(r.nodes.outcome_changed, 0);
}

#[test]
fn a_and_b_must_differ() {
    let set = SolverSet::<Grid>::builtin();
    let dlx = set.by_name("dlx").unwrap().clone();
    let setup = setup(dlx.clone(), dlx);
    let err = run(&[corpus()], &setup, &fast(), None, &mut |_| {}).unwrap_err();
    assert!(
        matches!(err, AbError::SameSolver(ref n) if n == "dlx"),
        "{err}"
    );
}

#[test]
fn a_pair_names_its_pairings_and_refuses_one_solver_twice() {
    assert!(matches!(
        Pair::new("dlx", "dlx", false),
        Err(AbError::SameSolver(s)) if s == "dlx"
    ));
    let ab = Pair::new("dlx", "dc", false).unwrap();
    assert!(!ab.aa_only());
    assert_eq!(ab.names(), ["dlx".to_string(), "dc".into()]);
    assert_eq!(ab.aa_names(), None);

    let with_aa = Pair::new("dlx", "dc", true).unwrap();
    assert_eq!(with_aa.names(), ["dlx".to_string(), "dc".into()]);
    assert_eq!(
        with_aa.aa_names(),
        Some(["dc".to_string(), "dc.copy".into()])
    );

    let alone = Pair::new("dc", "dc", true).unwrap();
    assert!(alone.aa_only());
    assert_eq!(alone.names(), ["dc".to_string(), "dc.copy".into()]);
    assert_eq!(alone.aa_names(), None);
}

#[test]
fn b_s_copy_is_made_once_where_b_comes_from() {
    use crate::solvers::foreign::LibrarySpec;
    use crate::solvers::process::CommandSpec;

    // A built-in B: the set gains the same solver under the copy's name.
    let pair = Pair::new("dlx", "dc", true).unwrap();
    let mut set = SolverSet::<Grid>::builtin();
    pair.add_builtin_copy(&mut set).unwrap();
    let copy = set.by_name("dc.copy").unwrap();
    let dc = set.by_name("dc").unwrap();
    assert_eq!(copy.description(), dc.description());
    assert_eq!(copy.default_budget(), dc.default_budget());
    // Once only: a second call finds the copy there.
    pair.add_builtin_copy(&mut set).unwrap();
    assert_eq!(set.names().iter().filter(|n| **n == "dc.copy").count(), 1);
    // Without --aa, nothing.
    let mut plain = SolverSet::<Grid>::builtin();
    let before = plain.names().len();
    Pair::new("dlx", "dc", false)
        .unwrap()
        .add_builtin_copy(&mut plain)
        .unwrap();
    assert_eq!(plain.names().len(), before);

    // A loaded B: its spec again under the copy's name, count-only alike.
    let lib: LibrarySpec = "./libx.so:solve=x".parse().unwrap();
    let (mut libs, mut cmds, mut count_only) = (vec![lib], Vec::new(), vec!["x".to_string()]);
    Pair::new("dlx", "x", true)
        .unwrap()
        .add_copy_specs(&mut libs, &mut cmds, &mut count_only);
    assert_eq!(libs.len(), 2);
    assert_eq!(libs[1].name, "x.copy");
    assert_eq!(
        (&libs[1].path, &libs[1].symbol),
        (&libs[0].path, &libs[0].symbol)
    );
    assert_eq!(count_only, ["x", "x.copy"]);
    assert!(cmds.is_empty());

    // A command B likewise.
    let (mut libs, mut cmds) = (Vec::new(), vec![CommandSpec::command("y", "./y --fast")]);
    Pair::new("dlx", "y", true)
        .unwrap()
        .add_copy_specs(&mut libs, &mut cmds, &mut Vec::new());
    assert_eq!(cmds.len(), 2);
    assert_eq!(
        (cmds[1].name.as_str(), &cmds[1].text),
        ("y.copy", &cmds[0].text)
    );
}

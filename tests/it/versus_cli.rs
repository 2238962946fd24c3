//! `dlxbench versus` and the puzzle-by-puzzle views of `report.html`, as a
//! user gets them. Every figure is recomputed here from `puzzles.csv`
//! alone (read as plain CSV, not through the library's reader), so that a
//! mistake in the library's pairing, counting or quantiles fails.

use crate::common;

use crate::common::images;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use dlxbench::results::output::VersusJson;

use common::{dlxbench, read_csv, read_json, repo_path, stdout_of, write_file};

const SOLVERS: &str = "dlx,dc,heuristic,naive";

/// [`SOLVERS`] as a list.
fn solvers() -> Vec<&'static str> {
    SOLVERS.split(',').collect()
}

/// The first `n` puzzles of the generated 9x9 corpus, as `c9.txt`.
fn corpus(dir: &Path, n: usize) -> PathBuf {
    common::gen_9x9_corpus(dir, "c9.txt", n)
}

fn bench(out: &Path, corpus: &Path, extra: &[&str]) {
    dlxbench()
        .args(["bench", "-q", "-j1", "--solvers", SOLVERS])
        .args(extra)
        .arg("--out")
        .arg(out)
        .arg(corpus)
        .assert()
        .success();
}

/// One row of `puzzles.csv`, as the test reads it.
#[derive(Debug, Clone)]
struct Row {
    line: u64,
    ns: u64,
    nodes: Option<u64>,
    updates: Option<u64>,
    mems: Option<u64>,
    status: String,
}

/// corpus -> solver -> line -> row.
type Rows = BTreeMap<String, BTreeMap<String, BTreeMap<u64, Row>>>;

fn rows_of(dirs: &[&Path]) -> Rows {
    let mut rows = Rows::new();
    for dir in dirs {
        for r in read_csv(&dir.join("puzzles.csv")) {
            let row = Row {
                line: r["line"].parse().unwrap(),
                ns: r["ns"].parse().unwrap(),
                nodes: r["nodes"].parse().ok(),
                updates: r["updates"].parse().ok(),
                mems: r["mems"].parse().ok(),
                status: r["status"].clone(),
            };
            rows.entry(r["corpus"].clone())
                .or_default()
                .entry(r["solver"].clone())
                .or_default()
                .insert(row.line, row);
        }
    }
    rows
}

/// The puzzles of each solver that count as solved: a solution, or `none`
/// where no solver found one; with its time.
fn solved(corpus: &BTreeMap<String, BTreeMap<u64, Row>>) -> HashMap<String, BTreeMap<u64, u64>> {
    let with_solution: BTreeSet<u64> = corpus
        .values()
        .flat_map(|r| r.values())
        .filter(|r| ["unique", "multiple", "solved"].contains(&r.status.as_str()))
        .map(|r| r.line)
        .collect();
    corpus
        .iter()
        .map(|(solver, rows)| {
            let ok = rows
                .values()
                .filter(|r| match r.status.as_str() {
                    "unique" | "multiple" | "solved" => true,
                    "none" => !with_solution.contains(&r.line),
                    _ => false,
                })
                .map(|r| (r.line, r.ns))
                .collect();
            (solver.clone(), ok)
        })
        .collect()
}

/// The nearest-rank quantile.
fn nearest_rank(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    sorted[((q * n as f64).ceil() as usize).clamp(1, n) - 1]
}

fn versus_json(dir: &Path, a: &str, b: &str, extra: &[&str]) -> serde_json::Value {
    let text = stdout_of(
        dlxbench()
            .arg("versus")
            .arg(dir)
            .args([a, b, "--format", "json"])
            .args(extra),
    );
    common::typed::<VersusJson>(&text);
    serde_json::from_str(&text).unwrap()
}

/// The corpora of a run: (name, puzzles), in the run's order.
type Corpora<'a> = &'a [(&'a str, u64)];

/// The test corpus of 300 puzzles.
const C9: Corpora = &[("c9", 300)];

/// Checks `versus A B`'s JSON against the figures recomputed from `rows`,
/// of a run of `solvers` (in the run's order, the reference first) over
/// `corpora`.
fn check_versus(
    doc: &serde_json::Value,
    rows: &Rows,
    corpora: Corpora,
    solvers: &[&str],
    (a, b): (&str, &str),
    tie: f64,
) {
    let examples = doc["examples"].as_u64().unwrap() as usize;
    assert_eq!(doc["format"], "dlxbench-versus/1");
    let names: Vec<&str> = doc["corpora"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["corpus"].as_str().unwrap())
        .collect();
    assert_eq!(names, corpora.iter().map(|c| c.0).collect::<Vec<_>>());
    for (c, &(_, puzzles)) in doc["corpora"].as_array().unwrap().iter().zip(corpora) {
        let name = c["corpus"].as_str().unwrap();
        assert_eq!(c["puzzles"], puzzles);
        let corpus = &rows[name];
        let ok = solved(corpus);
        let (sa, sb) = (&ok[a], &ok[b]);
        let (mut wa, mut wb, mut ties, mut both, mut only_a, mut only_b) = (0, 0, 0, 0, 0, 0);
        let mut ratios = Vec::new();
        for line in 1..=puzzles {
            match (sa.get(&line), sb.get(&line)) {
                (Some(&x), Some(&y)) => {
                    both += 1;
                    let r = y.max(1) as f64 / x.max(1) as f64;
                    ratios.push(r);
                    if r > 1.0 + tie {
                        wa += 1;
                    } else if r < 1.0 / (1.0 + tie) {
                        wb += 1;
                    } else {
                        ties += 1;
                    }
                }
                (Some(_), None) => {
                    only_a += 1;
                    wa += 1;
                }
                (None, Some(_)) => {
                    only_b += 1;
                    wb += 1;
                }
                (None, None) => {}
            }
        }
        let h = &c["head_to_head"];
        let got = |k: &str| h[k].as_u64().unwrap();
        assert_eq!(
            [got("a_wins"), got("ties"), got("b_wins"), got("neither")],
            [wa, ties, wb, puzzles - wa - ties - wb],
            "{name}: {h}"
        );
        assert_eq!(
            [got("both_solved"), got("only_a"), got("only_b")],
            [both, only_a, only_b]
        );
        ratios.sort_by(f64::total_cmp);
        let geo = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
        let ratio = &h["ratio"];
        assert!((ratio["geometric_mean"].as_f64().unwrap() - geo).abs() < 1e-9 * geo);
        for q in ratio["quantiles"].as_array().unwrap() {
            let p = q["q"].as_f64().unwrap();
            let want = nearest_rank(&ratios, p);
            assert!(
                (q["ratio"].as_f64().unwrap() - want).abs() <= 1e-12 * want,
                "{p}"
            );
        }
        // The puzzles where A wins most: those only A solved first, then
        // the largest ratios; each with its times and nodes.
        let best_a = h["a_best"].as_array().unwrap();
        let mut expect: Vec<(f64, u64)> = sa
            .iter()
            .filter_map(|(&line, &x)| match sb.get(&line) {
                None => Some((f64::INFINITY, line)),
                Some(&y) => {
                    let r = y.max(1) as f64 / x.max(1) as f64;
                    (r > 1.0 + tie).then_some((r, line))
                }
            })
            .collect();
        expect.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        let lines: Vec<u64> = best_a.iter().map(|p| p["line"].as_u64().unwrap()).collect();
        let want: Vec<u64> = expect.iter().take(examples).map(|e| e.1).collect();
        assert_eq!(lines, want, "{name}: where {a} wins most");
        for p in best_a {
            let line = p["line"].as_u64().unwrap();
            let row = &corpus[a][&line];
            assert_eq!(p["a"]["ns"], row.ns);
            assert_eq!(p["a"]["nodes"].as_u64(), row.nodes);
            assert_eq!(p["b"]["status"], corpus[b][&line].status.as_str());
        }

        // The virtual best solver: the fastest solver on each puzzle.
        let (mut vbs_solved, mut vbs_ns) = (0u64, 0u64);
        let mut wins: HashMap<&str, u64> = HashMap::new();
        // By decade of the reference's (dlx's) nodes: band -> solver -> wins.
        let mut bands: BTreeMap<u64, HashMap<&str, u64>> = BTreeMap::new();
        for line in 1..=puzzles {
            let best = solvers
                .iter()
                .filter_map(|s| ok[*s].get(&line).map(|&t| (t, *s)))
                .min_by_key(|&(t, s)| (t, solvers.iter().position(|x| *x == s)));
            if let Some((t, s)) = best {
                vbs_solved += 1;
                vbs_ns += t;
                *wins.entry(s).or_default() += 1;
                let nodes = corpus[solvers[0]][&line].nodes.unwrap();
                let decade = match nodes {
                    0 => 0,
                    n => 10u64.pow(n.ilog10()),
                };
                *bands.entry(decade).or_default().entry(s).or_default() += 1;
            }
        }
        let v = &c["virtual_best"];
        assert_eq!(v["band_solver"], solvers[0]);
        let got_bands = v["bands"].as_array().unwrap();
        assert_eq!(got_bands.len(), bands.len());
        for (b, (decade, w)) in got_bands.iter().zip(&bands) {
            assert_eq!(b["nodes_from"], *decade);
            assert_eq!(b["puzzles"], w.values().sum::<u64>());
            for x in b["wins"].as_array().unwrap() {
                let name = x["solver"].as_str().unwrap();
                assert_eq!(
                    x["wins"],
                    w.get(name).copied().unwrap_or(0),
                    "{decade} {name}"
                );
            }
        }
        assert_eq!(v["solved"], vbs_solved);
        assert_eq!(v["total_ns"], vbs_ns);
        let single = solvers
            .iter()
            .max_by_key(|s| {
                let t: u64 = ok[**s].values().sum();
                (ok[**s].len(), std::cmp::Reverse(t))
            })
            .unwrap();
        assert_eq!(v["single_best"], *single);
        for s in v["solvers"].as_array().unwrap() {
            let name = s["solver"].as_str().unwrap();
            assert_eq!(s["solved"], ok[name].len() as u64);
            assert_eq!(s["total_ns"], ok[name].values().sum::<u64>());
            assert_eq!(s["wins"], wins.get(name).copied().unwrap_or(0), "{name}");
        }
        check_unit_cost_json(c, rows, solvers);
    }
}

#[test]
fn versus_figures_are_those_of_puzzles_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 300);
    let run = tmp.path().join("run");
    bench(&run, &input, &[]);
    let rows = rows_of(&[&run]);
    // naive ends over its budget on some puzzles: the only-one-solved
    // side of the head-to-head is exercised.
    let naive = solved(&rows["c9"]);
    assert!(naive["naive"].len() < 300 && !naive["naive"].is_empty());
    for (a, b) in [("dlx", "dc"), ("naive", "dlx"), ("dlx", "heuristic")] {
        let doc = versus_json(&run, a, b, &[]);
        assert_eq!(doc["tie"]["band"], 0.25);
        assert_eq!(doc["tie"]["source"], "default");
        check_versus(&doc, &rows, C9, &solvers(), (a, b), 0.25);
    }
    let doc = versus_json(&run, "dlx", "dc", &["--tie", "5%", "--examples", "3"]);
    assert_eq!(doc["tie"]["source"], "option");
    check_versus(&doc, &rows, C9, &solvers(), ("dlx", "dc"), 0.05);

    // Text and Markdown carry the same counts.
    let doc = versus_json(&run, "dlx", "naive", &[]);
    let h = &doc["corpora"][0]["head_to_head"];
    let text = stdout_of(dlxbench().arg("versus").arg(&run).args(["dlx", "naive"]));
    assert!(text.contains("dlx against naive"), "{text}");
    assert!(text.contains("where naive wins most"), "{text}");
    assert!(text.contains("virtual best"), "{text}");
    let wins = format!("{} (", h["a_wins"]);
    assert!(text.contains(&wins), "{wins} in {text}");
    let md = stdout_of(
        dlxbench()
            .arg("versus")
            .arg(&run)
            .args(["dlx", "naive", "--format", "markdown"]),
    );
    assert!(
        md.starts_with("## dlxbench versus: dlx against naive"),
        "{md}"
    );
    assert!(md.contains("| dlx wins | ties | naive wins |"), "{md}");
}

#[test]
fn an_answer_of_no_solution_counts_only_where_no_solver_found_one() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 40);
    let run = tmp.path().join("run");
    bench(&run, &input, &["--no-plots"]);
    // Line 3: dc says `none` while the others solve it (a wrong answer);
    // line 5: every solver says `none` (an unsolvable puzzle, proved).
    let path = run.join("puzzles.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    for (i, l) in text.lines().enumerate() {
        let mut cells: Vec<String> = l.split(',').map(String::from).collect();
        if i > 0 && ((cells[1] == "3" && cells[2] == "dc") || cells[1] == "5") {
            cells[7] = "none".into();
            cells[4] = "0".into();
        }
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    std::fs::write(&path, out).unwrap();
    common::vouch(&run);
    let rows = rows_of(&[&run]);
    let ok = solved(&rows["c9"]);
    assert!(!ok["dc"].contains_key(&3) && ok["dlx"].contains_key(&3));
    assert!(ok["dc"].contains_key(&5) && ok["dlx"].contains_key(&5));
    let doc = versus_json(&run, "dlx", "dc", &[]);
    check_versus(&doc, &rows, &[("c9", 40)], &solvers(), ("dlx", "dc"), 0.25);
    assert!(
        doc["corpora"][0]["head_to_head"]["only_a"]
            .as_u64()
            .unwrap()
            >= 1
    );
    // The library's curves agree.
    let read = dlxbench::versus::read(&run, dlxbench::results::Verify::Strict).unwrap();
    let curves = &dlxbench::versus::solved_within(&read)[0].1;
    let dc = curves.iter().find(|c| c.solver == "dc").unwrap();
    assert_eq!(dc.solved(), ok["dc"].len() as u64);
}

/// The texts of an SVG picture, joined by spaces (a legend entry may
/// wrap).
fn svg_texts(doc: &roxmltree::Document) -> String {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The solved-within curves of `dir` (through the library), checked
/// against the times in `rows` at every time a puzzle was solved, and the
/// legend of the picture `bench` or `merge` drew, for each of `corpora`
/// and each of `solvers`.
fn check_curves(dir: &Path, rows: &Rows, corpora: Corpora, solvers: &[&str]) {
    use dlxbench::report::thousands;
    let read = dlxbench::versus::read(dir, dlxbench::results::Verify::Strict).unwrap();
    let all = dlxbench::versus::solved_within(&read);
    assert_eq!(all.len(), corpora.len());
    for ((corpus, curves), &(name, puzzles)) in all.into_iter().zip(corpora) {
        assert_eq!(corpus, name);
        let svg = std::fs::read_to_string(dir.join(format!("{corpus}.latency.svg"))).unwrap();
        let texts = svg_texts(&roxmltree::Document::parse(&svg).unwrap());
        let ok = solved(&rows[&corpus]);
        let names: Vec<&str> = curves.iter().map(|c| c.solver.as_str()).collect();
        assert_eq!(names, solvers);
        for c in curves {
            assert_eq!(c.puzzles, puzzles, "over all the corpus's puzzles");
            let times: Vec<u64> = ok[&c.solver].values().copied().collect();
            for &t in times.iter().chain(&[0, 1, u64::MAX]) {
                let want = times.iter().filter(|&&x| x <= t).count() as u64;
                assert_eq!(c.within(t), want, "{} within {t}", c.solver);
            }
            // The picture's legend says how many of all were solved.
            let legend = format!(
                "{}: {} of {} solved",
                c.solver,
                thousands(times.len() as u64),
                thousands(puzzles)
            );
            assert!(texts.contains(&legend), "{legend} not in {texts}");
        }
        let top = format!("all {} puzzles of the corpus", thousands(puzzles));
        assert!(texts.contains(&top), "{top} not in {texts}");
    }
}

#[test]
fn solved_within_curves_count_all_puzzles_and_a_merge_keeps_them_exact() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 300);
    let run = tmp.path().join("run");
    bench(&run, &input, &[]);
    check_curves(&run, &rows_of(&[&run]), C9, &solvers());

    let parts: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let p = tmp.path().join(format!("part{k}"));
            bench(&p, &input, &["--shard", &format!("{k}/2"), "--no-plots"]);
            p
        })
        .collect();
    let merged = tmp.path().join("merged");
    dlxbench()
        .args(["merge", "-q"])
        .args(&parts)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    let part_rows = rows_of(&[&parts[0], &parts[1]]);
    check_curves(&merged, &part_rows, C9, &solvers());
    // The head-to-head of the merge is that of the parts' rows together.
    let doc = versus_json(&merged, "dlx", "naive", &[]);
    check_versus(&doc, &part_rows, C9, &solvers(), ("dlx", "naive"), 0.25);
}

#[test]
fn the_tie_band_from_an_a_a() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 120);
    let (run, again) = (tmp.path().join("run"), tmp.path().join("again"));
    bench(&run, &input, &["--no-plots"]);
    bench(&again, &input, &["--no-plots"]);
    let doc = versus_json(&run, "dlx", "dc", &["--aa", again.to_str().unwrap()]);
    // The 95th percentile of |ln(t2/t1)| of dlx over the puzzles it solved
    // in both runs.
    let (x, y) = (rows_of(&[&run]), rows_of(&[&again]));
    let (sx, sy) = (solved(&x["c9"]), solved(&y["c9"]));
    let mut logs: Vec<f64> = sx["dlx"]
        .iter()
        .filter_map(|(line, &t1)| {
            let t2 = *sy["dlx"].get(line)?;
            Some((t2.max(1) as f64 / t1.max(1) as f64).ln().abs())
        })
        .collect();
    logs.sort_by(f64::total_cmp);
    let band = nearest_rank(&logs, 0.95).exp() - 1.0;
    let tie = &doc["tie"];
    assert_eq!(tie["source"], "aa");
    assert_eq!(tie["aa_puzzles"], logs.len() as u64);
    assert!((tie["band"].as_f64().unwrap() - band).abs() < 1e-12);
    check_versus(&doc, &x, &[("c9", 120)], &solvers(), ("dlx", "dc"), band);
    let text = stdout_of(
        dlxbench()
            .arg("versus")
            .arg(&run)
            .args(["dlx", "dc", "--aa"])
            .arg(&again),
    );
    assert!(text.contains("from the A/A"), "{text}");
}

#[test]
fn unusable_input_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 20);
    let run = tmp.path().join("run");
    bench(&run, &input, &["--no-plots"]);
    let fails = |args: &[&str], dir: &Path, says: &str| {
        dlxbench()
            .arg("versus")
            .arg(dir)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(says.to_string()));
    };
    fails(&["dlx", "nope"], &run, "no solver `nope`");
    fails(&["dlx", "dlx"], &run, "against itself");
    fails(&["dlx", "dc"], tmp.path(), "no run.json");
    let rows = tmp.path().join("norows");
    bench(&rows, &input, &["--no-plots", "--no-per-puzzle"]);
    fails(&["dlx", "dc"], &rows, "--no-per-puzzle");
    // The output file may not be an input.
    fails(
        &[
            "dlx",
            "dc",
            "--out",
            run.join("puzzles.csv").to_str().unwrap(),
        ],
        &run,
        "puzzles.csv",
    );
}

#[test]
fn report_html_draws_the_reference_against_each_solver() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 200);
    let run = tmp.path().join("run");
    bench(&run, &input, &[]);
    let rows = rows_of(&[&run]);
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(
        html.contains("Virtual best solver"),
        "the virtual best's table"
    );
    assert!(html.contains("fastest solver per band of dlx"), "the bands");
    check_versus_svgs(&run, &rows, "c9", &solvers());
    check_unit_cost_table(&html, &rows, "c9", &solvers());
    check_cost_points(&run, &rows, "c9", &solvers());
}

/// `report.html` of `dir` shows the head-to-head picture of the reference
/// (`solvers[0]`) against each other solver on `corpus`, with one dot per
/// puzzle both solved and the puzzles only the reference solved counted on
/// the frame, as `rows` has them.
fn check_versus_svgs(dir: &Path, rows: &Rows, corpus: &str, solvers: &[&str]) {
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let ok = solved(&rows[corpus]);
    let r = solvers[0];
    for s in &solvers[1..] {
        let file = format!("{corpus}.{s}.versus.svg");
        assert!(html.contains(&file), "{file}");
        let svg = std::fs::read_to_string(dir.join(&file)).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let texts = svg_texts(&doc);
        let both = ok[r].keys().filter(|l| ok[*s].contains_key(l)).count();
        let only_r = ok[r].keys().filter(|l| !ok[*s].contains_key(l)).count();
        assert!(texts.contains(&format!("both solved: {both}")), "{texts}");
        // A puzzle over budget is drawn on the frame, not dropped.
        if only_r > 0 {
            assert!(
                texts.contains(&format!("only {r} solved (top edge): {only_r}")),
                "{texts}"
            );
        }
        // One dot per puzzle both solved, one cross per puzzle on the frame.
        let dots = doc
            .descendants()
            .filter(|n| n.has_tag_name("circle"))
            .count();
        assert_eq!(dots, both + 1, "{file}: the dots and the legend's");
    }
}

/// Every `dlxbench` command of `docs/versus.md`'s `sh` blocks runs, in
/// the page's order, on a small corpus standing for top1465 and with the
/// page's `/tmp/vs...` paths in a temporary directory.
#[test]
fn the_commands_of_docs_versus_md_run() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 100);
    let page = std::fs::read_to_string(repo_path("docs/versus.md")).unwrap();
    let mut in_sh = false;
    let mut ran = Vec::new();
    for line in page.lines() {
        match line.trim() {
            "```sh" => in_sh = true,
            "```" => in_sh = false,
            l if in_sh && l.starts_with("dlxbench ") => {
                let words: Vec<String> = l
                    .split(" #")
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .skip(1)
                    .map(|w| match w {
                        "datasets/magictour_top1465.txt" => input.display().to_string(),
                        w if w.starts_with("/tmp/vs") => {
                            tmp.path().join(&w[5..]).display().to_string()
                        }
                        w => w.to_string(),
                    })
                    .collect();
                let out = dlxbench().args(&words).output().unwrap();
                assert!(
                    out.status.success(),
                    "{l}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                ran.push(words[0].clone());
            }
            _ => {}
        }
    }
    assert_eq!(
        ran,
        ["bench", "plot", "versus", "versus", "versus", "bench", "versus", "versus"]
    );
    let json = read_json(&tmp.path().join("vs-dlx-dc.json"));
    assert_eq!(json["format"], "dlxbench-versus/1");
}

/// The virtual best solver of `corpus`, recomputed from `rows`.
struct VirtualBest<'a> {
    /// Puzzles some solver solved.
    solved: u64,
    /// The sum of the best time of each, ns.
    total_ns: u64,
    /// Per solver, the puzzles it was fastest on.
    wins: HashMap<&'a str, u64>,
}

/// The virtual best of `corpus` in `rows` over `solvers` (in the run's
/// order): on each puzzle, the fastest solver that solved it, the earlier
/// solver on a tie.
fn virtual_best<'a>(rows: &Rows, solvers: &[&'a str], corpus: &str) -> VirtualBest<'a> {
    let ok = solved(&rows[corpus]);
    let mut v = VirtualBest {
        solved: 0,
        total_ns: 0,
        wins: HashMap::new(),
    };
    let lines: BTreeSet<u64> = rows[corpus]
        .values()
        .flat_map(|r| r.keys().copied())
        .collect();
    for line in lines {
        let best = solvers
            .iter()
            .enumerate()
            .filter_map(|(i, s)| ok[*s].get(&line).map(|&t| (t, i)))
            .min();
        if let Some((t, i)) = best {
            v.solved += 1;
            v.total_ns += t;
            *v.wins.entry(solvers[i]).or_default() += 1;
        }
    }
    v
}

/// The virtual best solver's line of `bench`'s notes for `corpus`, as
/// recomputed from `rows` (`puzzles.csv`) of a corpus of `puzzles`
/// puzzles: the line up to the throughput ratio, the ratio, and the rest. The library formats the numbers
/// (`human_ns`, `human_rate`, `thousands`); the figures are computed here.
fn virtual_best_line(
    rows: &Rows,
    solvers: &[&str],
    corpus: &str,
    puzzles: u64,
) -> (String, f64, String) {
    use dlxbench::report::{human_ns, human_rate, thousands};
    let ok = solved(&rows[corpus]);
    let VirtualBest {
        solved: n,
        total_ns: total,
        wins,
    } = virtual_best(rows, solvers, corpus);
    let single = *solvers
        .iter()
        .max_by_key(|s| {
            let t: u64 = ok[**s].values().sum();
            (ok[**s].len(), std::cmp::Reverse(t))
        })
        .unwrap();
    let (b_n, b_total) = (ok[single].len() as u64, ok[single].values().sum::<u64>());
    let per_s = |n: u64, t: u64| n as f64 * 1e9 / t as f64;
    let shares: Vec<String> = solvers
        .iter()
        .map(|s| {
            let w = wins.get(s).copied().unwrap_or(0);
            format!("{s} {:.1}%", 100.0 * w as f64 / n as f64)
        })
        .collect();
    (
        format!(
            "Virtual best solver on {corpus} (the fastest solver on each puzzle): {} of {} puzzles \
             solved, mean {}, {} puzzles/s on one worker; the single best, {single}: {} solved, \
             mean {}, {} puzzles/s: the virtual best ",
            thousands(n),
            thousands(puzzles),
            human_ns(total as f64 / n as f64),
            human_rate(per_s(n, total)),
            thousands(b_n),
            human_ns(b_total as f64 / b_n as f64),
            human_rate(per_s(b_n, b_total)),
        ),
        per_s(n, total) / per_s(b_n, b_total),
        format!(" its throughput; fastest on: {}.", shares.join(", ")),
    )
}

/// `text` has the line `virtual_best_line` recomputes (after `prefix`) for
/// each of `corpora`.
fn check_virtual_best_notes(
    text: &str,
    prefix: &str,
    rows: &Rows,
    corpora: Corpora,
    solvers: &[&str],
) {
    for &(corpus, puzzles) in corpora {
        check_virtual_best_note(text, prefix, rows, solvers, corpus, puzzles);
    }
}

/// `text` has the line `virtual_best_line` recomputes (after `prefix`).
fn check_virtual_best_note(
    text: &str,
    prefix: &str,
    rows: &Rows,
    solvers: &[&str],
    corpus: &str,
    puzzles: u64,
) {
    let (head, ratio, tail) = virtual_best_line(rows, solvers, corpus, puzzles);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix(prefix)?.strip_prefix(&head))
        .unwrap_or_else(|| panic!("no line `{prefix}{head}...` in:\n{text}"));
    let (shown, rest) = line.split_once('x').unwrap();
    assert_eq!(rest, tail, "{line}");
    // Three significant figures.
    let shown: f64 = shown.parse().unwrap();
    assert!(
        (shown / ratio - 1.0).abs() < 0.006,
        "{shown} against {ratio}"
    );
    assert!(ratio >= 1.0, "the virtual best is at least the single best");
}

#[test]
fn the_table_notes_and_summary_md_give_the_virtual_best_of_puzzles_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 300);
    let run = tmp.path().join("run");
    let stdout = stdout_of(
        dlxbench()
            .args(["bench", "-j1", "--no-plots", "--solvers", SOLVERS, "--out"])
            .arg(&run)
            .arg(&input),
    );
    let rows = rows_of(&[&run]);
    check_virtual_best_notes(&stdout, "", &rows, C9, &solvers());
    check_unit_cost_notes(&stdout, "  ", &rows, C9, &solvers());
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    check_virtual_best_notes(&md, "- ", &rows, C9, &solvers());
    check_unit_cost_notes(&md, "  - ", &rows, C9, &solvers());

    // A merge of shards: the figures of the shards' rows together.
    let parts: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let p = tmp.path().join(format!("part{k}"));
            bench(&p, &input, &["--shard", &format!("{k}/2"), "--no-plots"]);
            p
        })
        .collect();
    let merged = tmp.path().join("merged");
    let stdout = stdout_of(
        dlxbench()
            .args(["merge", "--no-plots"])
            .args(&parts)
            .arg("--out")
            .arg(&merged),
    );
    let part_rows = rows_of(&[&parts[0], &parts[1]]);
    check_virtual_best_notes(&stdout, "", &part_rows, C9, &solvers());
    check_unit_cost_notes(&stdout, "  ", &part_rows, C9, &solvers());
    let md = std::fs::read_to_string(merged.join("summary.md")).unwrap();
    check_virtual_best_notes(&md, "- ", &part_rows, C9, &solvers());
    check_unit_cost_notes(&md, "  - ", &part_rows, C9, &solvers());
    // Each shard's own: its own rows.
    let md = std::fs::read_to_string(parts[0].join("summary.md")).unwrap();
    let shard: Corpora = &[("c9", 150)];
    let shard_rows = rows_of(&[&parts[0]]);
    check_virtual_best_notes(&md, "- ", &shard_rows, shard, &solvers());
    check_unit_cost_notes(&md, "  - ", &shard_rows, shard, &solvers());

    // One solver timed: no virtual best to speak of.
    let alone = tmp.path().join("alone");
    let stdout = stdout_of(
        dlxbench()
            .args(["bench", "-j1", "--no-plots", "--solvers", "dlx", "--out"])
            .arg(&alone)
            .arg(&input),
    );
    assert!(!stdout.contains("Virtual best"), "{stdout}");
    // But its work against cost per unit.
    check_unit_cost_notes(&stdout, "  ", &rows_of(&[&alone]), C9, &["dlx"]);
}

/// The units of work, as `puzzles.csv` names their columns, singular.
const UNITS: [&str; 3] = ["node", "update", "mem"];

/// One unit's sums over the puzzles a solver solved with a count of it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct UnitSums {
    puzzles: u64,
    ns: u64,
    count: u64,
}

/// One solver's work against cost per unit on a corpus, recomputed here.
#[derive(Debug, Clone, Default)]
struct UnitCost {
    solved: u64,
    ns: u64,
    /// Per unit of [`UNITS`].
    units: [UnitSums; 3],
}

/// Each of `solvers`' work against cost per unit on `corpus`, from `rows`:
/// over the puzzles it solved (as for the virtual best), per unit, the
/// puzzles that have a count of it, their times and counts summed.
fn unit_costs(rows: &Rows, solvers: &[&str], corpus: &str) -> Vec<UnitCost> {
    let ok = solved(&rows[corpus]);
    solvers
        .iter()
        .map(|s| {
            let mut u = UnitCost::default();
            for (line, &ns) in &ok[*s] {
                let row = &rows[corpus][*s][line];
                assert_eq!(row.ns, ns);
                u.solved += 1;
                u.ns += ns;
                for (sum, count) in u.units.iter_mut().zip([row.nodes, row.updates, row.mems]) {
                    if let Some(c) = count {
                        sum.puzzles += 1;
                        sum.ns += ns;
                        sum.count += c;
                    }
                }
            }
            u
        })
        .collect()
}

/// The line `bench`'s notes give a solver's `u`, after its name (the
/// library formats the numbers; the figures are computed here).
fn unit_cost_line(u: &UnitCost) -> String {
    use dlxbench::report::{human_ns, human_ns3, human_rate, thousands};
    if u.solved == 0 {
        return "no puzzle solved: no figure".into();
    }
    let mut line = format!(
        "{} solved, mean {}",
        thousands(u.solved),
        human_ns(u.ns as f64 / u.solved as f64)
    );
    let mut any = false;
    for (unit, sum) in UNITS.iter().zip(&u.units) {
        if sum.puzzles == 0 {
            continue;
        }
        any = true;
        if sum.puzzles != u.solved {
            line += &format!(
                "; over the {} with {unit} counts, mean {}",
                thousands(sum.puzzles),
                human_ns(sum.ns as f64 / sum.puzzles as f64)
            );
        }
        let cost = match sum.count {
            0 => format!("no time per {unit} (none counted)"),
            c => format!("{}/{unit}", human_ns3(sum.ns as f64 / c as f64)),
        };
        line += &format!(
            " = {} {unit}s x {cost}",
            human_rate(sum.count as f64 / sum.puzzles as f64)
        );
    }
    if !any {
        line += "; no nodes, updates or mems recorded: no time per unit";
    }
    line
}

/// `text` (`bench`'s or `merge`'s notes, or `summary.md`, whose lines of
/// the solvers start with `item`) gives, under each corpus's line of work
/// against cost per unit, each solver's line as recomputed from `rows`.
fn check_unit_cost_notes(text: &str, item: &str, rows: &Rows, corpora: Corpora, solvers: &[&str]) {
    for &(corpus, _) in corpora {
        let head = format!("Work against cost per unit on {corpus}: ");
        let mut lines = text
            .lines()
            .skip_while(|l| !l.trim_start_matches(['-', ' ']).starts_with(&head))
            .skip(1);
        for (s, u) in solvers.iter().zip(unit_costs(rows, solvers, corpus)) {
            let want = format!("{item}{s}: {}", unit_cost_line(&u));
            assert_eq!(
                lines.next(),
                Some(want.as_str()),
                "{corpus} {s} in:\n{text}"
            );
        }
    }
}

/// `versus --format json`'s `unit_cost` of corpus `c` (one entry of its
/// `corpora`), as recomputed from `rows`: every sum exact, every ratio
/// the sums'.
fn check_unit_cost_json(c: &serde_json::Value, rows: &Rows, solvers: &[&str]) {
    let corpus = c["corpus"].as_str().unwrap();
    let got = c["unit_cost"]["solvers"].as_array().unwrap();
    assert_eq!(got.len(), solvers.len(), "{corpus}");
    for ((g, s), u) in got
        .iter()
        .zip(solvers)
        .zip(unit_costs(rows, solvers, corpus))
    {
        assert_eq!(g["solver"], *s);
        assert_eq!(
            (g["solved"].as_u64(), g["total_ns"].as_u64()),
            (Some(u.solved), Some(u.ns))
        );
        for (unit, sum) in UNITS.iter().zip(&u.units) {
            let x = &g[format!("{unit}s")];
            if sum.puzzles == 0 {
                assert!(x.is_null(), "{corpus} {s} {unit}: {x}");
                continue;
            }
            assert_eq!(
                [&x["puzzles"], &x["ns"], &x["count"]].map(|v| v.as_u64().unwrap()),
                [sum.puzzles, sum.ns, sum.count],
                "{corpus} {s} {unit}"
            );
            let close = |v: &serde_json::Value, want: f64| {
                let v = v.as_f64().unwrap();
                assert!(
                    (v - want).abs() <= 1e-12 * want,
                    "{corpus} {s} {unit}: {v} against {want}"
                );
            };
            close(&x["per_puzzle"], sum.count as f64 / sum.puzzles as f64);
            match sum.count {
                0 => assert!(x["ns_per_unit"].is_null()),
                n => close(&x["ns_per_unit"], sum.ns as f64 / n as f64),
            }
        }
    }
}

/// The section of `report.html` of `corpus`: from its heading to the next.
fn html_section<'a>(html: &'a str, corpus: &str) -> &'a str {
    let start = html
        .find(&format!("<h2>{corpus}:"))
        .unwrap_or_else(|| panic!("no section for {corpus}"));
    let section = &html[start..];
    &section[..section[4..].find("<h2>").map_or(section.len(), |e| e + 4)]
}

/// The cells of the first table after `heading` in `section`, row by row,
/// the header row left out (a number's no-break space made a space).
fn html_table_after(section: &str, heading: &str) -> Vec<Vec<String>> {
    let at = section
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}` in {section}"));
    let table = &section[at..section[at..].find("</table>").unwrap() + at];
    let table = &table[table.find("<table").unwrap()..];
    table
        .split("<tr>")
        .skip(2) // before the first row, the header row
        .map(|r| {
            r.split("<td>")
                .skip(1)
                .map(|c| c.split("</td>").next().unwrap().replace('\u{a0}', " "))
                .collect()
        })
        .collect()
}

/// `report.html`'s table of work against cost per unit for `corpus`, as
/// recomputed from `rows`: a row per solver, with the units some solver
/// recorded (the library formats the numbers).
fn check_unit_cost_table(html: &str, rows: &Rows, corpus: &str, solvers: &[&str]) {
    use dlxbench::report::{human_ns, human_ns3, human_rate, thousands};
    let section = html_section(html, corpus);
    let cells = html_table_after(section, "<h3>Work against cost per unit");
    let costs = unit_costs(rows, solvers, corpus);
    let recorded: Vec<usize> = (0..UNITS.len())
        .filter(|&i| costs.iter().any(|u| u.units[i].puzzles > 0))
        .collect();
    assert!(!recorded.is_empty(), "{corpus}: some solver counts nodes");
    assert_eq!(cells.len(), solvers.len(), "{corpus}: {cells:?}");
    for ((row, s), u) in cells.iter().zip(solvers).zip(&costs) {
        let mut want = vec![
            s.to_string(),
            thousands(u.solved),
            match u.solved {
                0 => "-".into(),
                n => human_ns(u.ns as f64 / n as f64),
            },
        ];
        for &i in &recorded {
            let (unit, sum) = (UNITS[i], u.units[i]);
            if sum.puzzles == 0 {
                want.extend(["not recorded".to_string(), "-".into()]);
                continue;
            }
            let over = match sum.puzzles == u.solved {
                true => String::new(),
                false => format!(" (over {})", thousands(sum.puzzles)),
            };
            want.push(format!(
                "{}{over}",
                human_rate(sum.count as f64 / sum.puzzles as f64)
            ));
            want.push(match sum.count {
                0 => "-".into(),
                n => format!("{}/{unit}", human_ns3(sum.ns as f64 / n as f64)),
            });
        }
        assert_eq!(row, &want, "{corpus} {s}");
    }
}

/// The cost chart of `corpus` in `dir` draws, per solver (a colour, in
/// the legend's order), one dot per puzzle it timed within budget, in line
/// order, at its search nodes + 1 across and its time up, both on log
/// axes, as recomputed from `rows`: the axes fitted to all the dots (least
/// squares, the test's own), every dot within a pixel of where its puzzle
/// falls (pixels are rounded). Every row is drawn: the run's corpora are
/// below the chart's sample size.
fn check_cost_points(dir: &Path, rows: &Rows, corpus: &str, solvers: &[&str]) {
    let file = dir.join(format!("{corpus}.cost.svg"));
    let svg = std::fs::read_to_string(&file).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let circles: Vec<(String, bool, (f64, f64))> = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| {
            let at = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            // The dots are translucent; the legend's samples solid.
            let dot = n.attribute("opacity") != Some("1");
            (
                n.attribute("fill").unwrap().to_string(),
                dot,
                (at("cx"), at("cy")),
            )
        })
        .collect();
    // The legend's samples, in the solvers' order, name the colours.
    let colours: Vec<&str> = circles
        .iter()
        .filter(|c| !c.1)
        .map(|c| c.0.as_str())
        .collect();
    assert_eq!(colours.len(), solvers.len(), "{}", file.display());
    let untimed = [
        "budget",
        "crashed",
        "timeout",
        "protocol-error",
        "skipped",
        "n/a",
    ];
    // (ln(nodes + 1), ln ns) of each dot's puzzle, and the dot.
    type Pair = ((f64, f64), (f64, f64));
    let mut pairs: Vec<Pair> = Vec::new();
    for (s, colour) in solvers.iter().zip(&colours) {
        let want: Vec<(f64, f64)> = rows[corpus][*s]
            .values()
            .filter(|r| !untimed.contains(&r.status.as_str()) && r.ns > 0)
            .map(|r| (((r.nodes.unwrap() + 1) as f64).ln(), (r.ns as f64).ln()))
            .collect();
        let got: Vec<(f64, f64)> = circles
            .iter()
            .filter(|x| x.1 && x.0 == *colour)
            .map(|x| x.2)
            .collect();
        assert_eq!(
            got.len(),
            want.len(),
            "{}: {s}: one dot per puzzle timed",
            file.display()
        );
        pairs.extend(want.into_iter().zip(got));
    }
    // Each axis: pixel = a + b x value, fitted.
    let fit = |value: &dyn Fn(&Pair) -> (f64, f64)| {
        let n = pairs.len() as f64;
        let (mx, my) = pairs
            .iter()
            .map(value)
            .fold((0.0, 0.0), |m, (x, y)| (m.0 + x / n, m.1 + y / n));
        let (sxy, sxx) = pairs.iter().map(value).fold((0.0, 0.0), |m, (x, y)| {
            (m.0 + (x - mx) * (y - my), m.1 + (x - mx) * (x - mx))
        });
        let b = sxy / sxx;
        let worst = pairs
            .iter()
            .map(value)
            .map(|(x, y)| (y - (my + b * (x - mx))).abs())
            .fold(0.0, f64::max);
        (b, worst)
    };
    let (bx, worst_x) = fit(&|p| (p.0 .0, p.1 .0));
    let (by, worst_y) = fit(&|p| (p.0 .1, p.1 .1));
    let at = file.display();
    // Nodes grow to the right, times upwards (smaller y).
    assert!(
        bx > 10.0 && by < -10.0,
        "{at}: axes {bx} and {by} pixels per e"
    );
    assert!(
        worst_x <= 1.0 && worst_y <= 1.0,
        "{at}: a dot {worst_x}, {worst_y} px off"
    );
}

/// The solvers of issue 41's run on the real corpora, the reference first.
const REAL_SOLVERS: &str = "dlx,dc,heuristic,locked";

/// Puzzles of the 17-clue list in that run (its first ones): each solved
/// as [`REAL_IMAGES`] symmetry images by each solver.
const SEVENTEEN: usize = 1000;

/// Symmetry images per puzzle in that run.
const REAL_IMAGES: usize = 4;

/// The fetched corpus `name` (`datasets/NAME.txt`): its path and text.
fn fetched(name: &str) -> (PathBuf, String) {
    let path = repo_path(&format!("datasets/{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (needs fetched corpora: dlxbench datasets fetch)",
            path.display()
        )
    });
    (path, text)
}

/// Every view of a run of [`REAL_SOLVERS`] in `dir` over `corpora`,
/// recomputed from its `puzzles.csv` and `images.csv` alone: the
/// head-to-head of every pair of solvers (`versus --format json`), the
/// virtual best solver (the line of `notes` (the standard output of the
/// `bench` or `merge` that made it), of `summary.md`, the JSON's, the
/// table of `report.html`), the solved-within curves (the library's, the
/// picture's legend and every point it draws), the head-to-head pictures,
/// and the spread across symmetry images (the notes, `summary.md`).
fn check_real_views(dir: &Path, notes: &str, corpora: Corpora) {
    let solvers: Vec<&str> = REAL_SOLVERS.split(',').collect();
    let rows = rows_of(&[dir]);
    assert_eq!(
        rows.keys().map(String::as_str).collect::<Vec<_>>(),
        corpora
            .iter()
            .map(|c| c.0)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
    );
    // Head to head, each pair both ways round once.
    for (i, a) in solvers.iter().enumerate() {
        for b in &solvers[i + 1..] {
            let doc = versus_json(dir, a, b, &[]);
            check_versus(&doc, &rows, corpora, &solvers, (a, b), 0.25);
        }
    }
    // The virtual best: the notes, summary.md and report.html.
    check_virtual_best_notes(notes, "", &rows, corpora, &solvers);
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    check_virtual_best_notes(&md, "- ", &rows, corpora, &solvers);
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    for &(corpus, puzzles) in corpora {
        check_vbs_table(&html, &rows, corpus, puzzles, &solvers);
        check_versus_svgs(dir, &rows, corpus, &solvers);
    }
    // Work against cost per unit: the notes, summary.md, the JSON (checked
    // with the head-to-head above), report.html's table; the cost chart's
    // every point.
    check_unit_cost_notes(notes, "  ", &rows, corpora, &solvers);
    check_unit_cost_notes(&md, "  - ", &rows, corpora, &solvers);
    for &(corpus, _) in corpora {
        check_unit_cost_table(&html, &rows, corpus, &solvers);
        check_cost_points(dir, &rows, corpus, &solvers);
    }
    // Solved within a time.
    check_curves(dir, &rows, corpora, &solvers);
    check_curve_points(dir, &rows, corpora, &solvers);
    // The spread across symmetry images, from images.csv.
    let spread = images::rows_by_corpus(dir);
    for &(corpus, puzzles) in corpora {
        for solver in &solvers {
            let lines = &spread[corpus][*solver];
            assert_eq!(lines.len() as u64, puzzles, "{corpus} {solver}");
            let want = images::recompute(lines, REAL_IMAGES);
            let at = format!("{corpus} {solver}");
            images::check(&images::reported_on(notes, corpus, solver), &want, &at);
            images::check(&images::reported_on(&md, corpus, solver), &want, &at);
            // Image 0 is the run's own solve (puzzles.csv's row).
            for (line, image) in lines {
                let row = &rows[corpus][*solver][line];
                assert_eq!(image[0].image, 0);
                assert_eq!(image[0].nodes, row.nodes, "{at} line {line}");
                assert_eq!(image[0].ns, row.ns as f64, "{at} line {line}");
            }
        }
    }
}

/// The virtual best's table of `report.html` for `corpus`: each row's
/// puzzles solved, mean time, throughput and wins, as recomputed from
/// `rows` (the library formats the numbers).
fn check_vbs_table(html: &str, rows: &Rows, corpus: &str, puzzles: u64, solvers: &[&str]) {
    use dlxbench::report::{human_ns, thousands};
    let cells = html_table_after(html_section(html, corpus), "<h3>Virtual best solver");
    let ok = solved(&rows[corpus]);
    let VirtualBest {
        solved: vbs,
        total_ns: total,
        wins,
    } = virtual_best(rows, solvers, corpus);
    let expect = |name: &str, n: u64, t: u64, w: Option<u64>| {
        vec![
            name.to_string(),
            format!(
                "{} ({:.1}%)",
                thousands(n),
                100.0 * n as f64 / puzzles as f64
            ),
            human_ns(t as f64 / n as f64),
            thousands((n as f64 * 1e9 / t as f64).round() as u64),
            w.map_or("-".to_string(), |w| {
                format!("{} ({:.1}%)", thousands(w), 100.0 * w as f64 / vbs as f64)
            }),
        ]
    };
    assert_eq!(cells.len(), solvers.len() + 1, "{corpus}: {cells:?}");
    assert_eq!(
        cells[0],
        expect("virtual best", vbs, total, None),
        "{corpus}"
    );
    for (row, s) in cells[1..].iter().zip(solvers) {
        let name = row[0].trim_end_matches(" (single best)");
        assert_eq!(name, *s, "{corpus}");
        let n = ok[*s].len() as u64;
        let t: u64 = ok[*s].values().sum();
        let want = expect(s, n, t, Some(wins.get(s).copied().unwrap_or(0)));
        assert_eq!(row[1..], want[1..], "{corpus} {s}");
    }
}

/// Issue 41's run: `dlx,dc,heuristic,locked` over top1465 and the first
/// [`SEVENTEEN`] puzzles of the 17-clue list, each puzzle solved as
/// [`REAL_IMAGES`] symmetry images; every view of it recomputed from its
/// `puzzles.csv` and `images.csv` ([`check_real_views`]); then the same
/// run in two shards, merged, and the merge's views checked the same way.
///
/// What "the merge gives the same views" can mean: the shards time every
/// puzzle again, so a time of the merge is not the unsharded run's, and
/// neither is any figure made of times (wins and ties, ratios, the
/// virtual best's mean and shares, the curves' shapes, the time CV of the
/// images). What must hold, and is checked: (1) every count that does not
/// depend on a time is equal to the unsharded run's, exactly: each
/// puzzle's status, solutions and nodes, hence which puzzles each solver
/// solved, the head-to-head's both / only one / neither, the virtual
/// best's and each solver's puzzles solved, each curve's end, the images'
/// node ratios and widest spreads; `compare` of the two finds the same
/// search tree on every puzzle (its work split: nodes ratio 1, the whole
/// time change per node); (2) the merge's `puzzles.csv` and `images.csv`
/// are the shards' rows, times included, nothing lost or added; (3) every
/// view of the merge, times included, is the one recomputed from those
/// rows. Together: the merge shows what the shards measured, as the
/// unsharded run shows what it measured.
#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn on_the_real_corpora_every_view_is_that_of_puzzles_csv_and_shards_merge_to_it() {
    let started = std::time::Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    let (top, _) = fetched("magictour_top1465");
    let (_, list) = fetched("sudoku17_all_49158");
    let first: String = common::puzzle_lines(&list)
        .take(SEVENTEEN)
        .map(|l| format!("{l}\n"))
        .collect();
    let name = format!("sudoku17_first{SEVENTEEN}");
    let seventeen = write_file(tmp.path(), &format!("{name}.txt"), first);
    let corpora: Corpora = &[("magictour_top1465", 1465), (&name, SEVENTEEN as u64)];
    let images = REAL_IMAGES.to_string();
    let bench = |out: &Path, extra: &[&str]| -> String {
        stdout_of(
            dlxbench()
                .args(["bench", "-j1", "--solvers", REAL_SOLVERS])
                .args(["--permute", "1", "--images", &images])
                .args(extra)
                .arg("--out")
                .arg(out)
                .arg(&top)
                .arg(&seventeen),
        )
    };
    let whole = tmp.path().join("whole");
    let notes = bench(&whole, &[]);
    check_real_views(&whole, &notes, corpora);

    let parts: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let p = tmp.path().join(format!("part{k}"));
            bench(&p, &["--shard", &format!("{k}/2"), "--no-plots"]);
            p
        })
        .collect();
    let merged = tmp.path().join("merged");
    let merge_notes = stdout_of(
        dlxbench()
            .arg("merge")
            .args(&parts)
            .arg("--out")
            .arg(&merged),
    );
    // (2) The merge's rows are the shards' rows, as they wrote them.
    for file in ["puzzles.csv", "images.csv"] {
        let lines = |dir: &Path| -> Vec<String> {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            let mut v: Vec<String> = text.lines().skip(1).map(String::from).collect();
            v.sort();
            v
        };
        let mut union: Vec<String> = parts.iter().flat_map(|p| lines(p)).collect();
        union.sort();
        assert_eq!(lines(&merged), union, "{file}");
        assert!(!union.is_empty());
    }
    // (3) Every view of the merge is that of its rows.
    check_real_views(&merged, &merge_notes, corpora);
    // (1) The counts are the unsharded run's.
    assert_eq!(
        common::deterministic_puzzle_rows(&merged),
        common::deterministic_puzzle_rows(&whole)
    );
    let (w, m) = (rows_of(&[&whole]), rows_of(&[&merged]));
    let solvers: Vec<&str> = REAL_SOLVERS.split(',').collect();
    for &(corpus, puzzles) in corpora {
        let (sw, sm) = (solved(&w[corpus]), solved(&m[corpus]));
        for s in &solvers {
            let lines = |x: &HashMap<String, BTreeMap<u64, u64>>| -> Vec<u64> {
                x[*s].keys().copied().collect()
            };
            assert_eq!(lines(&sw), lines(&sm), "{corpus} {s}: the puzzles solved");
        }
        for (a, b) in [("dlx", "dc"), ("dc", "locked"), ("heuristic", "locked")] {
            let counts = |dir: &Path| {
                let doc = versus_json(dir, a, b, &[]);
                let c = doc["corpora"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|c| c["corpus"] == corpus)
                    .unwrap()
                    .clone();
                let h = &c["head_to_head"];
                (
                    [&h["both_solved"], &h["only_a"], &h["only_b"]].map(|v| v.as_u64()),
                    c["virtual_best"]["solved"].as_u64(),
                )
            };
            let (cw, cm) = (counts(&whole), counts(&merged));
            assert_eq!(cw, cm, "{corpus}: {a} against {b}");
            assert!(cw.0[0].unwrap() > 0 && cw.1.unwrap() <= puzzles);
        }
        for s in &solvers {
            let node_figures = |text: &str| {
                let r = images::reported_on(text, corpus, s);
                (r.puzzles, r.left_out, r.ratio.to_bits(), r.widest)
            };
            let md = |dir: &Path| std::fs::read_to_string(dir.join("summary.md")).unwrap();
            assert_eq!(
                node_figures(&md(&merged)),
                node_figures(&md(&whole)),
                "{corpus} {s}: the images' node figures"
            );
        }
    }
    // Work against cost per unit: `compare` splits the time change from
    // the unsharded run to the merge into the search tree (the same: 1)
    // and the time per node, as recomputed from the two puzzles.csv.
    let out = dlxbench()
        .arg("compare")
        .arg(&whole)
        .arg(&merged)
        .args(["--format", "json", "--metric", "nodes"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{doc}");
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), corpora.len() * solvers.len());
    for r in results {
        let (corpus, solver) = (r["corpus"].as_str().unwrap(), r["solver"].as_str().unwrap());
        assert_eq!(r["counters"]["changed"], false, "{corpus} {solver}");
        let (time, nodes, n) = common::work_means(&whole, &merged, corpus, solver);
        let work = &r["time"]["work"];
        assert_eq!(work["puzzles"], n, "{corpus} {solver}: {work}");
        assert_eq!(nodes, 1.0);
        assert_eq!(work["nodes_ratio"].as_f64(), Some(1.0), "{work}");
        let (t, per_node) = (
            work["time_ratio"].as_f64().unwrap(),
            work["per_node_ratio"].as_f64().unwrap(),
        );
        assert!(
            (t - time).abs() <= 1e-9 * time,
            "{corpus} {solver}: {t} against {time}"
        );
        assert!(
            (per_node - time).abs() <= 1e-9 * time,
            "{corpus} {solver}: {work}"
        );
    }
    eprintln!(
        "the real-corpora run, its shards, merge and checks: {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// The solved-within pictures of `dir` draw every point they should, where
/// they should: per solver, the documented steps (at most 600: every k-th
/// solve in time order and the last, each at its time and the puzzles
/// solved within it, recomputed from `rows`), as a step line that rises at
/// each step's time from the level before; counts on a linear axis from 0
/// (where each curve starts) to the dashed line of all the corpus's
/// puzzles, times on a log axis (placed by the two extreme steps; every
/// other must fall where the log scale puts it). Pixels are rounded, so a
/// point may be off by a pixel; the number of points is exact.
fn check_curve_points(dir: &Path, rows: &Rows, corpora: Corpora, solvers: &[&str]) {
    const MAX_STEPS: usize = 600;
    for &(corpus, puzzles) in corpora {
        let file = dir.join(format!("{corpus}.latency.svg"));
        let svg = std::fs::read_to_string(&file).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let lines: Vec<(roxmltree::Node, Vec<(f64, f64)>)> = doc
            .descendants()
            .filter(|n| n.has_tag_name("polyline"))
            .map(|n| {
                let points = n
                    .attribute("points")
                    .unwrap()
                    .split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect();
                (n, points)
            })
            .collect();
        // The dashed line of all the puzzles: the most frequent height of
        // the translucent black segments (the legend's sample has two).
        let mut dashes: BTreeMap<i64, usize> = BTreeMap::new();
        for (n, p) in &lines {
            if n.attribute("opacity") == Some("0.6") && p.len() == 2 && p[0].1 == p[1].1 {
                *dashes.entry(p[0].1 as i64).or_default() += 1;
            }
        }
        let all_y = *dashes.iter().max_by_key(|d| d.1).unwrap().0 as f64;
        // The curves: the thick lines of more than two points, in the
        // solvers' order (the legend's samples are two points each).
        let curves: Vec<&Vec<(f64, f64)>> = lines
            .iter()
            .filter(|(n, p)| n.attribute("stroke-width") == Some("2") && p.len() > 2)
            .map(|(_, p)| p)
            .collect();
        assert_eq!(curves.len(), solvers.len(), "{}", file.display());
        let zero_y = curves[0][0].1;
        let y_of = |count: u64| zero_y - (zero_y - all_y) * count as f64 / puzzles as f64;
        let ok = solved(&rows[corpus]);
        let steps: Vec<Vec<(u64, u64)>> = solvers
            .iter()
            .map(|s| {
                let mut times: Vec<u64> = ok[*s].values().copied().collect();
                times.sort();
                let n = times.len();
                let every = n.div_ceil(MAX_STEPS).max(1);
                let mut steps: Vec<(u64, u64)> = Vec::new();
                for i in (0..n).filter(|i| (i + 1) % every == 0 || i + 1 == n) {
                    let t = times[i];
                    let within = times.iter().filter(|&&x| x <= t).count() as u64;
                    if steps.last().is_none_or(|l| l.0 != t) {
                        steps.push((t, within));
                    }
                }
                steps
            })
            .collect();
        // The time axis, from the fastest and the slowest step drawn.
        let drawn: Vec<(f64, f64)> = steps
            .iter()
            .zip(&curves)
            .flat_map(|(st, c)| {
                st.iter()
                    .enumerate()
                    .map(|(j, &(t, _))| ((t.max(1) as f64).ln(), c[2 * j + 1].0))
            })
            .collect();
        let lo = drawn.iter().min_by(|a, b| a.0.total_cmp(&b.0)).unwrap();
        let hi = drawn.iter().max_by(|a, b| a.0.total_cmp(&b.0)).unwrap();
        assert!(
            hi.1 - lo.1 > 100.0,
            "{}: the times span the axis",
            file.display()
        );
        let x_of = |t: u64| lo.1 + (hi.1 - lo.1) * ((t.max(1) as f64).ln() - lo.0) / (hi.0 - lo.0);
        let end_x = curves[0].last().unwrap().0;
        for ((s, st), c) in solvers.iter().zip(&steps).zip(&curves) {
            let at = format!("{}: {s}", file.display());
            assert_eq!(c.len(), 2 * st.len() + 1, "{at}: the points");
            assert!(st.len() <= MAX_STEPS + 1, "{at}");
            let near = |got: (f64, f64), want: (f64, f64), what: &str| {
                assert!(
                    (got.0 - want.0).abs() <= 1.5 && (got.1 - want.1).abs() <= 1.5,
                    "{at}: {what} at {got:?}, expected {want:?}"
                );
            };
            let mut level = 0;
            for (j, &(t, within)) in st.iter().enumerate() {
                let what = format!("{within} solved within {t} ns");
                near(c[2 * j], (x_of(t), y_of(level)), &what);
                near(c[2 * j + 1], (x_of(t), y_of(within)), &what);
                level = within;
            }
            // The last level runs to the axis's end: what was solved at all.
            assert_eq!(level, ok[*s].len() as u64, "{at}");
            let last = *c.last().unwrap();
            assert_eq!(last.0, end_x, "{at}: the curves end together");
            near(last, (end_x, y_of(level)), "the end");
        }
    }
}

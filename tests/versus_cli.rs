//! `dlxbench versus` and the puzzle-by-puzzle views of `report.html`, as a
//! user gets them. Every figure is recomputed here from `puzzles.csv`
//! alone (read as plain CSV, not through the library's reader), so that a
//! mistake in the library's pairing, counting or quantiles fails.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use common::{dlxbench, read_csv, read_json, repo_path, stdout_of};

const SOLVERS: &str = "dlx,dc,heuristic,naive";

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
    serde_json::from_str(&text).unwrap()
}

/// Checks `versus A B`'s JSON against the figures recomputed from `rows`.
fn check_versus(doc: &serde_json::Value, rows: &Rows, puzzles: u64, a: &str, b: &str, tie: f64) {
    let examples = doc["examples"].as_u64().unwrap() as usize;
    assert_eq!(doc["format"], "dlxbench-versus/1");
    for c in doc["corpora"].as_array().unwrap() {
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
        let solvers: Vec<&str> = SOLVERS.split(',').collect();
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
                let nodes = corpus["dlx"][&line].nodes.unwrap();
                let decade = match nodes {
                    0 => 0,
                    n => 10u64.pow(n.ilog10()),
                };
                *bands.entry(decade).or_default().entry(s).or_default() += 1;
            }
        }
        let v = &c["virtual_best"];
        assert_eq!(v["band_solver"], "dlx");
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
        check_versus(&doc, &rows, 300, a, b, 0.25);
    }
    let doc = versus_json(&run, "dlx", "dc", &["--tie", "5%", "--examples", "3"]);
    assert_eq!(doc["tie"]["source"], "option");
    check_versus(&doc, &rows, 300, "dlx", "dc", 0.05);

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
    check_versus(&doc, &rows, 40, "dlx", "dc", 0.25);
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

/// The solved-within curves of `dir` (through the library), checked
/// against the times in `rows` at every time a puzzle was solved, and the
/// legend of the picture `bench` or `merge` drew.
fn check_curves(dir: &Path, rows: &Rows, puzzles: u64) {
    let read = dlxbench::versus::read(dir, dlxbench::results::Verify::Strict).unwrap();
    let svg = std::fs::read_to_string(dir.join("c9.latency.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // The legend's lines joined: an entry may wrap.
    let texts: String = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    for (corpus, curves) in dlxbench::versus::solved_within(&read) {
        let ok = solved(&rows[&corpus]);
        assert_eq!(curves.len(), 4);
        for c in curves {
            assert_eq!(c.puzzles, puzzles, "over all the corpus's puzzles");
            let times: Vec<u64> = ok[&c.solver].values().copied().collect();
            for &t in times.iter().chain(&[0, 1, u64::MAX]) {
                let want = times.iter().filter(|&&x| x <= t).count() as u64;
                assert_eq!(c.within(t), want, "{} within {t}", c.solver);
            }
            // The picture's legend says how many of all were solved.
            let legend = format!("{}: {} of {} solved", c.solver, times.len(), puzzles);
            assert!(texts.contains(&legend), "{legend} not in {texts}");
        }
    }
    assert!(texts.contains(&format!("all {puzzles} puzzles of the corpus")));
}

#[test]
fn solved_within_curves_count_all_puzzles_and_a_merge_keeps_them_exact() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 300);
    let run = tmp.path().join("run");
    bench(&run, &input, &[]);
    check_curves(&run, &rows_of(&[&run]), 300);

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
    check_curves(&merged, &part_rows, 300);
    // The head-to-head of the merge is that of the parts' rows together.
    let doc = versus_json(&merged, "dlx", "naive", &[]);
    check_versus(&doc, &part_rows, 300, "dlx", "naive", 0.25);
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
    check_versus(&doc, &x, 120, "dlx", "dc", band);
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
    let ok = solved(&rows["c9"]);
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(
        html.contains("Virtual best solver"),
        "the virtual best's table"
    );
    assert!(html.contains("fastest solver per band of dlx"), "the bands");
    for s in ["dc", "heuristic", "naive"] {
        let file = format!("c9.{s}.versus.svg");
        assert!(html.contains(&file), "{file}");
        let svg = std::fs::read_to_string(run.join(&file)).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let texts: String = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect::<Vec<_>>()
            .join(" ");
        let both = ok["dlx"].keys().filter(|l| ok[s].contains_key(l)).count();
        let only_dlx = ok["dlx"].keys().filter(|l| !ok[s].contains_key(l)).count();
        assert!(texts.contains(&format!("both solved: {both}")), "{texts}");
        // A puzzle over budget is drawn on the frame, not dropped.
        if only_dlx > 0 {
            assert!(
                texts.contains(&format!("only dlx solved (top edge): {only_dlx}")),
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

/// The virtual best solver's line of `bench`'s notes for `corpus`, as
/// recomputed from `rows` (`puzzles.csv`) of a corpus of `puzzles`
/// puzzles: the line up to the throughput ratio, the ratio, and the rest. The library formats the numbers
/// (`human_ns`, `human_rate`, `thousands`); the figures are computed here.
fn virtual_best_line(rows: &Rows, corpus: &str, puzzles: u64) -> (String, f64, String) {
    use dlxbench::report::{human_ns, human_rate, thousands};
    let solvers: Vec<&str> = SOLVERS.split(',').collect();
    let ok = solved(&rows[corpus]);
    let (mut n, mut total) = (0u64, 0u64);
    let mut wins: HashMap<&str, u64> = HashMap::new();
    let lines: BTreeSet<u64> = rows[corpus]
        .values()
        .flat_map(|r| r.keys().copied())
        .collect();
    for line in lines {
        // The fastest that solved it; the earlier solver on a tie.
        let best = solvers
            .iter()
            .enumerate()
            .filter_map(|(i, s)| ok[*s].get(&line).map(|&t| (t, i)))
            .min();
        if let Some((t, i)) = best {
            n += 1;
            total += t;
            *wins.entry(solvers[i]).or_default() += 1;
        }
    }
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

/// `text` has the line `virtual_best_line` recomputes (after `prefix`).
fn check_virtual_best_note(text: &str, prefix: &str, rows: &Rows, puzzles: u64) {
    let (head, ratio, tail) = virtual_best_line(rows, "c9", puzzles);
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
    check_virtual_best_note(&stdout, "", &rows, 300);
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    check_virtual_best_note(&md, "- ", &rows, 300);

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
    check_virtual_best_note(&stdout, "", &part_rows, 300);
    let md = std::fs::read_to_string(merged.join("summary.md")).unwrap();
    check_virtual_best_note(&md, "- ", &part_rows, 300);
    // Each shard's own: its own rows.
    let md = std::fs::read_to_string(parts[0].join("summary.md")).unwrap();
    check_virtual_best_note(&md, "- ", &rows_of(&[&parts[0]]), 150);

    // One solver timed: no virtual best to speak of.
    let alone = tmp.path().join("alone");
    let stdout = stdout_of(
        dlxbench()
            .args(["bench", "-j1", "--no-plots", "--solvers", "dlx", "--out"])
            .arg(&alone)
            .arg(&input),
    );
    assert!(!stdout.contains("Virtual best"), "{stdout}");
}

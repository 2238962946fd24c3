//! Pictures, `report.html`, `compare.html` and the dashboard exports, as a
//! user gets them: from `bench`, `merge`, `plot`, `compare` and `ab`.
//! Every SVG is parsed as XML and rendered to pixels; every page is checked
//! to load nothing from the network and to link only files that exist.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::{dir_entries, dlxbench, read_json, repo_path, write_file};
use dlxbench::plot::{chart, PICTURES};
use dlxbench::results::output::export::{Bmf, GabEntry};

const SOLVERS: [&str; 3] = ["dlx", "singles", "heuristic"];

/// Two corpora: the generated 9x9 one and a small one.
fn corpora(dir: &Path) -> Vec<PathBuf> {
    let nine = repo_path("datasets/generated/gen_9x9_1000.txt");
    let text = std::fs::read_to_string(&nine).unwrap();
    let small: String = common::puzzle_lines(&text)
        .skip(500)
        .take(60)
        .map(|l| format!("{l}\n"))
        .collect();
    vec![nine, write_file(dir, "small.txt", small)]
}

/// The benchmarks of the two corpora x three solvers: `corpus/solver`.
fn benchmarks() -> Vec<String> {
    ["gen_9x9_1000", "small"]
        .iter()
        .flat_map(|c| SOLVERS.iter().map(move |s| format!("{c}/{s}")))
        .collect()
}

fn bench(out: &Path, corpora: &[PathBuf], extra: &[&str]) {
    dlxbench()
        .args(["bench", "-q", "-j1", "--solvers", &SOLVERS.join(",")])
        .args(extra)
        .arg("--out")
        .arg(out)
        .args(corpora)
        .assert()
        .success();
}

fn svgs(dir: &Path) -> BTreeSet<String> {
    dir_entries(dir)
        .into_iter()
        .filter(|n| n.ends_with(".svg"))
        .collect()
}

/// The colours of the strokes and fills of `svg`'s drawn elements.
fn colours(doc: &roxmltree::Document, element: &str, attribute: &str) -> BTreeSet<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name(element))
        .filter_map(|n| n.attribute(attribute))
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

fn texts(doc: &roxmltree::Document) -> String {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Renders `svg` and returns the share of pixels in the middle of the
/// plot area that are coloured: the series' colours, not the grey of the
/// grid, the axes and the text.
fn ink(svg: &str) -> f64 {
    ink_within(svg, 5)
}

/// [`ink`] of the picture less a margin of 1/`margin` of its size on each
/// side (0: the whole picture).
fn ink_within(svg: &str, margin: usize) -> f64 {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let (w, h) = (size.width() as usize, size.height() as usize);
    let data = pixmap.data();
    let (mut inked, mut all) = (0usize, 0usize);
    let (my, mx) = match margin {
        0 => (0, 0),
        m => (h / m, w / m),
    };
    for y in my..h - my {
        for x in mx..w - mx {
            let p = &data[(y * w + x) * 4..(y * w + x) * 4 + 4];
            all += 1;
            let (hi, lo) = (p[0].max(p[1]).max(p[2]), p[0].min(p[1]).min(p[2]));
            if p[3] > 0 && hi - lo > 40 {
                inked += 1;
            }
        }
    }
    inked as f64 / all as f64
}

/// Every check of a picture: XML, axis labels, one series per solver in its
/// colour, and ink in the plot area.
fn check_picture(path: &Path, solvers: &[&str]) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("{}: not XML: {e}", path.display()));
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let labels = texts(&doc);
    if name.contains(".versus.") {
        // The reference's time across, the solver's (named in the file)
        // up; every puzzle both solved a dot.
        let solver = name.split('.').nth(1).unwrap();
        assert!(labels.contains("dlx: time"), "{name}: {labels}");
        assert!(
            labels.contains(&format!("{solver}: time")),
            "{name}: {labels}"
        );
        assert!(labels.contains("both solved"), "{name}: {labels}");
        let ink = ink(&text);
        assert!(ink > 0.002, "{name}: the plot area is blank ({ink})");
        return;
    }
    for s in solvers {
        assert!(labels.contains(s), "{name}: no label for {s} in {labels}");
    }
    let want: BTreeSet<String> = (0..solvers.len()).map(chart::colour_hex).collect();
    if name.contains(".percentiles.") || name.contains(".latency.") {
        let axis = match name.contains(".latency.") {
            true => "solved within it",
            false => "latency",
        };
        assert!(labels.contains(axis), "{name}: no axis label: {labels}");
        // One curve per solver, in its colour.
        let lines = colours(&doc, "polyline", "stroke");
        assert!(want.is_subset(&lines), "{name}: {want:?} not in {lines:?}");
        let curves = doc
            .descendants()
            .filter(|n| n.has_tag_name("polyline"))
            .filter(|n| {
                n.attribute("stroke")
                    .is_some_and(|c| want.contains(&c.to_ascii_uppercase()))
                    && n.attribute("points").is_some_and(|p| p.len() > 40)
            })
            .count();
        assert_eq!(curves, solvers.len(), "{name}: curves");
    } else if name.contains(".cost.") {
        assert!(labels.contains("search nodes"), "{name}: {labels}");
        let points = colours(&doc, "circle", "fill");
        assert!(
            want.is_subset(&points),
            "{name}: {want:?} not in {points:?}"
        );
    } else {
        assert!(name.contains(".speed."), "{name}");
        assert!(labels.contains("speed relative to dlx"), "{name}: {labels}");
        let bars = colours(&doc, "rect", "fill");
        assert!(want.is_subset(&bars), "{name}: {want:?} not in {bars:?}");
        // The bars run from 1x to each ratio: near 1x, and at the left
        // where the names leave room, they can lie outside the middle.
        let ink = ink_within(&text, 0);
        assert!(ink > 0.0, "{name}: no bars drawn ({ink})");
        return;
    }
    let ink = ink(&text);
    assert!(ink > 0.002, "{name}: the plot area is blank ({ink})");
}

/// `report.html`: one inline SVG per picture file, links only to files
/// that exist, nothing from the network.
fn check_page(dir: &Path, page: &str) {
    let html = std::fs::read_to_string(dir.join(page)).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    for bad in ["http://", "https://", "<script", "<link", "@import", "url("] {
        // The SVG namespace is an identifier, not a load.
        let found = html
            .match_indices(bad)
            .any(|(at, _)| !html[at..].starts_with("http://www.w3.org/2000/svg"));
        assert!(!found, "{page} has {bad}");
    }
    let re = regex::Regex::new(r#"(?:href|src)="([^"]*)""#).unwrap();
    for cap in re.captures_iter(&html) {
        assert!(dir.join(&cap[1]).is_file(), "{page} links {}", &cap[1]);
    }
    assert_eq!(
        html.matches("<svg").count(),
        svgs(dir).len(),
        "{page}: inline pictures"
    );
}

#[test]
fn the_ink_measure_sees_series_not_grids() {
    let empty = chart::percentiles("nothing", &[]).unwrap();
    assert_eq!(ink(&empty), 0.0);
    let one = chart::percentiles(
        "one",
        &[chart::Series {
            name: "s".into(),
            colour: 0,
            points: (0..40)
                .map(|i| (i as f64 / 10.0, 1e3 * (1.0 + i as f64)))
                .collect(),
        }],
    )
    .unwrap();
    assert!(ink(&one) > 0.002, "{}", ink(&one));
}

#[test]
fn bench_draws_four_pictures_per_corpus_and_a_page_that_plot_redraws_identically() {
    let tmp = tempfile::tempdir().unwrap();
    let corpora = corpora(tmp.path());
    let out = tmp.path().join("run");
    bench(&out, &corpora, &[]);
    let pictures = svgs(&out);
    let mut want = BTreeSet::new();
    for corpus in ["gen_9x9_1000", "small"] {
        for p in PICTURES {
            want.insert(format!("{corpus}.{p}.svg"));
        }
        // The reference, dlx, against each other solver.
        for s in &SOLVERS[1..] {
            want.insert(format!("{corpus}.{s}.versus.svg"));
        }
    }
    assert_eq!(pictures, want);
    for p in &pictures {
        check_picture(&out.join(p), &SOLVERS);
    }
    check_page(&out, "report.html");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    for what in [
        "gen_9x9_1000: 1,000 puzzles",
        "small: 60 puzzles",
        "heuristic",
        "command line",
    ] {
        assert!(html.contains(what), "report.html lacks {what}");
    }

    // The same pictures from the files alone, after they are gone.
    let copy = tmp.path().join("copy");
    common::copy_dir(&out, &copy);
    for p in &pictures {
        std::fs::remove_file(copy.join(p)).unwrap();
    }
    std::fs::remove_file(copy.join("report.html")).unwrap();
    let text = common::stdout_of(dlxbench().arg("plot").arg(&copy));
    assert!(text.contains("report.html: 13 files"), "{text}");
    for p in &pictures {
        assert_eq!(
            std::fs::read(out.join(p)).unwrap(),
            std::fs::read(copy.join(p)).unwrap(),
            "{p} drawn differently"
        );
    }
}

#[test]
fn no_plots_no_rows_and_bad_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let corpora = corpora(tmp.path());
    let out = tmp.path().join("none");
    bench(&out, &corpora[1..], &["--no-plots"]);
    assert!(svgs(&out).is_empty());
    assert!(!out.join("report.html").exists());

    // Without puzzles.csv there is no scatter plot; the rest is drawn.
    let out = tmp.path().join("rows");
    bench(&out, &corpora[1..], &["--no-per-puzzle"]);
    let names = svgs(&out);
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(!names.contains("small.cost.svg"));
    check_page(&out, "report.html");

    // Not a result directory: exit 2, saying why.
    dlxbench()
        .arg("plot")
        .arg(tmp.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no run.json"));
}

#[test]
fn a_merge_is_drawn_like_a_run() {
    let tmp = tempfile::tempdir().unwrap();
    let corpora = corpora(tmp.path());
    for k in 1..=2 {
        let shard = format!("{k}/2");
        bench(
            &tmp.path().join(format!("part{k}")),
            &corpora,
            &["--shard", &shard, "--no-plots"],
        );
    }
    let merged = tmp.path().join("merged");
    let bmf = tmp.path().join("merged.bmf.json");
    dlxbench()
        .args(["merge", "-q"])
        .arg(tmp.path().join("part1"))
        .arg(tmp.path().join("part2"))
        .arg("--out")
        .arg(&merged)
        .arg(export("bmf", &bmf))
        .assert()
        .success();
    assert_eq!(svgs(&merged).len(), 12);
    // The merged figures are the whole corpus's.
    check_run_bmf(&bmf, &merged);
    check_page(&merged, "report.html");
    check_picture(&merged.join("gen_9x9_1000.cost.svg"), &SOLVERS);
}

/// `--export=FORMAT=FILE`, one argument.
fn export(format: &str, file: &Path) -> String {
    format!("--export={format}={}", file.display())
}

/// The BMF document: benchmark -> measure -> {value, lower_value, upper_value}.
fn check_bmf(doc: &serde_json::Value, benchmarks: &[String], measures: &[&str]) {
    let obj = doc.as_object().expect("an object of benchmarks");
    let names: BTreeSet<&String> = obj.keys().collect();
    assert_eq!(names, benchmarks.iter().collect(), "benchmarks");
    for (name, b) in obj {
        let b = b.as_object().expect("an object of measures");
        for m in measures {
            let v = &b[*m];
            assert!(v["value"].is_number(), "{name} {m}: {v}");
            if let Some(lo) = v.get("lower_value") {
                let (lo, hi, x) = (
                    lo.as_f64().unwrap(),
                    v["upper_value"].as_f64().unwrap(),
                    v["value"].as_f64().unwrap(),
                );
                assert!(lo <= x && x <= hi, "{name} {m}: {lo} {x} {hi}");
            }
        }
        for (m, v) in b {
            assert!(measures.contains(&m.as_str()), "{name}: measure {m}");
            for (k, x) in v.as_object().unwrap() {
                assert!(
                    ["value", "lower_value", "upper_value"].contains(&k.as_str()),
                    "{name} {m}: {k}"
                );
                assert!(x.is_number(), "{name} {m} {k}");
            }
        }
    }
}

/// The BMF export of the run in `dir`: its shape, and each benchmark's
/// nodes per puzzle those of `summary.csv`.
fn check_run_bmf(bmf: &Path, dir: &Path) {
    let doc = read_json(bmf);
    check_bmf(&doc, &benchmarks(), &["latency", "throughput", "nodes"]);
    for row in common::read_csv(&dir.join("summary.csv")) {
        let nodes: f64 = row["total_nodes"].parse().unwrap();
        let puzzles: f64 = row["puzzles"].parse().unwrap();
        let b = &doc[format!("{}/{}", row["corpus"], row["solver"])];
        assert!((b["nodes"]["value"].as_f64().unwrap() - nodes / puzzles).abs() < 1e-6);
    }
}

/// github-action-benchmark's customSmallerIsBetter: [{name, unit, value, range?, extra?}].
fn check_gab(doc: &serde_json::Value, names: &[String]) {
    let entries = doc.as_array().expect("an array");
    let got: Vec<&str> = entries
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(got, names.iter().map(String::as_str).collect::<Vec<_>>());
    for e in entries {
        assert!(e["unit"].is_string() && e["value"].is_number(), "{e}");
        for (k, v) in e.as_object().unwrap() {
            match k.as_str() {
                "name" | "unit" | "range" | "extra" => assert!(v.is_string(), "{e}"),
                "value" => {}
                other => panic!("unexpected field {other} in {e}"),
            }
        }
    }
}

#[test]
fn exports_of_a_run_have_their_formats_shape() {
    let tmp = tempfile::tempdir().unwrap();
    let corpora = corpora(tmp.path());
    let out = tmp.path().join("run");
    let (bmf, gab) = (tmp.path().join("bmf.json"), tmp.path().join("gab.json"));
    bench(
        &out,
        &corpora,
        &[
            "--no-plots",
            &export("bmf", &bmf),
            &export("github-action-benchmark", &gab),
        ],
    );
    check_run_bmf(&bmf, &out);
    let doc = read_json(&bmf);
    for row in common::read_csv(&out.join("summary.csv")) {
        let b = &doc[format!("{}/{}", row["corpus"], row["solver"])];
        let mean: f64 = row["mean_ns"].parse().unwrap();
        assert!((b["latency"]["value"].as_f64().unwrap() - mean).abs() < 0.01 * mean);
    }
    let names: Vec<String> = benchmarks()
        .iter()
        .flat_map(|b| [format!("{b} latency"), format!("{b} nodes")])
        .collect();
    check_gab(&read_json(&gab), &names);
    common::typed::<Bmf>(&std::fs::read_to_string(&bmf).unwrap());
    common::typed::<Vec<GabEntry>>(&std::fs::read_to_string(&gab).unwrap());

    // An unknown format is refused before the run.
    dlxbench()
        .args(["bench", "-q", "--export", "csv=x.csv"])
        .arg(&corpora[1])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "unknown export format `csv` (expected bmf or github-action-benchmark)",
        ));
}

#[test]
fn compare_and_ab_write_their_page_and_exports() {
    let tmp = tempfile::tempdir().unwrap();
    let corpora = corpora(tmp.path());
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    bench(&a, &corpora, &["--no-plots"]);
    bench(&b, &corpora, &["--no-plots"]);
    let html = tmp.path().join("compare.html");
    let bmf = tmp.path().join("compare.bmf.json");
    dlxbench()
        .args(["compare", "--metric", "nodes"])
        .arg(&a)
        .arg(&b)
        .arg("--html")
        .arg(&html)
        .arg(export("bmf", &bmf))
        .assert()
        .success();
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(
        page.matches("<svg").count(),
        6,
        "one chart per corpus x solver"
    );
    assert!(!page.contains("https://") && !page.contains("<script"));
    assert!(page.contains("threshold 1 ± 5%"), "the threshold band");
    assert!(page.contains("geometric mean"));
    let benchmarks = benchmarks();
    check_bmf(&read_json(&bmf), &benchmarks, &["ratio"]);
    // Each chart parses and renders.
    for svg in page.split("<svg").skip(1) {
        let svg = format!("<svg{}", &svg[..svg.find("</svg>").unwrap() + 6]);
        roxmltree::Document::parse(&svg).unwrap();
        assert!(ink(&svg) > 0.002);
    }

    let html = tmp.path().join("ab.html");
    let gab = tmp.path().join("ab.json");
    dlxbench()
        .args(["ab", "dlx", "dlx", "-q"])
        .arg(&corpora[1])
        .assert()
        .code(2);
    let status = dlxbench()
        .args(["ab", "singles", "dlx", "-q", "--max-time", "2s"])
        .args(&corpora)
        .arg("--html")
        .arg(&html)
        .arg(export("github-action-benchmark", &gab))
        .output()
        .unwrap()
        .status;
    assert!(matches!(status.code(), Some(0 | 1)), "{status}");
    let page = std::fs::read_to_string(&html).unwrap();
    // Over all, and per corpus.
    assert_eq!(page.matches("<svg").count(), 3);
    assert!(page.contains("dlx / singles") && page.contains("Node counts differ"));
    check_gab(
        &read_json(&gab),
        &["all", "gen_9x9_1000", "small"].map(|c| format!("dlx-vs-singles/{c} ratio")),
    );
}

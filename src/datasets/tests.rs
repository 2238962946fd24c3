use std::fs;
use std::path::Path;
use std::process::Command;

use super::*;

fn fake(sha256: &'static str) -> Corpus {
    Corpus {
        sha256,
        ..CATALOGUE[0]
    }
}

// SHA-256 of "hello\n".
const HELLO: &str = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";

#[test]
fn catalogue_is_consistent() {
    for (i, c) in CATALOGUE.iter().enumerate() {
        assert_eq!(c.file, format!("{}.txt", c.name));
        assert_eq!(c.sha256.len(), 64, "{}", c.name);
        assert!(c
            .sha256
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        if let Some(s) = c.solutions {
            assert_eq!(
                s.none + s.unique + s.multiple + s.undecided,
                c.puzzles,
                "{}",
                c.name
            );
        }
        assert!(CATALOGUE[..i]
            .iter()
            .all(|d| d.name != c.name && d.sha256 != c.sha256));
        assert_eq!(by_name(c.name), Some(c));
        assert_eq!(by_name(c.file), Some(c));
    }
    assert!(by_name("nope").is_none());
    assert_eq!(CATALOGUE.len(), 30);
}

#[test]
fn catalogue_matches_the_mirror_when_present() {
    let mirror = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets/SHA256SUMS");
    let Ok(sums) = fs::read_to_string(mirror) else {
        return; // no mirror on this machine
    };
    let mut listed = 0;
    for line in sums.lines() {
        let (sum, file) = line.split_once("  ").unwrap();
        let c = by_name(file).unwrap_or_else(|| panic!("{file} not in the catalogue"));
        assert_eq!(c.sha256, sum, "{file}");
        listed += 1;
    }
    assert_eq!(listed, CATALOGUE.len());
}

#[test]
fn sha256_of_known_input() {
    assert_eq!(sha256_hex(b"hello\n"), HELLO);
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
}

#[test]
fn install_verifies_before_renaming() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = fake(HELLO);
    let dest = path_in(&corpus, dir.path());
    // A bad copy is rejected and nothing is left behind.
    let e = install_bytes(&corpus, b"hullo\n", dir.path()).unwrap_err();
    assert!(matches!(e, DatasetError::ChecksumMismatch { .. }), "{e}");
    assert!(fs::read_dir(dir.path()).unwrap().next().is_none());
    // A good one is installed, then found up to date.
    assert_eq!(
        install_bytes(&corpus, b"hello\n", dir.path()).unwrap(),
        Fetched::Installed { replaced: false }
    );
    assert_eq!(presence(&corpus, dir.path()).unwrap(), Presence::Verified);
    assert_eq!(
        install_bytes(&corpus, b"junk", dir.path()).unwrap(),
        Fetched::UpToDate
    );
    // A corrupted file is reported, survives a bad fetch, and is
    // replaced by a good one.
    fs::write(&dest, b"corrupt").unwrap();
    assert_eq!(
        presence(&corpus, dir.path()).unwrap(),
        Presence::BadChecksum
    );
    assert!(install_bytes(&corpus, b"junk", dir.path()).is_err());
    assert_eq!(fs::read(&dest).unwrap(), b"corrupt");
    assert_eq!(
        install_bytes(&corpus, b"hello\n", dir.path()).unwrap(),
        Fetched::Installed { replaced: true }
    );
    assert_eq!(fs::read(&dest).unwrap(), b"hello\n");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn install_from_a_mirror_directory() {
    let from = tempfile::tempdir().unwrap();
    let to = tempfile::tempdir().unwrap();
    let corpus = fake(HELLO);
    let e = install_from_dir(&corpus, from.path(), to.path()).unwrap_err();
    assert!(matches!(e, DatasetError::Io { .. }), "{e}");
    // As `main` prints it: the operating system's error once.
    let cause = fs::File::open(path_in(&corpus, from.path()))
        .unwrap_err()
        .to_string();
    let full = format!("{:#}", anyhow::Error::new(e));
    assert_eq!(full.matches(&cause).count(), 1, "{full}");
    fs::write(path_in(&corpus, from.path()), b"hello\n").unwrap();
    assert_eq!(
        install_from_dir(&corpus, from.path(), to.path()).unwrap(),
        Fetched::Installed { replaced: false }
    );
    assert_eq!(
        install_from_dir(&corpus, from.path(), to.path()).unwrap(),
        Fetched::UpToDate
    );
    fs::write(path_in(&corpus, from.path()), b"changed\n").unwrap();
    fs::write(path_in(&corpus, to.path()), b"bad").unwrap();
    assert!(install_from_dir(&corpus, from.path(), to.path()).is_err());
    assert_eq!(fs::read(path_in(&corpus, to.path())).unwrap(), b"bad");
}

#[test]
fn no_download_location_is_a_clear_error() {
    let c = by_name("acs_general_9x9_2100").unwrap();
    let e = Downloader::new(Path::new("unused"))
        .download(c, Path::new("unused"))
        .unwrap_err();
    assert!(matches!(e, DatasetError::NoDownload { .. }), "{e}");
    assert!(e.to_string().contains("no public source: ask"), "{e}");
    assert!(e.to_string().contains("--from DIR"), "{e}");
}

/// A corpus served from a local file through curl's `file://` support.
fn served(dir: &Path, raw: &[u8], zip_member: Option<&'static str>, sha256: &str) -> Corpus {
    let file = dir.join("raw.txt");
    fs::write(&file, raw).unwrap();
    let mut path = file.clone();
    if let Some(member) = zip_member {
        // Build `data/<member>` inside an archive with the `zip` program.
        let data = dir.join("data");
        fs::create_dir_all(&data).unwrap();
        fs::rename(&file, dir.join(member)).unwrap();
        path = dir.join("data.zip");
        let ok = Command::new("zip")
            .current_dir(dir)
            .args(["-q", "data.zip", member])
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok, "zip failed");
    }
    let url: &'static str = Box::leak(format!("file://{}", path.display()).into_boxed_str());
    public(
        sha256,
        vec![Download {
            url,
            zip_member,
            layout: Layout::Lines,
        }],
    )
}

/// A corpus with checksum `sha256` downloaded from `parts`.
fn public(sha256: &str, parts: Vec<Download>) -> Corpus {
    Corpus {
        sha256: Box::leak(sha256.to_string().into_boxed_str()),
        origin: Origin::Public {
            parts: Box::leak(parts.into_boxed_slice()),
            verified: false,
        },
        ..CATALOGUE[0]
    }
}

fn have(program: &str) -> bool {
    Command::new(program).arg("-v").output().is_ok()
}

#[test]
fn download_normalises_and_verifies() {
    if !have("curl") {
        return;
    }
    let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let raw = format!("# a header\r\n{}\r\n", p.replace('.', "0"));
    let good = sha256_hex(format!("{p}\n").as_bytes());
    let src = tempfile::tempdir().unwrap();
    let dest = tempfile::tempdir().unwrap();
    let corpus = served(src.path(), raw.as_bytes(), None, &good);
    let mut downloader = Downloader::new(dest.path());
    assert_eq!(
        downloader.download(&corpus, dest.path()).unwrap(),
        Fetched::Installed { replaced: false }
    );
    drop(downloader);
    let installed = fs::read_to_string(path_in(&corpus, dest.path())).unwrap();
    assert_eq!(installed, format!("{p}\n"));
    assert_eq!(
        fs::read_dir(dest.path()).unwrap().count(),
        1,
        "temp files left"
    );
    // A download that does not match is rejected.
    fs::remove_file(path_in(&corpus, dest.path())).unwrap();
    let bad = Corpus {
        sha256: HELLO,
        ..corpus
    };
    let e = Downloader::new(dest.path())
        .download(&bad, dest.path())
        .unwrap_err();
    assert!(matches!(e, DatasetError::ChecksumMismatch { .. }), "{e}");
    // An unreachable URL says what to do.
    let missing = public(
        &good,
        vec![Download {
            url: "file:///no/such/file",
            zip_member: None,
            layout: Layout::Lines,
        }],
    );
    let e = Downloader::new(dest.path())
        .download(&missing, dest.path())
        .unwrap_err();
    assert!(e.to_string().contains("--from DIR"), "{e}");
    assert_eq!(fs::read_dir(dest.path()).unwrap().count(), 0);
}

#[test]
fn download_extracts_a_zip_member() {
    if !(have("curl") && have("zip") && have("unzip")) {
        return;
    }
    let p = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
    let raw = format!("# tdoku-style header\n{p}\n");
    let sha = sha256_hex(format!("{p}\n").as_bytes());
    let src = tempfile::tempdir().unwrap();
    let dest = tempfile::tempdir().unwrap();
    let corpus = served(src.path(), raw.as_bytes(), Some("data/puzzles"), &sha);
    let mut downloader = Downloader::new(dest.path());
    downloader.download(&corpus, dest.path()).unwrap();
    let installed = fs::read_to_string(path_in(&corpus, dest.path())).unwrap();
    assert_eq!(installed, format!("{p}\n"));
}

#[test]
fn normalise_lines_and_blocks() {
    let p1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let p2 = p1.replace('.', "0");
    let text = format!("# header\r\n{p1}  # rated 9.9\r\n\r\n{p2};x\nnot a puzzle\n");
    assert_eq!(
        normalise(text.as_bytes(), Layout::Lines),
        format!("{p1}\n{p1}\n").as_bytes()
    );
    let mut blocks = String::from("Grid 01\n");
    for row in p2.as_bytes().chunks(9) {
        blocks.push_str(std::str::from_utf8(row).unwrap());
        blocks.push_str("\r\n");
    }
    blocks.push_str("========\n");
    let twice = format!("{blocks}{blocks}");
    assert_eq!(
        normalise(twice.as_bytes(), Layout::Blocks),
        format!("{p1}\n{p1}\n").as_bytes()
    );
}

#[test]
fn default_corpus_is_nine_by_nine_lines() {
    let text = std::str::from_utf8(DEFAULT_CORPUS).unwrap();
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("# dlxbench generate "));
    let puzzles: Vec<&str> = lines.collect();
    assert_eq!(puzzles.len(), 1000);
    assert!(puzzles.iter().all(|l| l.len() == 81));
}

#[test]
fn python_random_stream_is_reproduced() {
    use super::pyrandom::PyRandom;
    // Reference values printed by CPython 3.11's `random.Random(seed)`.
    let mut r = PyRandom::new(1);
    let words: Vec<u32> = (0..3).map(|_| r.next_u32()).collect();
    assert_eq!(words, [577_090_037, 2_444_712_010, 3_639_700_191]);
    let mut r = PyRandom::new(0);
    assert_eq!([r.next_u32(), r.next_u32()], [3_626_764_237, 1_654_615_998]);
    // r.shuffle(list(range(10))); r.choice("abcdefg")
    let mut r = PyRandom::new(1);
    let mut items: Vec<u32> = (0..10).collect();
    r.shuffle(&mut items);
    assert_eq!(items, [6, 8, 9, 7, 5, 3, 0, 4, 1, 2]);
    assert_eq!(*r.choice(b"abcdefg"), b'g');
    // sample(range(n), k) by the pool method (n small) and the set method.
    assert_eq!(
        PyRandom::new(3).sample(50, 10),
        [15, 37, 34, 8, 23, 38, 30, 40, 48, 4]
    );
    assert_eq!(
        PyRandom::new(3).sample(100, 10),
        [30, 75, 69, 16, 47, 77, 60, 80, 74, 8]
    );
    assert_eq!(PyRandom::new(3).sample(1000, 4), [243, 606, 557, 133]);
    // The first lines of the 17-clue list that derived_nosolution_17clue_2000 uses.
    assert_eq!(
        PyRandom::new(2).sample(49_158, 2000)[..5],
        [3706, 6002, 5562, 23662, 11081]
    );
}

/// A derived corpus of the catalogue with its source and construction.
fn derived(name: &str) -> (&'static Corpus, &'static str, Derivation) {
    let corpus = by_name(name).unwrap();
    match corpus.origin {
        Origin::Derived { from, how } => (corpus, from, how),
        _ => panic!("{name} is not derived"),
    }
}

/// Clues of a 9x9 line that repeat a digit in a row, column or box.
fn clashes(line: &[u8]) -> bool {
    (0..81).any(|a| {
        (0..a).any(|b| {
            let same_box = a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3;
            line[a] != b'.' && line[a] == line[b] && (a / 9 == b / 9 || a % 9 == b % 9 || same_box)
        })
    })
}

#[test]
fn nosolution_derivation_adds_one_contradicting_clue() {
    // Two puzzles of top1465 (its first and second lines) and their solutions.
    let source = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n\
                  7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........\n";
    let solutions = [
        "468931527751624839392578461134756298289413675675289314846192753513867942927345186",
        "728946315934251678516738249147593826369482157852167493293615784481379562675824931",
    ];
    let (corpus, _, _) = derived("derived_nosolution_top1465");
    let out = derive(corpus, source.as_bytes()).unwrap();
    // The catalogue's file starts with these two lines (seed 1).
    assert_eq!(
        String::from_utf8(out.clone()).unwrap(),
        "4...3.......6..8..........1...85..9..8....6...7.2........1.27..5.3....4.9........\n\
         7.8...3.....2.1...5....7....4.....263...8.......1...9..9.6....4....7.5...........\n"
    );
    for ((line, before), solution) in out
        .split(|&b| b == b'\n')
        .zip(source.lines())
        .zip(solutions)
    {
        let changed: Vec<usize> = (0..81)
            .filter(|&i| line[i] != before.as_bytes()[i])
            .collect();
        assert_eq!(changed.len(), 1);
        let cell = changed[0];
        assert_eq!(before.as_bytes()[cell], b'.');
        assert_ne!(line[cell], solution.as_bytes()[cell]);
        assert!(!clashes(line));
    }
    // The same input gives the same output.
    assert_eq!(derive(corpus, source.as_bytes()).unwrap(), out);
    // Sampling more puzzles than the source has is an error, as is a
    // source line that is not a puzzle.
    let (corpus17, _, _) = derived("derived_nosolution_17clue_2000");
    let e = derive(corpus17, source.as_bytes()).unwrap_err();
    assert!(
        e.to_string().contains("2000 to sample from 2 puzzles"),
        "{e}"
    );
    let e = derive(corpus, b"12345\n").unwrap_err();
    assert!(
        e.to_string().contains("line 1: not a 9x9 puzzle line"),
        "{e}"
    );
}

#[test]
fn edits_derivation_applies_the_recorded_changes() {
    let (corpus, from, how) = derived("derived_changedclue_top1465");
    assert_eq!(from, "magictour_top1465");
    let Derivation::Edits { edits } = how else {
        panic!("{how:?}")
    };
    let first = edits.lines().find(|l| !l.starts_with('#')).unwrap();
    assert_eq!(first, "1166 63 3");
    // Every line of the source is used once.
    let mut used: Vec<usize> = edits
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    used.sort_unstable();
    assert_eq!(used, (0..1465).collect::<Vec<_>>());
    // Too short a source is reported, not indexed out of bounds.
    let e = derive(corpus, format!("{}\n", ".".repeat(81)).as_bytes()).unwrap_err();
    assert!(e.to_string().contains("edit 1: `1166 63 3`"), "{e}");
    // A corpus that is not derived cannot be derived.
    assert!(derive(&CATALOGUE[0], b"").is_err());
}

/// The corpus mirror: `$DLXBENCH_MIRROR`, or `../shared/datasets`.
fn mirror() -> std::path::PathBuf {
    std::env::var_os("DLXBENCH_MIRROR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets"),
        std::path::PathBuf::from,
    )
}

#[test]
#[ignore = "needs the corpus mirror ../shared/datasets"]
fn derived_corpora_rebuild_from_the_mirror_byte_identical() {
    for c in CATALOGUE {
        let Origin::Derived { from, .. } = c.origin else {
            continue;
        };
        let source = fs::read(mirror().join(format!("{from}.txt"))).unwrap();
        assert_eq!(sha256_hex(&source), by_name(from).unwrap().sha256);
        let rebuilt = derive(c, &source).unwrap();
        assert_eq!(sha256_hex(&rebuilt), c.sha256, "{}", c.name);
    }
}

#[test]
fn every_corpus_has_an_origin_that_names_its_way() {
    let mut labels = std::collections::BTreeMap::new();
    for c in CATALOGUE {
        *labels.entry(c.origin.label()).or_insert(0) += 1;
        match c.origin {
            Origin::Public { parts, .. } => {
                assert!(!parts.is_empty(), "{}", c.name);
                for p in parts {
                    // Pinned to a commit: raw.githubusercontent.com/OWNER/REPO/SHA/PATH.
                    let rest = p
                        .url
                        .strip_prefix("https://raw.githubusercontent.com/")
                        .unwrap_or_else(|| panic!("{}: {}", c.name, p.url));
                    let commit = rest.split('/').nth(2).unwrap();
                    assert!(
                        commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
                        "{}",
                        p.url
                    );
                }
            }
            Origin::Derived { from, .. } => {
                let source = by_name(from).unwrap();
                assert!(matches!(source.origin, Origin::Public { .. }), "{}", c.name);
            }
            Origin::MirrorOnly => {}
        }
    }
    assert_eq!(labels["download"], 24);
    assert_eq!(labels["mirror-only"], 3);
    assert_eq!(labels["derived:magictour_top1465"], 2);
    assert_eq!(labels["derived:sudoku17_all_49158"], 1);
}

#[test]
fn download_concatenates_parts_in_other_layouts() {
    if !have("curl") {
        return;
    }
    let src = tempfile::tempdir().unwrap();
    let dest = tempfile::tempdir().unwrap();
    let url = |name: &str, text: &str| -> &'static str {
        let path = src.path().join(name);
        fs::write(&path, text).unwrap();
        Box::leak(format!("file://{}", path.display()).into_boxed_str())
    };
    // A 4x4 grid in numbers over two lines (commas and tabs), one as cells
    // with a CRLF line end and a trailer, and a 2-cell "numeric" puzzle.
    let parts = vec![
        Download {
            url: url("a.txt", "1,0,3,0,0,0,0,4\n0,10,0,0,16,0,0,0\n"),
            zip_member: None,
            layout: Layout::NumberCells(16),
        },
        Download {
            url: url("b.txt", "1.A.....G..4...B\r\nTotal: 1\r\n"),
            zip_member: None,
            layout: Layout::Cells(16),
        },
        Download {
            url: url("c.txt", "# header\n12\t0\n"),
            zip_member: None,
            layout: Layout::Numbers(2),
        },
    ];
    let want = "1.3....4.A..G...\n1.A.....G..4...B\n12 0\n";
    let corpus = public(&sha256_hex(want.as_bytes()), parts);
    assert_eq!(
        Downloader::new(dest.path())
            .download(&corpus, dest.path())
            .unwrap(),
        Fetched::Installed { replaced: false }
    );
    assert_eq!(
        fs::read_to_string(path_in(&corpus, dest.path())).unwrap(),
        want
    );
}

/// Every public corpus downloaded through the catalogue's own URLs, layouts
/// and parts, from a local copy of the files laid out as
/// `raw.githubusercontent.com` serves them (`$DLXBENCH_RAW_MIRROR/OWNER/REPO/COMMIT/PATH`,
/// made from clones of the repositories at those commits), so that no
/// external host is contacted. How the sources were checked for the docs.
#[test]
#[ignore = "needs $DLXBENCH_RAW_MIRROR, a local copy of the catalogue's source files"]
fn public_sources_normalise_to_the_catalogue_checksums() {
    let Some(raw) = std::env::var_os("DLXBENCH_RAW_MIRROR") else {
        eprintln!("DLXBENCH_RAW_MIRROR not set: nothing checked");
        return;
    };
    if !have("curl") {
        return;
    }
    let raw = Path::new(&raw).canonicalize().unwrap();
    let dest = tempfile::tempdir().unwrap();
    let mut downloader = Downloader::new(dest.path());
    let mut checked = 0;
    for c in CATALOGUE {
        let Origin::Public { parts, verified } = c.origin else {
            continue;
        };
        assert!(verified, "{}", c.name);
        let local: Vec<Download> = parts
            .iter()
            .map(|p| {
                let rest = p
                    .url
                    .strip_prefix("https://raw.githubusercontent.com/")
                    .unwrap();
                let url = format!("file://{}/{rest}", raw.display());
                Download {
                    url: Box::leak(url.into_boxed_str()),
                    ..*p
                }
            })
            .collect();
        let corpus = Corpus {
            origin: Origin::Public {
                parts: Box::leak(local.into_boxed_slice()),
                verified,
            },
            ..*c
        };
        let fetched = downloader.download(&corpus, dest.path());
        assert_eq!(
            fetched.unwrap_or_else(|e| panic!("{}: {e}", c.name)),
            Fetched::Installed { replaced: false },
            "{}",
            c.name
        );
        checked += 1;
    }
    assert_eq!(checked, 24);
}

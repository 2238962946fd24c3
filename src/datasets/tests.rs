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
    let c = by_name("top870").unwrap();
    let e = Downloader::new(Path::new("unused"))
        .download(c, Path::new("unused"))
        .unwrap_err();
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
    Corpus {
        sha256: Box::leak(sha256.to_string().into_boxed_str()),
        download: Some(Download {
            url,
            zip_member,
            layout: Layout::Lines,
        }),
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
    let missing = Corpus {
        download: Some(Download {
            url: "file:///no/such/file",
            ..corpus.download.unwrap()
        }),
        ..corpus
    };
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

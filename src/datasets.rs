//! The catalogue of known public Sudoku corpora, and fetching them with
//! SHA-256 verification.
//!
//! The project does not ship copies of third-party corpora. [`CATALOGUE`]
//! names each known corpus with its size, kind, provenance, the SHA-256 of
//! its normalised file and, where one exists, a public download location.
//! [`install_from_dir`] copies a corpus from a local mirror and
//! [`Downloader::download`] fetches it from its public source; both write a temporary
//! file next to the destination, verify its checksum, and only then rename
//! it into place, so a bad download never replaces a good file.
//!
//! Facts (counts, solution counts, checksums, provenance) are from the
//! corpus mirror's README and `SHA256SUMS` (`../shared/datasets` in the
//! project's CI), which record the repository and commit each file came from.
//!
//! The generated corpus embedded in the library, [`DEFAULT_CORPUS`], is
//! what `bench` runs when it is given no corpus and none has been fetched.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::atomic::AtomicFile;

/// Name of the embedded default corpus (its file stem in
/// `datasets/generated/`).
pub const DEFAULT_CORPUS_NAME: &str = "gen_9x9_1000";

/// The embedded default corpus: 1,000 generated 9x9 puzzles with unique
/// solutions, one per line, after one `#` comment line naming the command
/// that made it.
pub const DEFAULT_CORPUS: &[u8] = include_bytes!("../datasets/generated/gen_9x9_1000.txt");

/// What a corpus is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Proper puzzles (one solution each) that are easy or medium.
    Easy,
    /// Proper puzzles collected as hard ones.
    Hard,
    /// Proper puzzles with 17 clues, the fewest a proper 9x9 puzzle can have.
    AllSeventeenClue,
    /// Proper puzzles whose difficulty is not documented.
    Unique,
    /// Puzzles with two or more solutions.
    MultiSolution,
    /// Puzzles with no solution.
    Unsolvable,
    /// A mix of puzzles with no, one and several solutions.
    Mixed,
    /// Solution counts not checked (very large or non-standard grids).
    Unchecked,
}

impl Kind {
    /// Short name for tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Easy => "easy",
            Kind::Hard => "hard",
            Kind::AllSeventeenClue => "17-clue",
            Kind::Unique => "unique",
            Kind::MultiSolution => "multi-solution",
            Kind::Unsolvable => "unsolvable",
            Kind::Mixed => "mixed",
            Kind::Unchecked => "unchecked",
        }
    }
}

/// How the puzzles of a corpus split by solution count (as counted with a
/// limit of 2 by an independent solver for the mirror's README).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolutionCounts {
    /// Puzzles with no solution.
    pub none: usize,
    /// Puzzles with exactly one solution.
    pub unique: usize,
    /// Puzzles with two or more.
    pub multiple: usize,
    /// Puzzles the counter left undecided at its node limit.
    pub undecided: usize,
}

const fn sols(
    none: usize,
    unique: usize,
    multiple: usize,
    undecided: usize,
) -> Option<SolutionCounts> {
    Some(SolutionCounts {
        none,
        unique,
        multiple,
        undecided,
    })
}

/// How a downloaded file is laid out, and so how it is normalised into one
/// 81-character line per puzzle (`1-9`, `.` for a blank, LF line ends).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One puzzle per line, possibly followed by other fields; `#` lines and
    /// lines without an 81-character puzzle are skipped, `0` means blank.
    Lines,
    /// Nine lines of nine digits per puzzle (`0` blank), with separator or
    /// title lines between puzzles, as in Norvig's `easy50.txt`.
    Blocks,
}

/// A public download location of a corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Download {
    /// The URL.
    pub url: &'static str,
    /// The member to extract when the URL is a zip archive (extracted with
    /// the `unzip` program).
    pub zip_member: Option<&'static str>,
    /// The file's layout.
    pub layout: Layout,
}

/// A known corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Corpus {
    /// Name: the file stem.
    pub name: &'static str,
    /// File name in the datasets directory.
    pub file: &'static str,
    /// Grid size, e.g. `9x9`, or `hanidoku-61`.
    pub grid: &'static str,
    /// Number of puzzles (lines).
    pub puzzles: usize,
    /// What it is.
    pub kind: Kind,
    /// Solution counts, where they were checked.
    pub solutions: Option<SolutionCounts>,
    /// Original source and author, and where the mirrored copy came from.
    pub source: &'static str,
    /// SHA-256 of the normalised file, lower-case hex.
    pub sha256: &'static str,
    /// Where users can download it, if anywhere.
    pub download: Option<Download>,
}

const TDOKU_ZIP: &str = "https://github.com/t-dillon/tdoku/raw/master/data.zip";

const fn lines(url: &'static str) -> Option<Download> {
    Some(Download {
        url,
        zip_member: None,
        layout: Layout::Lines,
    })
}

const fn tdoku(member: &'static str) -> Option<Download> {
    Some(Download {
        url: TDOKU_ZIP,
        zip_member: Some(member),
        layout: Layout::Lines,
    })
}

/// Every known corpus, in the order `datasets list` shows them.
pub const CATALOGUE: &[Corpus] = &[
    Corpus {
        name: "magictour_top1465",
        file: "magictour_top1465.txt",
        grid: "9x9",
        puzzles: 1465,
        kind: Kind::Hard,
        solutions: sols(0, 1465, 0, 0),
        source: "magictour top1465, Guenter Stertenbrink (copy: weiz0823/dlx data/sudoku/top1465.txt)",
        sha256: "21d82f285082dc0db051f407cf23103af76bf077b368b04bd9e619f2bf6d2c1b",
        download: lines("http://magictour.free.fr/top1465"),
    },
    Corpus {
        name: "sudoku17_all_49158",
        file: "sudoku17_all_49158.txt",
        grid: "9x9",
        puzzles: 49158,
        kind: Kind::AllSeventeenClue,
        solutions: sols(0, 49158, 0, 0),
        source: "all 17-clue puzzles: Gordon Royle's list (UWA) completed to 49,158 by the Enjoy Sudoku \
                 Players Forum; tdoku data set puzzles2_17_clue",
        sha256: "0041377124d2982cbfdabfbf3f9ceab7649c975ade3ff731cdeaf799b7ad1b87",
        download: tdoku("data/puzzles2_17_clue"),
    },
    Corpus {
        name: "sudoku17_royle_49151",
        file: "sudoku17_royle_49151.txt",
        grid: "9x9",
        puzzles: 49151,
        kind: Kind::AllSeventeenClue,
        solutions: sols(0, 49151, 0, 0),
        source: "Gordon Royle's 17-clue list, UWA (copy: weiz0823/dlx data/sudoku/sudoku17.txt)",
        sha256: "6d65f4c12217d4d4c56a0138289f1a6706c76f8751381a9f41421b5dea739276",
        download: None,
    },
    Corpus {
        name: "tdoku_puzzles5_forum_hardest_1905_11plus",
        file: "tdoku_puzzles5_forum_hardest_1905_11plus.txt",
        grid: "9x9",
        puzzles: 48766,
        kind: Kind::Hard,
        solutions: sols(0, 48766, 0, 0),
        source: "Enjoy Sudoku forum 'hardest' list (2019-05), Sudoku Explainer rating >= 11; tdoku data set \
                 puzzles5",
        sha256: "56236eaf6c7445ea244db3423ec44a102349dbedf6e457af0fcdd3d07cf39996",
        download: tdoku("data/puzzles5_forum_hardest_1905_11+"),
    },
    Corpus {
        name: "tdoku_puzzles6_forum_hardest_1106",
        file: "tdoku_puzzles6_forum_hardest_1106.txt",
        grid: "9x9",
        puzzles: 375,
        kind: Kind::Hard,
        solutions: sols(0, 375, 0, 0),
        source: "Enjoy Sudoku forum HardestDatabase110626 (2011-06); tdoku data set puzzles6",
        sha256: "fb88ac7cfcc462154a41c62262192ccd40255c39db9bd827e5199f1e1660cd17",
        download: tdoku("data/puzzles6_forum_hardest_1106"),
    },
    Corpus {
        name: "tdoku_puzzles7_serg_benchmark",
        file: "tdoku_puzzles7_serg_benchmark.txt",
        grid: "9x9",
        puzzles: 10000,
        kind: Kind::MultiSolution,
        solutions: sols(0, 0, 10000, 0),
        source: "Serg's benchmark (sites.google.com/site/sergsudoku), puzzles with 2+ solutions; tdoku data \
                 set puzzles7",
        sha256: "c9f3cbaf03488089a8fe9951b08477975594167e59d18218b9279619d945dee7",
        download: tdoku("data/puzzles7_serg_benchmark"),
    },
    Corpus {
        name: "euler96_norvig_easy50",
        file: "euler96_norvig_easy50.txt",
        grid: "9x9",
        puzzles: 50,
        kind: Kind::Easy,
        solutions: sols(0, 50, 0, 0),
        source: "Peter Norvig's easy50 = Project Euler problem 96 grids (one puzzle appears twice)",
        sha256: "299c9dc207d36ff7cf6f63430bc77b9b8f8818d0e17bcbe29a4643fe0d19e5f7",
        download: Some(Download {
            url: "https://norvig.com/easy50.txt",
            zip_member: None,
            layout: Layout::Blocks,
        }),
    },
    Corpus {
        name: "norvig_top95",
        file: "norvig_top95.txt",
        grid: "9x9",
        puzzles: 95,
        kind: Kind::Hard,
        solutions: sols(0, 95, 0, 0),
        source: "Peter Norvig's top95, originally magictour top95",
        sha256: "b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36",
        download: lines("https://norvig.com/top95.txt"),
    },
    Corpus {
        name: "norvig_hardest11",
        file: "norvig_hardest11.txt",
        grid: "9x9",
        puzzles: 11,
        kind: Kind::Hard,
        solutions: sols(0, 11, 0, 0),
        source: "Peter Norvig's 'hardest' list",
        sha256: "398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f",
        download: lines("https://norvig.com/hardest.txt"),
    },
    Corpus {
        name: "top2365",
        file: "top2365.txt",
        grid: "9x9",
        puzzles: 2365,
        kind: Kind::Hard,
        solutions: sols(0, 2364, 1, 0),
        source: "magictour top2365 (as distributed with the VU Knowledge Representation SAT-Sudoku \
                 assignment; copy: ManWithAJawharp/sat_solver)",
        sha256: "235397f2b4305a62608d368b1afcba145df5b04ec4c5f2632e6602350d95c6fe",
        download: None,
    },
    Corpus {
        name: "top870",
        file: "top870.txt",
        grid: "9x9",
        puzzles: 870,
        kind: Kind::Hard,
        solutions: sols(0, 870, 0, 0),
        source: "top870, VU Knowledge Representation assignment (merge of several hard lists)",
        sha256: "7462ec6d8222013a153e1f6edd97bb8a9ea166fac21f3705c306392a94da9512",
        download: None,
    },
    Corpus {
        name: "top100",
        file: "top100.txt",
        grid: "9x9",
        puzzles: 100,
        kind: Kind::Hard,
        solutions: sols(0, 100, 0, 0),
        source: "top100, VU Knowledge Representation assignment",
        sha256: "c383cc5098bd6c824b596ee6936f9895e4b20fc308bdf2b37caba3d066cd2d9a",
        download: None,
    },
    Corpus {
        name: "top91",
        file: "top91.txt",
        grid: "9x9",
        puzzles: 91,
        kind: Kind::Hard,
        solutions: sols(0, 91, 0, 0),
        source: "top91, VU Knowledge Representation assignment",
        sha256: "91f06068215284bf8f44f4881069698dac627e862063c29672aeea038d9ab73f",
        download: None,
    },
    Corpus {
        name: "damnhard35",
        file: "damnhard35.txt",
        grid: "9x9",
        puzzles: 35,
        kind: Kind::Hard,
        solutions: sols(0, 35, 0, 0),
        source: "damnhard list, VU Knowledge Representation assignment",
        sha256: "46c4c953dd950633cabbc3af8d657706542b3eba671769be239c5a4c21b0dd1a",
        download: None,
    },
    Corpus {
        name: "subig20_17445",
        file: "subig20_17445.txt",
        grid: "9x9",
        puzzles: 17445,
        kind: Kind::Unique,
        solutions: sols(0, 17445, 0, 0),
        source: "subig20, VU Knowledge Representation assignment (origin not documented)",
        sha256: "e4723608257aa8da9df17b559078ece739a8de68021c84a0e6bc5da162be0862",
        download: None,
    },
    Corpus {
        name: "kr_1011_sudokus",
        file: "kr_1011_sudokus.txt",
        grid: "9x9",
        puzzles: 1011,
        kind: Kind::Easy,
        solutions: sols(0, 1011, 0, 0),
        source: "'1000 sudokus', VU Knowledge Representation assignment (easy and medium)",
        sha256: "c5c5c4ccf62772937aab8d6bc77c3b557c2cf569b72277961e8436e768d1d907",
        download: None,
    },
    Corpus {
        name: "plb_hard20",
        file: "plb_hard20.txt",
        grid: "9x9",
        puzzles: 20,
        kind: Kind::Hard,
        solutions: sols(0, 20, 0, 0),
        source: "attractivechaos/plb Sudoku benchmark: 20 famous hard puzzles (Easter Monster, Platinum \
                 Blonde, ...)",
        sha256: "03241a40e2bc29d6ddcf12d2d54066344083a8b5bc48072f4f408d02193722cb",
        download: None,
    },
    Corpus {
        name: "acs_general_9x9_2100",
        file: "acs_general_9x9_2100.txt",
        grid: "9x9",
        puzzles: 2100,
        kind: Kind::Mixed,
        solutions: sols(0, 977, 1123, 0),
        source: "Lloyd & Amos, ACS Sudoku paper, 'general' instances (generator after R. Lewis), 0-100% \
                 filled; huwlloyd-mmu/sudoku_acs",
        sha256: "6bc0e6a995c8ec8346fd9961935ab6218f6a96462b45b5eab6dffbc4f6e98805",
        download: None,
    },
    Corpus {
        name: "acs_general_16x16_2100",
        file: "acs_general_16x16_2100.txt",
        grid: "16x16",
        puzzles: 2100,
        kind: Kind::Mixed,
        solutions: sols(0, 798, 1301, 1),
        source: "Lloyd & Amos, ACS Sudoku paper, 'general' instances (generator after R. Lewis), 0-100% \
                 filled; huwlloyd-mmu/sudoku_acs",
        sha256: "c1c356c5e3faf7f3a1db14427309b91c4bc2454427b0fbd0c330aafd77d5963e",
        download: None,
    },
    Corpus {
        name: "acs_general_25x25_2100",
        file: "acs_general_25x25_2100.txt",
        grid: "25x25",
        puzzles: 2100,
        kind: Kind::Mixed,
        solutions: sols(0, 683, 1150, 267),
        source: "Lloyd & Amos, ACS Sudoku paper, 'general' instances (generator after R. Lewis), 0-100% \
                 filled; huwlloyd-mmu/sudoku_acs",
        sha256: "b938c600655f1f03b0642c1410484efa46ff38c66ed97adb4170db26ef75d6be",
        download: None,
    },
    Corpus {
        name: "kr_16x16_100",
        file: "kr_16x16_100.txt",
        grid: "16x16",
        puzzles: 100,
        kind: Kind::Unique,
        solutions: sols(0, 100, 0, 0),
        source: "16x16 puzzles, VU Knowledge Representation assignment (copy: owhygithub/KR)",
        sha256: "38ce2f30be805dabe161202d57ff3d48e7aba96e96a3f04172bff4e50c6f1ca4",
        download: None,
    },
    Corpus {
        name: "comp3981_16x16_15",
        file: "comp3981_16x16_15.txt",
        grid: "16x16",
        puzzles: 15,
        kind: Kind::MultiSolution,
        solutions: sols(0, 0, 15, 0),
        source: "BCIT COMP3981 course samples (tcgaryau/AISudokuSolver)",
        sha256: "6530f823dd38fcd25f5dcbccc225d142635894e03de2b5c50f8c8dac96d3ce57",
        download: None,
    },
    Corpus {
        name: "comp3981_25x25_14",
        file: "comp3981_25x25_14.txt",
        grid: "25x25",
        puzzles: 14,
        kind: Kind::Mixed,
        solutions: sols(0, 1, 11, 2),
        source: "BCIT COMP3981 course samples (tcgaryau/AISudokuSolver)",
        sha256: "582d798526d39083f473023e11bbf25e29c3019bda5ed3705c243a535e3a085c",
        download: None,
    },
    Corpus {
        name: "comp3981_100x100_5",
        file: "comp3981_100x100_5.txt",
        grid: "100x100",
        puzzles: 5,
        kind: Kind::Unchecked,
        solutions: None,
        source: "BCIT COMP3981 course samples (tcgaryau/AISudokuSolver); numeric format",
        sha256: "ad202262ac9ae3bfb37399537d733a69007e230d241ba04a3035fc6557c5a02a",
        download: None,
    },
    Corpus {
        name: "samples_36x36_2",
        file: "samples_36x36_2.txt",
        grid: "36x36",
        puzzles: 2,
        kind: Kind::Unchecked,
        solutions: None,
        source: "b-nguyen/theory-final-project and VegaMario/QuantumSudokuSolver; numeric format",
        sha256: "7174e3dfdf64466975aba010a87044a3abdf89da5c3665ddd5278c28cd930508",
        download: None,
    },
    Corpus {
        name: "samples_100x100_vegamario_1",
        file: "samples_100x100_vegamario_1.txt",
        grid: "100x100",
        puzzles: 1,
        kind: Kind::Unchecked,
        solutions: None,
        source: "VegaMario/QuantumSudokuSolver (generated); numeric format",
        sha256: "8f7a6fe9050000f1d407f0ee874268a8b13934b8bba7c97db928d7d4288a3d9c",
        download: None,
    },
    Corpus {
        name: "hanidoku_172",
        file: "hanidoku_172.txt",
        grid: "hanidoku-61",
        puzzles: 172,
        kind: Kind::Unique,
        solutions: sols(0, 172, 0, 0),
        source: "Hanidoku (hexagonal, 61 cells) from weiz0823/dlx; not a Sudoku grid (`--kind hanidoku`); solution counts by dlxbench's dlx and backtrack Hanidoku solvers",
        sha256: "b3e58868bdd448cc166bfd8476642c0933bdce939dfe6710003c73bd2d91b911",
        download: None,
    },
    Corpus {
        name: "derived_nosolution_top1465",
        file: "derived_nosolution_top1465.txt",
        grid: "9x9",
        puzzles: 1465,
        kind: Kind::Unsolvable,
        solutions: sols(1465, 0, 0, 0),
        source: "made for dlxbench: each top1465 puzzle plus one clue that contradicts its solution \
                 without repeating a digit in a unit",
        sha256: "bf15e9f8609c498346397e24c8e8b536def114becd1b46db68dbf5a7190d6b97",
        download: None,
    },
    Corpus {
        name: "derived_nosolution_17clue_2000",
        file: "derived_nosolution_17clue_2000.txt",
        grid: "9x9",
        puzzles: 2000,
        kind: Kind::Unsolvable,
        solutions: sols(2000, 0, 0, 0),
        source: "made for dlxbench: the same construction on 2,000 puzzles of the 17-clue list",
        sha256: "23c15d1cae9f122a9dbca4b57404ec775aed420e89a7638afa1813a0bc0ba53a",
        download: None,
    },
    Corpus {
        name: "derived_changedclue_top1465",
        file: "derived_changedclue_top1465.txt",
        grid: "9x9",
        puzzles: 1465,
        kind: Kind::Mixed,
        solutions: sols(164, 23, 1278, 0),
        source: "made for dlxbench: each top1465 puzzle with one clue changed to another digit that \
                 repeats nothing in its units",
        sha256: "2ab85b1341ba34406464650632dc2de3894d550ce6c011bb5822306504441461",
        download: None,
    },
];

/// Looks a corpus up by name (file stem) or file name.
pub fn by_name(name: &str) -> Option<&'static Corpus> {
    CATALOGUE.iter().find(|c| c.name == name || c.file == name)
}

/// The catalogue's names, comma-separated, for messages.
pub fn names() -> String {
    CATALOGUE
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Errors fetching or checking a corpus.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// The file does not have the catalogue's checksum.
    #[error(
        "{path}: SHA-256 is {found}, expected {expected}; the file was not installed \
         (a changed or corrupt copy)"
    )]
    ChecksumMismatch {
        /// The rejected file.
        path: PathBuf,
        /// Its checksum.
        found: String,
        /// The catalogue's checksum.
        expected: String,
    },
    /// The corpus has no known public download location.
    #[error(
        "{name} has no public download location; copy it from a mirror with \
         `dlxbench datasets fetch {name} --from DIR`"
    )]
    NoDownload {
        /// The corpus.
        name: &'static str,
    },
    /// An external program (`curl`, `unzip`) could not run or failed.
    #[error(
        "{what} failed: {detail}; check the internet connection (and that curl and unzip \
         are installed), or copy the corpus from a mirror with `--from DIR`"
    )]
    Download {
        /// What was run.
        what: String,
        /// Its error output or status.
        detail: String,
        /// The URL.
        url: &'static str,
    },
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> DatasetError + '_ {
    move |source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The SHA-256 of `bytes`, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(2 * digest.len());
    for b in digest {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The SHA-256 of the file at `path`, lower-case hex.
pub fn sha256_file(path: &Path) -> Result<String, DatasetError> {
    let mut file = fs::File::open(path).map_err(io_err(path))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf).map_err(io_err(path))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// Whether a corpus is present in a datasets directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// No file.
    Missing,
    /// The file is there and its checksum matches.
    Verified,
    /// The file is there but its checksum does not match.
    BadChecksum,
}

/// The path of `corpus` in `dir`.
pub fn path_in(corpus: &Corpus, dir: &Path) -> PathBuf {
    dir.join(corpus.file)
}

/// Checks whether `corpus` is present in `dir` with the right checksum.
pub fn presence(corpus: &Corpus, dir: &Path) -> Result<Presence, DatasetError> {
    let path = path_in(corpus, dir);
    if !path.exists() {
        return Ok(Presence::Missing);
    }
    Ok(if sha256_file(&path)? == corpus.sha256 {
        Presence::Verified
    } else {
        Presence::BadChecksum
    })
}

/// What fetching one corpus did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fetched {
    /// The file was installed (`replaced`: over a file with a bad checksum).
    Installed {
        /// An existing file with the wrong checksum was replaced.
        replaced: bool,
    },
    /// The file was already present with the right checksum.
    UpToDate,
}

/// Writes `bytes` to a temporary file beside the destination, verifies the
/// checksum, then renames it into place. A mismatch leaves the destination
/// as it was.
pub fn install_bytes(corpus: &Corpus, bytes: &[u8], dir: &Path) -> Result<Fetched, DatasetError> {
    install_with(corpus, dir, |out, hasher| {
        hasher.update(bytes);
        out.write_all(bytes)
    })
}

/// Copies `corpus` from the mirror directory `from` into `dir`, verifying
/// it; a file already in `dir` with the right checksum is left alone.
pub fn install_from_dir(corpus: &Corpus, from: &Path, dir: &Path) -> Result<Fetched, DatasetError> {
    if presence(corpus, dir)? == Presence::Verified {
        return Ok(Fetched::UpToDate);
    }
    let src = path_in(corpus, from);
    let mut input = fs::File::open(&src).map_err(io_err(&src))?;
    install_with(corpus, dir, |out, hasher| {
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = input.read(&mut buf)?;
            if n == 0 {
                return Ok(());
            }
            hasher.update(&buf[..n]);
            out.write_all(&buf[..n])?;
        }
    })
}

fn install_with(
    corpus: &Corpus,
    dir: &Path,
    write: impl FnOnce(&mut AtomicFile, &mut Sha256) -> io::Result<()>,
) -> Result<Fetched, DatasetError> {
    let dest = path_in(corpus, dir);
    let replaced = match presence(corpus, dir)? {
        Presence::Verified => return Ok(Fetched::UpToDate),
        Presence::BadChecksum => true,
        Presence::Missing => false,
    };
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    let mut out = AtomicFile::create(&dest).map_err(io_err(&dest))?;
    let temp = out.temp_path().to_path_buf();
    let mut hasher = Sha256::new();
    write(&mut out, &mut hasher).map_err(io_err(&temp))?;
    out.flush().map_err(io_err(&temp))?;
    let found = hex(&hasher.finalize());
    if found != corpus.sha256 {
        // `out` is dropped: the temporary file goes, `dest` is untouched.
        return Err(DatasetError::ChecksumMismatch {
            path: temp,
            found,
            expected: corpus.sha256.to_string(),
        });
    }
    out.commit().map_err(io_err(&dest))?;
    Ok(Fetched::Installed { replaced })
}

/// Normalises a downloaded 9x9 corpus into one 81-character line per
/// puzzle (`1-9`, `.` for blank, LF), as the catalogue's checksums expect.
pub fn normalise(text: &[u8], layout: Layout) -> Vec<u8> {
    fn cell(b: u8) -> Option<u8> {
        match b {
            b'1'..=b'9' => Some(b),
            b'0' | b'.' => Some(b'.'),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(text.len());
    let lines = text
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .filter(|l| !l.is_empty() && l[0] != b'#');
    match layout {
        Layout::Lines => {
            for line in lines {
                let token = line
                    .split(|b| b.is_ascii_whitespace() || matches!(b, b',' | b';' | b':' | b'|'))
                    .next()
                    .unwrap_or_default();
                if token.len() == 81 && token.iter().all(|&b| cell(b).is_some()) {
                    out.extend(token.iter().filter_map(|&b| cell(b)));
                    out.push(b'\n');
                }
            }
        }
        Layout::Blocks => {
            let mut rows = 0;
            for line in lines {
                if line.len() == 9 && line.iter().all(|&b| cell(b).is_some()) {
                    out.extend(line.iter().filter_map(|&b| cell(b)));
                    rows += 1;
                    if rows == 9 {
                        out.push(b'\n');
                        rows = 0;
                    }
                }
            }
        }
    }
    out
}

/// Downloads URLs with `curl`, keeping each file for the rest of the run so
/// an archive holding several corpora is fetched once.
#[derive(Debug)]
pub struct Downloader {
    dir: PathBuf,
    /// (URL, downloaded file or why the download failed), in order.
    cache: Vec<(&'static str, Result<PathBuf, String>)>,
}

impl Downloader {
    /// A downloader keeping its files in `dir` (removed on drop).
    pub fn new(dir: &Path) -> Self {
        Downloader {
            dir: dir.to_path_buf(),
            cache: Vec::new(),
        }
    }

    /// The downloaded file of `url`, downloading it on first use (a failure
    /// is remembered too, so an unreachable archive is tried once a run).
    fn get(&mut self, url: &'static str) -> Result<PathBuf, DatasetError> {
        let index = match self.cache.iter().position(|(u, _)| *u == url) {
            Some(i) => i,
            None => {
                let result = self.fetch(url);
                self.cache.push((url, result));
                self.cache.len() - 1
            }
        };
        self.cache[index]
            .1
            .clone()
            .map_err(|detail| DatasetError::Download {
                what: format!("curl {url}"),
                detail,
                url,
            })
    }

    /// Downloads `url` with curl; the error is curl's message.
    fn fetch(&mut self, url: &'static str) -> Result<PathBuf, String> {
        fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let path = self.dir.join(format!(
            ".download{}-{}.tmp",
            self.cache.len(),
            std::process::id()
        ));
        let output = Command::new("curl")
            .args(["--fail", "--silent", "--show-error", "--location"])
            .args(["--retry", "2", "--connect-timeout", "20", "--output"])
            .arg(&path)
            .arg(url)
            .output()
            .map_err(|e| format!("cannot run curl: {e}"))?;
        if !output.status.success() {
            let _ = fs::remove_file(&path);
            return Err(last_line(&output.stderr));
        }
        Ok(path)
    }

    /// Downloads `corpus` from its public source into `dir`: fetch,
    /// extract, normalise, then verify and install as [`install_bytes`]
    /// does. A file already in `dir` with the right checksum is left alone.
    pub fn download(&mut self, corpus: &Corpus, dir: &Path) -> Result<Fetched, DatasetError> {
        let Some(source) = corpus.download else {
            return Err(DatasetError::NoDownload { name: corpus.name });
        };
        if presence(corpus, dir)? == Presence::Verified {
            return Ok(Fetched::UpToDate);
        }
        let file = self.get(source.url)?;
        let raw = match source.zip_member {
            None => fs::read(&file).map_err(io_err(&file))?,
            Some(member) => {
                let output = Command::new("unzip")
                    .arg("-p")
                    .arg(&file)
                    .arg(member)
                    .output()
                    .map_err(|e| DatasetError::Download {
                        what: "running unzip".into(),
                        detail: e.to_string(),
                        url: source.url,
                    })?;
                if !output.status.success() {
                    return Err(DatasetError::Download {
                        what: format!("unzip -p {} {member}", file.display()),
                        detail: last_line(&output.stderr),
                        url: source.url,
                    });
                }
                output.stdout
            }
        };
        install_bytes(corpus, &normalise(&raw, source.layout), dir)
    }
}

impl Drop for Downloader {
    fn drop(&mut self) {
        for (_, result) in &self.cache {
            if let Ok(path) = result {
                let _ = fs::remove_file(path);
            }
        }
    }
}

/// The last non-empty line of a program's error output (curl repeats its
/// message on every retry).
fn last_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no error output")
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
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
        let p1 =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
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
}

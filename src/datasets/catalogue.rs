//! The catalogue of known corpora, [`CATALOGUE`], and its lookups.

// Duplicates (issue #42): the `Corpus` entries are alike in shape on purpose: a data table, one
// literal a corpus.

use super::{Corpus, Derivation, Download, Kind, Layout, Origin, SolutionCounts};

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

/// `https://raw.githubusercontent.com/` plus `OWNER/REPO/COMMIT/`: files of
/// public repositories pinned to the commit the mirror's copy came from.
macro_rules! raw {
    ($repo:literal, $commit:literal, $path:literal) => {
        concat!(
            "https://raw.githubusercontent.com/",
            $repo,
            "/",
            $commit,
            "/",
            $path
        )
    };
}

/// One puzzle file of BCIT COMP3981's course samples, downloaded from
/// tcgaryau/AISudokuSolver at a fixed commit: the grid's folder
/// (`16x16`), the file, and its layout.
macro_rules! comp3981 {
    ($grid:literal, $file:literal, $layout:ident($cells:literal)) => {
        part(
            concat!(
                "https://raw.githubusercontent.com/tcgaryau/AISudokuSolver/",
                "0c54b4ac98a35c152e5dc2571485efa7ec0ecd90/AllSamples/Sudoku-",
                $grid,
                "/",
                $file
            ),
            Layout::$layout($cells),
        )
    };
}

/// A public source of one file, its normalised bytes checked here against
/// the catalogue's checksum.
const fn verified(parts: &'static [Download]) -> Origin {
    Origin::Public {
        parts,
        verified: true,
    }
}

const fn part(url: &'static str, layout: Layout) -> Download {
    Download {
        url,
        zip_member: None,
        layout,
    }
}

/// The edits that make `derived_changedclue_top1465` from top1465.
const CHANGED_CLUE_EDITS: &str = include_str!("changedclue_top1465.edits");

/// Every known corpus, in the order `datasets list` shows them.
// A table: one literal per corpus, alike in shape on purpose, so that an
// entry reads (and is reviewed) on its own.
pub const CATALOGUE: &[Corpus] = &[
    Corpus {
        name: "magictour_top1465",
        file: "magictour_top1465.txt",
        grid: "9x9",
        puzzles: 1465,
        kind: Kind::Hard,
        solutions: sols(0, 1465, 0, 0),
        source: "magictour top1465, Guenter Stertenbrink (magictour.free.fr/top1465); download: the copy in \
                 weiz0823/dlx data/sudoku/top1465.txt, verified",
        sha256: "21d82f285082dc0db051f407cf23103af76bf077b368b04bd9e619f2bf6d2c1b",
        origin: verified(&[part(
            raw!("weiz0823/dlx", "17ba466811ca58537a3a6f86818a8ac74c8ffcfb", "data/sudoku/top1465.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "sudoku17_all_49158",
        file: "sudoku17_all_49158.txt",
        grid: "9x9",
        puzzles: 49158,
        kind: Kind::AllSeventeenClue,
        solutions: sols(0, 49158, 0, 0),
        source: "all 17-clue puzzles: Gordon Royle's list (UWA) completed to 49,158 by the Enjoy Sudoku \
                 Players Forum; tdoku data set puzzles2_17_clue (in tdoku's data.zip, not checked here); \
                 download: the copy in xiej2520/SudukoSolver, verified",
        sha256: "0041377124d2982cbfdabfbf3f9ceab7649c975ade3ff731cdeaf799b7ad1b87",
        origin: verified(&[part(
            raw!("xiej2520/SudukoSolver", "1214633a958254bfd67f6f23c1d2f3ca2fbfec38", "data/puzzles2_17_clue"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "sudoku17_royle_49151",
        file: "sudoku17_royle_49151.txt",
        grid: "9x9",
        puzzles: 49151,
        kind: Kind::AllSeventeenClue,
        solutions: sols(0, 49151, 0, 0),
        source: "Gordon Royle's 17-clue list, UWA; download: the copy in weiz0823/dlx data/sudoku/sudoku17.txt, \
                 verified",
        sha256: "6d65f4c12217d4d4c56a0138289f1a6706c76f8751381a9f41421b5dea739276",
        origin: verified(&[part(
            raw!("weiz0823/dlx", "17ba466811ca58537a3a6f86818a8ac74c8ffcfb", "data/sudoku/sudoku17.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "tdoku_puzzles5_forum_hardest_1905_11plus",
        file: "tdoku_puzzles5_forum_hardest_1905_11plus.txt",
        grid: "9x9",
        puzzles: 48766,
        kind: Kind::Hard,
        solutions: sols(0, 48766, 0, 0),
        source: "Enjoy Sudoku forum 'hardest' list (2019-05), Sudoku Explainer rating >= 11; tdoku data set \
                 puzzles5 (in tdoku's data.zip, not checked here); download: the copy in \
                 rajdeepyadav004/Sudoku, verified",
        sha256: "56236eaf6c7445ea244db3423ec44a102349dbedf6e457af0fcdd3d07cf39996",
        origin: verified(&[part(
            raw!("rajdeepyadav004/Sudoku", "a9733642b854bdec183644bb2650a8e81363efa2", "data/puzzles5_forum_hardest_1905_11%2B"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "tdoku_puzzles6_forum_hardest_1106",
        file: "tdoku_puzzles6_forum_hardest_1106.txt",
        grid: "9x9",
        puzzles: 375,
        kind: Kind::Hard,
        solutions: sols(0, 375, 0, 0),
        source: "Enjoy Sudoku forum HardestDatabase110626 (2011-06); tdoku data set puzzles6 (in tdoku's \
                 data.zip, not checked here); download: the copy in rajdeepyadav004/Sudoku, verified",
        sha256: "fb88ac7cfcc462154a41c62262192ccd40255c39db9bd827e5199f1e1660cd17",
        origin: verified(&[part(
            raw!("rajdeepyadav004/Sudoku", "a9733642b854bdec183644bb2650a8e81363efa2", "data/puzzles6_forum_hardest_1106"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "tdoku_puzzles7_serg_benchmark",
        file: "tdoku_puzzles7_serg_benchmark.txt",
        grid: "9x9",
        puzzles: 10000,
        kind: Kind::MultiSolution,
        solutions: sols(0, 0, 10000, 0),
        source: "Serg's benchmark (sites.google.com/site/sergsudoku), puzzles with 2+ solutions; tdoku data \
                 set puzzles7 (in tdoku's data.zip, not checked here); download: the copy in \
                 rajdeepyadav004/Sudoku, verified",
        sha256: "c9f3cbaf03488089a8fe9951b08477975594167e59d18218b9279619d945dee7",
        origin: verified(&[part(
            raw!("rajdeepyadav004/Sudoku", "a9733642b854bdec183644bb2650a8e81363efa2", "data/puzzles7_serg_benchmark"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "euler96_norvig_easy50",
        file: "euler96_norvig_easy50.txt",
        grid: "9x9",
        puzzles: 50,
        kind: Kind::Easy,
        solutions: sols(0, 50, 0, 0),
        source: "Peter Norvig's easy50 = Project Euler problem 96 grids (one puzzle appears twice; \
                 norvig.com/easy50.txt, not checked here); download: the copy in weiz0823/dlx, verified",
        sha256: "299c9dc207d36ff7cf6f63430bc77b9b8f8818d0e17bcbe29a4643fe0d19e5f7",
        origin: verified(&[part(
            raw!("weiz0823/dlx", "17ba466811ca58537a3a6f86818a8ac74c8ffcfb", "data/sudoku/fromNorvig/easy50.txt"),
            Layout::Blocks,
        )]),
    },
    Corpus {
        name: "norvig_top95",
        file: "norvig_top95.txt",
        grid: "9x9",
        puzzles: 95,
        kind: Kind::Hard,
        solutions: sols(0, 95, 0, 0),
        source: "Peter Norvig's top95, originally magictour top95 (norvig.com/top95.txt, not checked \
                 here); download: the copy in weiz0823/dlx (hard95.txt), verified",
        sha256: "b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36",
        origin: verified(&[part(
            raw!("weiz0823/dlx", "17ba466811ca58537a3a6f86818a8ac74c8ffcfb", "data/sudoku/fromNorvig/hard95.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "norvig_hardest11",
        file: "norvig_hardest11.txt",
        grid: "9x9",
        puzzles: 11,
        kind: Kind::Hard,
        solutions: sols(0, 11, 0, 0),
        source: "Peter Norvig's 'hardest' list (norvig.com/hardest.txt, not checked here); download: \
                 the copy in weiz0823/dlx (hardest11.txt), verified",
        sha256: "398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f",
        origin: verified(&[part(
            raw!("weiz0823/dlx", "17ba466811ca58537a3a6f86818a8ac74c8ffcfb", "data/sudoku/fromNorvig/hardest11.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "top2365",
        file: "top2365.txt",
        grid: "9x9",
        puzzles: 2365,
        kind: Kind::Hard,
        solutions: sols(0, 2364, 1, 0),
        source: "magictour top2365 (as distributed with the VU Knowledge Representation SAT-Sudoku \
                 assignment); download: the copy in ManWithAJawharp/sat_solver, verified",
        sha256: "235397f2b4305a62608d368b1afcba145df5b04ec4c5f2632e6602350d95c6fe",
        origin: verified(&[part(
            raw!("ManWithAJawharp/sat_solver", "c1dccb8beafb7d7e2957f107d474f0dfce7195d5", "top2365.sdk.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "top870",
        file: "top870.txt",
        grid: "9x9",
        puzzles: 870,
        kind: Kind::Hard,
        solutions: sols(0, 870, 0, 0),
        source: "top870, VU Knowledge Representation assignment (merge of several hard lists); download: \
                 ManWithAJawharp/sat_solver, verified",
        sha256: "7462ec6d8222013a153e1f6edd97bb8a9ea166fac21f3705c306392a94da9512",
        origin: verified(&[part(
            raw!("ManWithAJawharp/sat_solver", "c1dccb8beafb7d7e2957f107d474f0dfce7195d5", "top870.sdk.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "top100",
        file: "top100.txt",
        grid: "9x9",
        puzzles: 100,
        kind: Kind::Hard,
        solutions: sols(0, 100, 0, 0),
        source: "top100, VU Knowledge Representation assignment; download: ManWithAJawharp/sat_solver, \
                 verified",
        sha256: "c383cc5098bd6c824b596ee6936f9895e4b20fc308bdf2b37caba3d066cd2d9a",
        origin: verified(&[part(
            raw!("ManWithAJawharp/sat_solver", "c1dccb8beafb7d7e2957f107d474f0dfce7195d5", "top100.sdk.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "top91",
        file: "top91.txt",
        grid: "9x9",
        puzzles: 91,
        kind: Kind::Hard,
        solutions: sols(0, 91, 0, 0),
        source: "top91, VU Knowledge Representation assignment; download: ManWithAJawharp/sat_solver, \
                 verified",
        sha256: "91f06068215284bf8f44f4881069698dac627e862063c29672aeea038d9ab73f",
        origin: verified(&[part(
            raw!("ManWithAJawharp/sat_solver", "c1dccb8beafb7d7e2957f107d474f0dfce7195d5", "top91.sdk.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "damnhard35",
        file: "damnhard35.txt",
        grid: "9x9",
        puzzles: 35,
        kind: Kind::Hard,
        solutions: sols(0, 35, 0, 0),
        source: "damnhard list, VU Knowledge Representation assignment; download: ManWithAJawharp/sat_solver, \
                 verified",
        sha256: "46c4c953dd950633cabbc3af8d657706542b3eba671769be239c5a4c21b0dd1a",
        origin: verified(&[part(
            raw!("ManWithAJawharp/sat_solver", "c1dccb8beafb7d7e2957f107d474f0dfce7195d5", "damnhard.sdk.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "subig20_17445",
        file: "subig20_17445.txt",
        grid: "9x9",
        puzzles: 17445,
        kind: Kind::Unique,
        solutions: sols(0, 17445, 0, 0),
        source: "subig20, VU Knowledge Representation assignment (origin not documented); download: \
                 ManWithAJawharp/sat_solver, verified",
        sha256: "e4723608257aa8da9df17b559078ece739a8de68021c84a0e6bc5da162be0862",
        origin: verified(&[part(
            raw!("ManWithAJawharp/sat_solver", "c1dccb8beafb7d7e2957f107d474f0dfce7195d5", "subig20.sdk.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "kr_1011_sudokus",
        file: "kr_1011_sudokus.txt",
        grid: "9x9",
        puzzles: 1011,
        kind: Kind::Easy,
        solutions: sols(0, 1011, 0, 0),
        source: "'1000 sudokus', VU Knowledge Representation assignment (easy and medium); download: \
                 ManWithAJawharp/sat_solver, verified",
        sha256: "c5c5c4ccf62772937aab8d6bc77c3b557c2cf569b72277961e8436e768d1d907",
        origin: verified(&[part(
            raw!("ManWithAJawharp/sat_solver", "c1dccb8beafb7d7e2957f107d474f0dfce7195d5", "1000_sudokus.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "plb_hard20",
        file: "plb_hard20.txt",
        grid: "9x9",
        puzzles: 20,
        kind: Kind::Hard,
        solutions: sols(0, 20, 0, 0),
        source: "attractivechaos/plb Sudoku benchmark: 20 famous hard puzzles (Easter Monster, Platinum \
                 Blonde, ...); download: attractivechaos/plb sudoku/sudoku.txt, verified",
        sha256: "03241a40e2bc29d6ddcf12d2d54066344083a8b5bc48072f4f408d02193722cb",
        origin: verified(&[part(
            raw!("attractivechaos/plb", "ca35a7dfb2a235fa00fce58f7d1d426d69c6123a", "sudoku/sudoku.txt"),
            Layout::Lines,
        )]),
    },
    Corpus {
        name: "acs_general_9x9_2100",
        file: "acs_general_9x9_2100.txt",
        grid: "9x9",
        puzzles: 2100,
        kind: Kind::Mixed,
        solutions: sols(0, 977, 1123, 0),
        source: "Lloyd & Amos, ACS Sudoku paper, 'general' instances (generator after R. Lewis), 0-100% \
                 filled; huwlloyd-mmu/sudoku_acs, assembled from 2,100 files (no single download; \
                 mirror only)",
        sha256: "6bc0e6a995c8ec8346fd9961935ab6218f6a96462b45b5eab6dffbc4f6e98805",
        origin: Origin::MirrorOnly,
    },
    Corpus {
        name: "acs_general_16x16_2100",
        file: "acs_general_16x16_2100.txt",
        grid: "16x16",
        puzzles: 2100,
        kind: Kind::Mixed,
        solutions: sols(0, 798, 1301, 1),
        source: "Lloyd & Amos, ACS Sudoku paper, 'general' instances (generator after R. Lewis), 0-100% \
                 filled; huwlloyd-mmu/sudoku_acs, assembled from 2,100 files (no single download; \
                 mirror only)",
        sha256: "c1c356c5e3faf7f3a1db14427309b91c4bc2454427b0fbd0c330aafd77d5963e",
        origin: Origin::MirrorOnly,
    },
    Corpus {
        name: "acs_general_25x25_2100",
        file: "acs_general_25x25_2100.txt",
        grid: "25x25",
        puzzles: 2100,
        kind: Kind::Mixed,
        solutions: sols(0, 683, 1150, 267),
        source: "Lloyd & Amos, ACS Sudoku paper, 'general' instances (generator after R. Lewis), 0-100% \
                 filled; huwlloyd-mmu/sudoku_acs, assembled from 2,100 files (no single download; \
                 mirror only)",
        sha256: "b938c600655f1f03b0642c1410484efa46ff38c66ed97adb4170db26ef75d6be",
        origin: Origin::MirrorOnly,
    },
    Corpus {
        name: "kr_16x16_100",
        file: "kr_16x16_100.txt",
        grid: "16x16",
        puzzles: 100,
        kind: Kind::Unique,
        solutions: sols(0, 100, 0, 0),
        source: "16x16 puzzles, VU Knowledge Representation assignment; download: the copy in owhygithub/KR, \
                 verified",
        sha256: "38ce2f30be805dabe161202d57ff3d48e7aba96e96a3f04172bff4e50c6f1ca4",
        origin: verified(&[part(
            raw!("owhygithub/KR", "c7f518ad5b3946c6b9a6cf3eeae0aa972cd2b4a4", "16x16.txt"),
            Layout::Cells(256),
        )]),
    },
    Corpus {
        name: "comp3981_16x16_15",
        file: "comp3981_16x16_15.txt",
        grid: "16x16",
        puzzles: 15,
        kind: Kind::MultiSolution,
        solutions: sols(0, 0, 15, 0),
        source: "BCIT COMP3981 course samples; download: tcgaryau/AISudokuSolver, one file a puzzle, verified",
        sha256: "6530f823dd38fcd25f5dcbccc225d142635894e03de2b5c50f8c8dac96d3ce57",
        origin: verified(&[
            comp3981!("16x16", "16x16_sample1_grp1.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample1_grp2.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample1_grp3.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample1_grp4.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample1_grp5.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample2_grp1.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample2_grp2.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample2_grp3.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample2_grp4.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample2_grp5.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample3_grp1.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample3_grp2.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample3_grp3.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample3_grp4.txt", NumberCells(256)),
            comp3981!("16x16", "16x16_sample3_grp5.txt", NumberCells(256)),
        ]),
    },
    Corpus {
        name: "comp3981_25x25_14",
        file: "comp3981_25x25_14.txt",
        grid: "25x25",
        puzzles: 14,
        kind: Kind::Mixed,
        solutions: sols(0, 1, 11, 2),
        source: "BCIT COMP3981 course samples; download: tcgaryau/AISudokuSolver, one file a puzzle, verified",
        sha256: "582d798526d39083f473023e11bbf25e29c3019bda5ed3705c243a535e3a085c",
        origin: verified(&[
            comp3981!("25x25", "25x25_sample1_grp1.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample1_grp2.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample1_grp3.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample1_grp4.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample1_grp5.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample2_grp1.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample2_grp2.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample2_grp3.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample2_grp4.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample2_grp5.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample3_grp1.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample3_grp2.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample3_grp3.txt", NumberCells(625)),
            comp3981!("25x25", "25x25_sample3_grp5.txt", NumberCells(625)),
        ]),
    },
    Corpus {
        name: "comp3981_100x100_5",
        file: "comp3981_100x100_5.txt",
        grid: "100x100",
        puzzles: 5,
        kind: Kind::Unchecked,
        solutions: None,
        source: "BCIT COMP3981 course samples; numeric format; download: tcgaryau/AISudokuSolver, one file a \
                 puzzle, verified",
        sha256: "ad202262ac9ae3bfb37399537d733a69007e230d241ba04a3035fc6557c5a02a",
        origin: verified(&[
            comp3981!("100x100", "100x100_sample_grp1.txt", Numbers(10000)),
            comp3981!("100x100", "100x100_sample_grp2.txt", Numbers(10000)),
            comp3981!("100x100", "100x100_sample_grp3.txt", Numbers(10000)),
            comp3981!("100x100", "100x100_sample_grp4.txt", Numbers(10000)),
            comp3981!("100x100", "100x100_sample_grp5.txt", Numbers(10000)),
        ]),
    },
    Corpus {
        name: "samples_36x36_2",
        file: "samples_36x36_2.txt",
        grid: "36x36",
        puzzles: 2,
        kind: Kind::Unchecked,
        solutions: None,
        source: "b-nguyen/theory-final-project and VegaMario/QuantumSudokuSolver; numeric format; download: \
                 both files, verified",
        sha256: "7174e3dfdf64466975aba010a87044a3abdf89da5c3665ddd5278c28cd930508",
        origin: verified(&[
            part(
                raw!("b-nguyen/theory-final-project", "c1f311a95926a752f48f15238d4c01ae30cbaa60", "36x36.txt"),
                Layout::Numbers(1296),
            ),
            part(
                raw!("VegaMario/QuantumSudokuSolver", "cbd26a22d3c66cdb73d78254d56c826890aed9a4", "36x36.txt"),
                Layout::Numbers(1296),
            ),
        ]),
    },
    Corpus {
        name: "samples_100x100_vegamario_1",
        file: "samples_100x100_vegamario_1.txt",
        grid: "100x100",
        puzzles: 1,
        kind: Kind::Unchecked,
        solutions: None,
        source: "VegaMario/QuantumSudokuSolver (generated); numeric format; download: verified",
        sha256: "8f7a6fe9050000f1d407f0ee874268a8b13934b8bba7c97db928d7d4288a3d9c",
        origin: verified(&[part(
            raw!("VegaMario/QuantumSudokuSolver", "cbd26a22d3c66cdb73d78254d56c826890aed9a4", "100x100.txt"),
            Layout::Numbers(10000),
        )]),
    },
    Corpus {
        name: "hanidoku_172",
        file: "hanidoku_172.txt",
        grid: "hanidoku-61",
        puzzles: 172,
        kind: Kind::Unique,
        solutions: sols(0, 172, 0, 0),
        source: "Hanidoku (hexagonal, 61 cells) from weiz0823/dlx; not a Sudoku grid (`--kind hanidoku`); solution counts by dlxbench's dlx and backtrack Hanidoku solvers; download: verified",
        sha256: "b3e58868bdd448cc166bfd8476642c0933bdce939dfe6710003c73bd2d91b911",
        origin: verified(&[part(
            raw!("weiz0823/dlx", "17ba466811ca58537a3a6f86818a8ac74c8ffcfb", "data/hanidoku/puzzles.txt"),
            Layout::Cells(61),
        )]),
    },
    Corpus {
        name: "derived_nosolution_top1465",
        file: "derived_nosolution_top1465.txt",
        grid: "9x9",
        puzzles: 1465,
        kind: Kind::Unsolvable,
        solutions: sols(1465, 0, 0, 0),
        source: "made for dlxbench: each top1465 puzzle plus one clue that contradicts its solution \
                 without repeating a digit in a unit (Python random, seed 1); rebuilt from top1465",
        sha256: "bf15e9f8609c498346397e24c8e8b536def114becd1b46db68dbf5a7190d6b97",
        origin: Origin::Derived {
            from: "magictour_top1465",
            how: Derivation::NoSolution {
                seed: 1,
                sample: None,
            },
        },
    },
    Corpus {
        name: "derived_nosolution_17clue_2000",
        file: "derived_nosolution_17clue_2000.txt",
        grid: "9x9",
        puzzles: 2000,
        kind: Kind::Unsolvable,
        solutions: sols(2000, 0, 0, 0),
        source: "made for dlxbench: the same construction on 2,000 puzzles sampled from the 17-clue list \
                 (Python random, seed 2); rebuilt from sudoku17_all_49158",
        sha256: "23c15d1cae9f122a9dbca4b57404ec775aed420e89a7638afa1813a0bc0ba53a",
        origin: Origin::Derived {
            from: "sudoku17_all_49158",
            how: Derivation::NoSolution {
                seed: 2,
                sample: Some(2000),
            },
        },
    },
    Corpus {
        name: "derived_changedclue_top1465",
        file: "derived_changedclue_top1465.txt",
        grid: "9x9",
        puzzles: 1465,
        kind: Kind::Mixed,
        solutions: sols(164, 23, 1278, 0),
        source: "made for dlxbench: each top1465 puzzle with one clue changed to another digit that \
                 repeats nothing in its units, shuffled; rebuilt from top1465 by the recorded edits",
        sha256: "2ab85b1341ba34406464650632dc2de3894d550ce6c011bb5822306504441461",
        origin: Origin::Derived {
            from: "magictour_top1465",
            how: Derivation::Edits {
                edits: CHANGED_CLUE_EDITS,
            },
        },
    },
];

/// The standard benchmark set: what `bench` runs with no corpus named,
/// those of them that are fetched (else the kind's embedded corpus). For
/// Sudoku the three corpora solver comparisons quote most (tdoku's
/// benchmark among them): the 1,465 hardest of Magictour's list, every
/// known 17-clue puzzle, and the forum's hardest 1,106; for Hanidoku its
/// one corpus. Large grids and derived corpora run with `--all` or by name.
pub const STANDARD_SET: &[&str] = &[
    "magictour_top1465",
    "sudoku17_all_49158",
    "tdoku_puzzles6_forum_hardest_1106",
    "hanidoku_172",
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

// A Sudoku solver that speaks dlxbench's solver line protocol, version 1.
//
//     dlxbench bench --solvers dlx --warmup 200 --solver-cmd java="java examples/solvers/java/Solver.java"
//
// One file, run from source (`java Solver.java`, JDK 11 or newer; no build
// step, no libraries). The protocol is in docs/solver-protocol.md. In
// short: print the header line `dlxbench-protocol 1`, then answer each
// request `solve LIMIT PUZZLE` with one line `COUNT SOLUTION guesses=N ns=N`
// (or `n/a REASON`), flushing standard output after every line.
//
// The search: bitmask backtracking (a 64-bit mask of the values placed in
// each row, column and box). At each step it places a forced value when
// there is one (a cell with one candidate, or a value with one place left
// in a row, column or box), and otherwise branches on the open cell with
// the fewest candidates. Any box shape whose side is at most 61 (the
// one-symbol-per-cell notation): boxes r rows by c columns as a `box=RxC`
// word after the puzzle says, or else with r the largest divisor of the
// side whose square is at most the side; r, c >= 2. The JIT compiles the search after some
// thousands of calls: bench it with --warmup.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

public final class Solver {
    static final String HEADER = "dlxbench-protocol 1 +batch java-example";
    static final String SYMBOLS = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    static final int MAX_SIDE = 61;

    /** A puzzle this solver does not take: answered with `n/a REASON`. */
    static final class NotApplicable extends Exception {
        NotApplicable(String reason) {
            super(reason);
        }
    }

    /**
     * The units of a grid of one side: unitsOf[3 * cell + k] (its row,
     * column and box) and cellsOf[side * unit + k]. Units 0..side-1 are the
     * rows, then the columns, then the boxes.
     */
    static final class Geometry {
        final int side;
        final int[] unitsOf, cellsOf;

        Geometry(int side, int boxRows) throws NotApplicable {
            int boxCols = side / boxRows;
            if (boxRows < 2 || boxCols < 2 || boxRows * boxCols != side) {
                throw new NotApplicable("no " + boxRows + "-row boxes for side " + side);
            }
            this.side = side;
            int cells = side * side;
            unitsOf = new int[3 * cells];
            cellsOf = new int[3 * cells];
            int[] filled = new int[3 * side];
            for (int cell = 0; cell < cells; cell++) {
                int row = cell / side, col = cell % side;
                int box = (row / boxRows) * boxRows + col / boxCols;
                int[] units = {row, side + col, 2 * side + box};
                for (int k = 0; k < 3; k++) {
                    unitsOf[3 * cell + k] = units[k];
                    cellsOf[side * units[k] + filled[units[k]]++] = cell;
                }
            }
        }
    }

    static final Map<Long, Geometry> GEOMETRIES = new HashMap<>();

    static Geometry geometry(int side, int boxRows) throws NotApplicable {
        long key = (long) side << 32 | boxRows;
        Geometry g = GEOMETRIES.get(key);
        if (g == null) {
            g = new Geometry(side, boxRows);
            GEOMETRIES.put(key, g);
        }
        return g;
    }

    /**
     * The rows of a box when the request gives no `box=RxC`: the most
     * square shape, r the largest divisor of the side whose square is at
     * most the side.
     */
    static int defaultBoxRows(int side) {
        int boxRows = 1;
        for (int r = 1; r * r <= side; r++) {
            if (side % r == 0) boxRows = r;
        }
        return boxRows;
    }

    /** The cell values (0 for blank) of a one-line puzzle. */
    static int[] parse(String puzzle) throws NotApplicable {
        int side = (int) Math.round(Math.sqrt(puzzle.length()));
        if (side * side != puzzle.length() || side > MAX_SIDE) {
            throw new NotApplicable(
                    "not a square grid of side 4 to " + MAX_SIDE + " (" + puzzle.length() + " symbols)");
        }
        int[] cells = new int[puzzle.length()];
        for (int i = 0; i < cells.length; i++) {
            char ch = puzzle.charAt(i);
            int value = ch == '0' ? 0 : SYMBOLS.indexOf(ch);
            if (value < 0 || value > side) {
                throw new NotApplicable("symbol '" + ch + "' in a grid of side " + side);
            }
            cells[i] = value;
        }
        return cells;
    }

    /**
     * One search: counts solutions up to a limit, keeps the first. A guess
     * is each value tried in a cell that had two candidates or more when no
     * move was forced.
     */
    static final class Search {
        final Geometry g;
        final int side;
        final long full;
        final long[] used; // the values placed in each unit
        final long[] freeOf; // candidates of the open cells, as last computed
        final int[] grid, empties;
        int total;
        final long limit; // unsigned; 0: no limit
        long count, guesses;
        int[] first;

        Search(Geometry g, int[] cells, long limit) {
            this.g = g;
            side = g.side;
            full = (1L << side) - 1; // side <= 61
            used = new long[3 * side];
            freeOf = new long[cells.length];
            grid = cells.clone();
            empties = new int[cells.length];
            this.limit = limit;
        }

        /** Places the clues; false when two are equal in a unit. */
        boolean start() {
            int[] unitsOf = g.unitsOf;
            for (int cell = 0; cell < grid.length; cell++) {
                int value = grid[cell];
                if (value == 0) {
                    empties[total++] = cell;
                    continue;
                }
                long bit = 1L << (value - 1);
                int a = unitsOf[3 * cell], b = unitsOf[3 * cell + 1], c = unitsOf[3 * cell + 2];
                if (((used[a] | used[b] | used[c]) & bit) != 0) return false;
                used[a] |= bit;
                used[b] |= bit;
                used[c] |= bit;
            }
            return true;
        }

        /** Fills empties[depth..]; true when the limit is reached. */
        boolean search(int depth) {
            if (depth == total) {
                count++;
                if (first == null) first = grid.clone();
                return count == limit;
            }
            int[] unitsOf = g.unitsOf, cellsOf = g.cellsOf;
            // The open cell with the fewest candidates (a naked single ends the scan).
            int best = depth, bestCount = Integer.MAX_VALUE;
            long bestFree = 0;
            for (int j = depth; j < total; j++) {
                int cell = empties[j];
                long free = full & ~(used[unitsOf[3 * cell]] | used[unitsOf[3 * cell + 1]]
                        | used[unitsOf[3 * cell + 2]]);
                freeOf[cell] = free;
                int n = Long.bitCount(free);
                if (n < bestCount) {
                    best = j;
                    bestFree = free;
                    bestCount = n;
                    if (n <= 1) break;
                }
            }
            if (bestCount == 0) return false;
            boolean guessing = bestCount > 1;
            if (guessing) {
                // A value with one place left in a unit is forced (a hidden
                // single); one with no place left is a dead end.
                for (int unit = 0; unit < 3 * side && guessing; unit++) {
                    long once = 0, twice = 0;
                    int base = side * unit;
                    for (int k = 0; k < side; k++) {
                        int cell = cellsOf[base + k];
                        if (grid[cell] == 0) {
                            long m = freeOf[cell];
                            twice |= once & m;
                            once |= m;
                        }
                    }
                    if ((full & ~used[unit] & ~once) != 0) return false;
                    long single = once & ~twice;
                    if (single != 0) {
                        long bit = single & -single;
                        int k = 0;
                        while (grid[cellsOf[base + k]] != 0 || (freeOf[cellsOf[base + k]] & bit) == 0) k++;
                        int cell = cellsOf[base + k];
                        best = depth;
                        while (empties[best] != cell) best++;
                        bestFree = bit;
                        guessing = false;
                    }
                }
            }
            int cell = empties[best];
            empties[best] = empties[depth];
            empties[depth] = cell;
            int a = unitsOf[3 * cell], b = unitsOf[3 * cell + 1], c = unitsOf[3 * cell + 2];
            long free = bestFree;
            while (free != 0) {
                long bit = free & -free;
                free ^= bit;
                if (guessing) guesses++;
                used[a] |= bit;
                used[b] |= bit;
                used[c] |= bit;
                grid[cell] = Long.numberOfTrailingZeros(bit) + 1;
                boolean stop = search(depth + 1);
                used[a] ^= bit;
                used[b] ^= bit;
                used[c] ^= bit;
                grid[cell] = 0;
                if (stop) return true;
            }
            return false;
        }
    }

    /** The response line (without its newline) to one request line. */
    static String answer(String request) {
        String[] parts = request.split(" ", 3);
        if (parts.length != 3 || !parts[0].equals("solve") || !parts[1].matches("[0-9]+")) {
            return "error request not `solve LIMIT PUZZLE`";
        }
        long limit;
        try {
            limit = Long.parseUnsignedLong(parts[1]);
        } catch (NumberFormatException e) {
            limit = 0; // above 2^64: no limit
        }
        // PUZZLE, then words: `box=RxC` when the side alone does not tell
        // the box shape; others are ignored.
        String[] words = parts[2].split(" ");
        int[] cells;
        Geometry g;
        try {
            cells = parse(words[0]);
            int side = (int) Math.round(Math.sqrt(cells.length));
            int boxRows = defaultBoxRows(side);
            for (int i = 1; i < words.length; i++) {
                if (!words[i].startsWith("box=")) continue;
                String[] shape = words[i].substring(4).split("x", -1);
                if (shape.length != 2 || !shape[0].matches("[0-9]{1,3}") || !shape[1].matches("[0-9]{1,3}")
                        || Integer.parseInt(shape[0]) * Integer.parseInt(shape[1]) != side) {
                    throw new NotApplicable("box shape " + words[i].substring(4) + " for side " + side);
                }
                boxRows = Integer.parseInt(shape[0]);
            }
            g = geometry(side, boxRows);
        } catch (NotApplicable e) {
            return "n/a " + e.getMessage();
        }
        long startNs = System.nanoTime();
        Search s = new Search(g, cells, limit);
        if (s.start()) s.search(0);
        long elapsed = System.nanoTime() - startNs;
        StringBuilder out = new StringBuilder(cells.length + 48);
        out.append(s.count).append(' ');
        if (s.first == null) {
            out.append('-');
        } else {
            for (int v : s.first) out.append(SYMBOLS.charAt(v));
        }
        out.append(" guesses=").append(s.guesses).append(" ns=").append(elapsed);
        return out.toString();
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        out.write(HEADER + "\n");
        out.flush(); // the harness waits for this line: never leave it in a buffer
        String line;
        while ((line = in.readLine()) != null) { // null: the harness closed our input
            String response;
            try {
                response = answer(line);
            } catch (OutOfMemoryError e) {
                response = "error memory out of memory";
            } catch (RuntimeException | StackOverflowError e) {
                response = ("error other " + e).replace('\n', ' ');
            }
            out.write(response + "\n");
            out.flush();
        }
    }
}

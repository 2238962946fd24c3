#!/usr/bin/env node
// A Sudoku solver that speaks dlxbench's solver line protocol, version 1.
//
//     dlxbench bench --solvers dlx --solver-cmd js="node examples/solvers/javascript/solver.js"
//
// The protocol is in docs/solver-protocol.md. In short: print the header
// line `dlxbench-protocol 1`, then answer each request `solve LIMIT PUZZLE`
// with one line `COUNT SOLUTION guesses=N ns=N` (or `n/a REASON`).
// process.stdout.write is synchronous on Linux when standard output is a
// pipe or a file, so every line leaves at once: no flush to forget.
//
// The search: bitmask backtracking (a 32-bit mask of the values placed in
// each row, column and box). At each step it places a forced value when
// there is one (a cell with one candidate, or a value with one place left
// in a row, column or box), and otherwise branches on the open cell with
// the fewest candidates. Sides 4 to 30 (the masks are 32-bit integers; larger
// grids are answered `n/a`), boxes r rows by c columns as a `box=RxC` word
// after the puzzle says, or else with r the largest divisor of the side
// whose square is at most the side; r, c >= 2. No packages: Node.js alone.
'use strict';

const readline = require('readline');

const HEADER = 'dlxbench-protocol 1 +batch javascript-example';
const SYMBOLS = '.123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const MAX_SIDE = 30;

class NotApplicable extends Error {}

const geometries = new Map();

/**
 * The units of a grid of this side: unitsOf[3 * cell + k] (its row, column
 * and box) and cellsOf[side * unit + k]. Units 0..side-1 are the rows, then
 * the columns, then the boxes.
 */
function geometry(side, boxRows) {
  const key = `${side}/${boxRows}`;
  let g = geometries.get(key);
  if (g) return g;
  const boxCols = side / boxRows;
  if (boxRows < 2 || boxCols < 2 || boxRows * boxCols !== side) {
    throw new NotApplicable(`no ${boxRows}-row boxes for side ${side}`);
  }
  const cells = side * side;
  g = { unitsOf: new Int32Array(3 * cells), cellsOf: new Int32Array(3 * cells) };
  const filled = new Int32Array(3 * side);
  for (let cell = 0; cell < cells; cell++) {
    const row = Math.floor(cell / side);
    const col = cell % side;
    const box = Math.floor(row / boxRows) * boxRows + Math.floor(col / boxCols);
    const units = [row, side + col, 2 * side + box];
    for (let k = 0; k < 3; k++) {
      g.unitsOf[3 * cell + k] = units[k];
      g.cellsOf[side * units[k] + filled[units[k]]++] = cell;
    }
  }
  geometries.set(key, g);
  return g;
}

/**
 * The rows of a box when the request gives no `box=RxC`: the most square
 * shape, r the largest divisor of the side whose square is at most the side.
 */
function defaultBoxRows(side) {
  let boxRows = 1;
  for (let r = 1; r * r <= side; r++) if (side % r === 0) boxRows = r;
  return boxRows;
}

function popcount(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The side and the cell values (0 for blank) of a one-line puzzle. */
function parse(puzzle) {
  const side = Math.round(Math.sqrt(puzzle.length));
  if (side * side !== puzzle.length || side > MAX_SIDE) {
    throw new NotApplicable(`not a square grid of side 4 to ${MAX_SIDE} (${puzzle.length} symbols)`);
  }
  const cells = new Int32Array(puzzle.length);
  for (let i = 0; i < puzzle.length; i++) {
    const ch = puzzle[i];
    const value = ch === '0' ? 0 : SYMBOLS.indexOf(ch);
    if (value < 0 || value > side) throw new NotApplicable(`symbol '${ch}' in a grid of side ${side}`);
    cells[i] = value;
  }
  return { side, cells };
}

/**
 * Counts the solutions up to `limit` (0: all of them). A guess is each
 * value tried in a cell that had two candidates or more when no move was
 * forced.
 */
function solve(side, boxRows, cells, limit) {
  const { unitsOf, cellsOf } = geometry(side, boxRows);
  const full = (1 << side) - 1; // side <= 30
  const unitCount = 3 * side;
  const used = new Int32Array(unitCount); // the values placed in each unit
  const grid = Int32Array.from(cells);
  const freeOf = new Int32Array(grid.length); // candidates of the open cells, as last computed
  const empties = [];
  for (let cell = 0; cell < grid.length; cell++) {
    const value = grid[cell];
    if (value === 0) {
      empties.push(cell);
      continue;
    }
    const bit = 1 << (value - 1);
    const a = unitsOf[3 * cell], b = unitsOf[3 * cell + 1], c = unitsOf[3 * cell + 2];
    if ((used[a] | used[b] | used[c]) & bit) return { count: 0, first: null, guesses: 0 };
    used[a] |= bit;
    used[b] |= bit;
    used[c] |= bit;
  }
  const total = empties.length;
  let count = 0;
  let first = null;
  let guesses = 0;

  // Fills empties[depth..]; returns true when the limit is reached.
  function search(depth) {
    if (depth === total) {
      count++;
      if (first === null) first = Int32Array.from(grid);
      return count === limit;
    }
    // The open cell with the fewest candidates (a naked single ends the scan).
    let best = depth, bestFree = 0, bestCount = side + 1;
    for (let j = depth; j < total; j++) {
      const cell = empties[j];
      const free = full & ~(used[unitsOf[3 * cell]] | used[unitsOf[3 * cell + 1]] | used[unitsOf[3 * cell + 2]]);
      freeOf[cell] = free;
      const n = popcount(free);
      if (n < bestCount) {
        best = j;
        bestFree = free;
        bestCount = n;
        if (n <= 1) break;
      }
    }
    if (bestCount === 0) return false;
    let guessing = bestCount > 1;
    if (guessing) {
      // A value with one place left in a unit is forced (a hidden single);
      // one with no place left is a dead end.
      for (let unit = 0; unit < unitCount && guessing; unit++) {
        let once = 0, twice = 0;
        const base = side * unit;
        for (let k = 0; k < side; k++) {
          const cell = cellsOf[base + k];
          if (grid[cell] === 0) {
            const m = freeOf[cell];
            twice |= once & m;
            once |= m;
          }
        }
        if (full & ~used[unit] & ~once) return false;
        const single = once & ~twice;
        if (single !== 0) {
          const bit = single & -single;
          let k = 0;
          while (grid[cellsOf[base + k]] !== 0 || (freeOf[cellsOf[base + k]] & bit) === 0) k++;
          best = empties.indexOf(cellsOf[base + k], depth);
          bestFree = bit;
          guessing = false;
        }
      }
    }
    const cell = empties[best];
    empties[best] = empties[depth];
    empties[depth] = cell;
    const a = unitsOf[3 * cell], b = unitsOf[3 * cell + 1], c = unitsOf[3 * cell + 2];
    let free = bestFree;
    while (free !== 0) {
      const bit = free & -free;
      free ^= bit;
      if (guessing) guesses++;
      used[a] |= bit;
      used[b] |= bit;
      used[c] |= bit;
      grid[cell] = 32 - Math.clz32(bit);
      const stop = search(depth + 1);
      used[a] ^= bit;
      used[b] ^= bit;
      used[c] ^= bit;
      grid[cell] = 0;
      if (stop) return true;
    }
    return false;
  }

  search(0);
  return { count, first, guesses };
}

/** The response line (without its newline) to one request line. */
function answer(request) {
  const match = /^solve (\d+) (.*)$/.exec(request);
  if (!match) return 'error request not `solve LIMIT PUZZLE`';
  // Counts never come near 2^53, so a limit above it is as good as none.
  const limit = Math.min(Number(match[1]), Number.MAX_SAFE_INTEGER);
  // PUZZLE, then words: `box=RxC` when the side alone does not tell the box
  // shape; others are ignored.
  const words = match[2].split(' ');
  let parsed;
  let boxRows;
  try {
    parsed = parse(words[0]);
    boxRows = defaultBoxRows(parsed.side);
    for (const word of words.slice(1)) {
      const box = /^box=(\d+)x(\d+)$/.exec(word);
      if (word.startsWith('box=') && (!box || Number(box[1]) * Number(box[2]) !== parsed.side)) {
        throw new NotApplicable(`box shape ${word.slice(4)} for side ${parsed.side}`);
      }
      if (box) boxRows = Number(box[1]);
    }
    geometry(parsed.side, boxRows);
  } catch (e) {
    if (e instanceof NotApplicable) return `n/a ${e.message}`;
    throw e;
  }
  const start = process.hrtime.bigint();
  const { count, first, guesses } = solve(parsed.side, boxRows, parsed.cells, limit);
  const elapsed = process.hrtime.bigint() - start;
  const solution = first === null ? '-' : Array.from(first, (v) => SYMBOLS[v]).join('');
  return `${count} ${solution} guesses=${guesses} ns=${elapsed}`;
}

process.stdout.write(HEADER + '\n');
const lines = readline.createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
lines.on('line', (line) => {
  let response;
  try {
    response = answer(line.replace(/\r$/, ''));
  } catch (e) {
    const message = String(e && e.message ? e.message : e).replace(/\n/g, ' ');
    response = `error other ${message}`;
  }
  process.stdout.write(response + '\n');
});
// When the harness closes our standard input, readline closes and node exits.

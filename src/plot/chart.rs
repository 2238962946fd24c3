//! The charts, drawn with `plotters` into SVG text. Each function takes
//! plain data (no result files, no run types), so that the run report and
//! the comparison page draw alike, and each draws one chart.
//!
//! Every chart has a white background and dark ink; the HTML page inverts
//! it for a dark colour scheme. Series keep one colour per solver across
//! the charts of a page ([`colour`]).

// Duplicates (issue #42): the charts' `svg_beside(..., frame(...))` openings and `configure_mesh()`
// chains are alike on purpose: the shared parts are `svg_beside` and `frame`; axes, labels and
// formatters are each chart's own.

use plotters::coord::combinators::LogCoord;
use plotters::coord::ranged1d::AsRangedCoord;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::report::human_ns;

/// The size of a chart in SVG pixels.
pub const SIZE: (u32, u32) = (760, 420);

/// Colours a solver keeps across a page: Okabe and Ito's palette, which
/// stays distinguishable to colour-blind readers, minus its yellow (too
/// light on white).
const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
];

/// The colour of the `i`-th solver of a run.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// `colour(i)` as `#rrggbb`, for the page's legends and tests.
pub fn colour_hex(i: usize) -> String {
    let RGBColor(r, g, b) = colour(i);
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// Why a chart could not be drawn (plotters' error, as text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot draw {chart}: {what}")]
pub struct DrawError {
    /// Which chart.
    pub chart: String,
    /// Plotters' words.
    pub what: String,
}

/// A named series with its colour index.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend text (a solver's name).
    pub name: String,
    /// Index into the page's colours.
    pub colour: usize,
    /// The points, in drawing order.
    pub points: Vec<(f64, f64)>,
}

/// One solver's bar in the relative-speed chart: speed ratios against the
/// reference (above 1: faster).
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedBar {
    /// Solver name.
    pub name: String,
    /// Index into the page's colours.
    pub colour: usize,
    /// The paired speed ratio (the table's `vs` column: the geometric mean
    /// of the reference's time over the solver's, over the puzzles both
    /// solved).
    pub mean: f64,
    /// Its 95% interval, when there is one.
    pub interval: Option<(f64, f64)>,
    /// Latency ratios at the 50th, 90th and 99th percentiles.
    pub percentiles: [Option<f64>; 3],
}

/// What a ratio-distribution chart marks besides the bins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatioMarks {
    /// The ratios drawn (bins outside are left out), before widening to
    /// show the marks.
    pub range: (f64, f64),
    /// Geometric mean of the ratios, and its interval.
    pub estimate: Option<(f64, f64, f64)>,
    /// The gate's threshold (0.05 for 5%): the band 1 ± threshold.
    pub threshold: f64,
}

fn draw_error(chart: &str, e: impl std::fmt::Display) -> DrawError {
    DrawError {
        chart: chart.to_string(),
        what: e.to_string(),
    }
}

/// Runs `draw` on a fresh SVG canvas and returns the SVG text.
fn svg(
    chart: &str,
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), DrawError>,
) -> Result<String, DrawError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| draw_error(chart, e))?;
        draw(&root)?;
        root.present().map_err(|e| draw_error(chart, e))?;
    }
    Ok(out)
}

/// A legend entry's mark, drawn beside the plot ([`svg_beside`]).
#[derive(Clone, Copy)]
enum Mark {
    /// A line (a curve's).
    Line(ShapeStyle),
    /// A dashed line.
    Dashed(ShapeStyle),
    /// A dot (a point's).
    Dot(ShapeStyle),
    /// A cross.
    Cross(ShapeStyle),
    /// A shaded box (a band's).
    Swatch(ShapeStyle),
}

/// The width of the legend panel beside a plot, in SVG pixels.
const LEGEND_WIDTH: u32 = 210;

/// `text` cut into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// [`svg`] with the legend in a panel of its own to the right of the plot,
/// where it covers nothing: `draw` draws the plot on the left part and
/// returns the legend's entries.
fn svg_beside(
    chart: &str,
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<Vec<(String, Mark)>, DrawError>,
) -> Result<String, DrawError> {
    svg(chart, |root| {
        let (plot, panel) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
        let entries = draw(&plot)?;
        let font = ("sans-serif", 12).into_font();
        let mut y = 48i32;
        for (text, mark) in entries {
            let (mx, my) = (14i32, y + 6);
            let drawn = match mark {
                Mark::Line(style) => {
                    panel.draw(&PathElement::new([(mx - 9, my), (mx + 9, my)], style))
                }
                Mark::Dashed(style) => panel
                    .draw(&PathElement::new([(mx - 9, my), (mx - 3, my)], style))
                    .and_then(|_| {
                        panel.draw(&PathElement::new([(mx + 3, my), (mx + 9, my)], style))
                    }),
                Mark::Dot(style) => panel.draw(&Circle::new((mx, my), 4, style)),
                Mark::Cross(style) => panel.draw(&Cross::new((mx, my), 4, style)),
                Mark::Swatch(style) => {
                    panel.draw(&Rectangle::new([(mx - 7, my - 5), (mx + 7, my + 5)], style))
                }
            };
            drawn.map_err(|e| draw_error(chart, e))?;
            for line in wrap(&text, 28) {
                panel
                    .draw(&Text::new(line, (30, y), font.clone()))
                    .map_err(|e| draw_error(chart, e))?;
                y += 15;
            }
            y += 7;
        }
        Ok(())
    })
}

/// Every x of every series.
fn xs(series: &[Series]) -> impl Iterator<Item = f64> + '_ {
    series.iter().flat_map(|s| s.points.iter().map(|p| p.0))
}

/// Every y of every series.
fn ys(series: &[Series]) -> impl Iterator<Item = f64> + '_ {
    series.iter().flat_map(|s| s.points.iter().map(|p| p.1))
}

/// A log axis's range around `values` (positive ones), widened a little.
fn log_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, 0f64);
    for v in values.filter(|v| *v > 0.0 && v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (1.0, 10.0);
    }
    if hi <= lo * 1.01 {
        return (lo / 2.0, hi * 2.0);
    }
    (lo / 1.25, hi * 1.25)
}

/// A percentile as the "nines" axis writes it: 0 is 0%, 1 is 90%, 2 is
/// 99%, 3 is 99.9%.
pub fn nines_label(nines: f64) -> String {
    let pct = 100.0 * (1.0 - 10f64.powf(-nines));
    let digits = (nines.round() as i32 - 2).max(0) as usize;
    format!("{pct:.digits$}%")
}

/// The HdrHistogram percentile plot: latency (log scale) against the
/// percentile on the "nines" axis, one curve per series, whose points are
/// (nines, ns); the legend beside the plot, where it covers no curve (a
/// slow solver's curve runs along the top left, where a legend inside
/// would stand), and where the last percentile's label has room.
pub fn percentiles(title: &str, series: &[Series]) -> Result<String, DrawError> {
    let chart_name = "the percentile plot";
    let max_nines = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .fold(1.0f64, f64::max)
        .ceil();
    let (y0, y1) = log_range(ys(series));
    svg_beside(chart_name, |root| {
        let mut chart = frame(
            root,
            title,
            70,
            0f64..max_nines,
            (y0..y1).log_scale(),
            chart_name,
        )?;
        chart
            .configure_mesh()
            .x_desc("percentile")
            .y_desc("latency (log scale)")
            .x_labels(max_nines as usize + 1)
            .x_label_formatter(&|x| nines_label(*x))
            .y_label_formatter(&|y| human_ns(*y))
            .draw()
            .map_err(|e| draw_error(chart_name, e))?;
        let mut entries = Vec::with_capacity(series.len());
        for s in series {
            let style = colour(s.colour).stroke_width(2);
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), style))
                .map_err(|e| draw_error(chart_name, e))?;
            entries.push((s.name.clone(), Mark::Line(style)));
        }
        Ok(entries)
    })
}

/// Puzzles solved within a time (a "cactus" or survival curve): one
/// step curve per series, whose points are (ns, puzzles solved within it),
/// over all `puzzles` of the corpus (the frame's top, drawn as a dashed
/// line: a curve that stops below it left puzzles unsolved). `y_desc`
/// says what is counted.
pub fn solved_within(
    title: &str,
    puzzles: u64,
    y_desc: &str,
    series: &[Series],
) -> Result<String, DrawError> {
    let chart_name = "the solved-within-time chart";
    let (x0, x1) = log_range(xs(series));
    let top = (puzzles.max(1) as f64) * 1.04;
    svg_beside(chart_name, |root| {
        let mut chart = frame(root, title, 60, (x0..x1).log_scale(), 0f64..top, chart_name)?;
        chart
            .configure_mesh()
            .x_desc("time (log scale)")
            .y_desc(y_desc)
            .x_labels(6)
            .x_label_formatter(&|x| human_ns(*x))
            .y_label_formatter(&|y| compact(*y))
            .draw()
            .map_err(|e| draw_error(chart_name, e))?;
        let all = BLACK.mix(0.6).stroke_width(1);
        chart
            .draw_series(DashedLineSeries::new(
                [(x0, puzzles as f64), (x1, puzzles as f64)],
                6,
                4,
                all,
            ))
            .map_err(|e| draw_error(chart_name, e))?;
        let mut entries = vec![(
            format!(
                "all {} puzzles of the corpus",
                crate::report::thousands(puzzles)
            ),
            Mark::Dashed(all),
        )];
        // Steps: each point is reached at its time, from the level before.
        for s in series {
            let mut points = Vec::with_capacity(s.points.len() * 2 + 1);
            let mut level = 0.0;
            for &(x, y) in &s.points {
                points.push((x, level));
                points.push((x, y));
                level = y;
            }
            if let Some(&(_, y)) = s.points.last() {
                points.push((x1, y));
            }
            let style = colour(s.colour).stroke_width(2);
            chart
                .draw_series(LineSeries::new(points, style))
                .map_err(|e| draw_error(chart_name, e))?;
            entries.push((s.name.clone(), Mark::Line(style)));
        }
        Ok(entries)
    })
}

/// Where a puzzle of a head-to-head stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairKind {
    /// Both solved it: a point at (A's time, B's time).
    Both,
    /// Only A solved it: drawn on the top edge at A's time.
    OnlyA,
    /// Only B solved it: drawn on the right edge at B's time.
    OnlyB,
    /// Neither solved it: the top right corner.
    Neither,
}

/// One puzzle of a head-to-head scatter plot: its kind, A's time and B's
/// time (ns; 0 where not solved).
pub type PairPoint = (PairKind, f64, f64);

/// A head-to-head scatter plot, log-log: one point per puzzle both solved
/// at (A's time, B's time), the diagonal (equal times) and the tie band
/// (`tie`: within a factor `1 + tie`) shaded; a puzzle only one solved
/// sits on the frame (top edge: B did not solve it; right edge: A did
/// not) as a cross, and those neither solved in the corner.
pub fn versus(
    title: &str,
    a: &str,
    b: &str,
    tie: f64,
    points: &[PairPoint],
) -> Result<String, DrawError> {
    let chart_name = "the head-to-head scatter plot";
    let (lo, hi) = log_range(
        points
            .iter()
            .flat_map(|&(_, x, y)| [x, y])
            .filter(|v| *v > 0.0),
    );
    // Square: the same range on both axes, with room on the frame.
    let (lo, edge) = (lo, hi * 1.6);
    svg_beside(chart_name, |root| {
        let mut chart = frame(
            root,
            title,
            70,
            (lo..edge).log_scale(),
            (lo..edge).log_scale(),
            chart_name,
        )?;
        chart
            .configure_mesh()
            .x_desc(format!("{a}: time (log scale)"))
            .y_desc(format!("{b}: time (log scale)"))
            .x_labels(6)
            .y_labels(6)
            .x_label_formatter(&|x| human_ns(*x))
            .y_label_formatter(&|y| human_ns(*y))
            .draw()
            .map_err(|e| draw_error(chart_name, e))?;
        let mut entries = vec![tie_band(&mut chart, (lo, hi), tie, chart_name)?];
        // The frame's lines where unsolved puzzles sit.
        let frame_at = hi * 1.35;
        frame_lines(&mut chart, (lo, edge), frame_at, chart_name)?;
        entries.extend(pair_marks(
            &mut chart,
            (a, b),
            points,
            frame_at,
            chart_name,
        )?);
        Ok(entries)
    })
}

/// The log-log chart of [`versus`].
type LogLog<'a, 'b> = Chart<'a, 'b, LogCoord<f64>, LogCoord<f64>>;

/// [`versus`]'s tie band (within a factor `1 + tie` of the diagonal, over
/// the points' range `lo..hi`) and its diagonal; returns the band's legend
/// entry.
fn tie_band<'a, 'b: 'a>(
    chart: &mut LogLog<'a, 'b>,
    (lo, hi): (f64, f64),
    tie: f64,
    chart_name: &str,
) -> Result<(String, Mark), DrawError> {
    let f = 1.0 + tie;
    let band = RGBColor(200, 200, 200).mix(0.5).filled();
    chart
        .draw_series(std::iter::once(Polygon::new(
            vec![(lo, lo / f), (hi, hi / f), (hi, hi * f), (lo, lo * f)],
            band,
        )))
        .map_err(|e| draw_error(chart_name, e))?;
    let entry = (
        format!("a tie: within a factor {} either way", compact(f)),
        Mark::Swatch(band),
    );
    chart
        .draw_series(std::iter::once(PathElement::new(
            [(lo, lo), (hi, hi)],
            BLACK.mix(0.6).stroke_width(1),
        )))
        .map_err(|e| draw_error(chart_name, e))?;
    Ok(entry)
}

/// [`versus`]'s dashed frame lines at `frame_at` across `lo..edge`, where
/// the puzzles only one solver (or neither) solved sit.
fn frame_lines<'a, 'b: 'a>(
    chart: &mut LogLog<'a, 'b>,
    (lo, edge): (f64, f64),
    frame_at: f64,
    chart_name: &str,
) -> Result<(), DrawError> {
    let dashed = BLACK.mix(0.5).stroke_width(1);
    for line in [
        [(lo, frame_at), (edge, frame_at)],
        [(frame_at, lo), (frame_at, edge)],
    ] {
        chart
            .draw_series(DashedLineSeries::new(line, 4, 4, dashed))
            .map_err(|e| draw_error(chart_name, e))?;
    }
    Ok(())
}

/// [`versus`]'s puzzles: a dot at (A's time, B's time) for each both
/// solved, a cross on the frame line (`frame_at`) for each only one solved
/// and in the corner for each neither solved; returns their legend entries
/// (a kind with no puzzle has none).
fn pair_marks<'a, 'b: 'a>(
    chart: &mut LogLog<'a, 'b>,
    (a, b): (&str, &str),
    points: &[PairPoint],
    frame_at: f64,
    chart_name: &str,
) -> Result<Vec<(String, Mark)>, DrawError> {
    let count = |k: PairKind| points.iter().filter(|p| p.0 == k).count();
    let both = colour(0).mix(0.45).filled();
    let solid = colour(0).filled();
    chart
        .draw_series(
            points
                .iter()
                .filter(|p| p.0 == PairKind::Both)
                .map(|&(_, x, y)| Circle::new((x, y), 2, both)),
        )
        .map_err(|e| draw_error(chart_name, e))?;
    let mut entries = vec![(
        format!(
            "both solved: {} (below the diagonal: {b} faster)",
            count(PairKind::Both)
        ),
        Mark::Dot(solid),
    )];
    let marks = [
        (
            PairKind::OnlyA,
            colour(1),
            format!("only {a} solved (top edge)"),
        ),
        (
            PairKind::OnlyB,
            colour(2),
            format!("only {b} solved (right edge)"),
        ),
        (
            PairKind::Neither,
            colour(6),
            "neither solved (corner)".to_string(),
        ),
    ];
    for (kind, c, text) in marks {
        let n = count(kind);
        if n == 0 {
            continue;
        }
        let style = c.stroke_width(2);
        chart
            .draw_series(points.iter().filter(|p| p.0 == kind).map(|&(_, x, y)| {
                let at = match kind {
                    PairKind::OnlyA => (x, frame_at),
                    PairKind::OnlyB => (frame_at, y),
                    _ => (frame_at, frame_at),
                };
                Cross::new(at, 4, style)
            }))
            .map_err(|e| draw_error(chart_name, e))?;
        entries.push((format!("{text}: {n}"), Mark::Cross(style)));
    }
    Ok(entries)
}

/// Time against search cost per puzzle, log-log, one colour per series,
/// whose points are (cost + 1, ns): the cost per node at a glance, and the
/// outliers. `x_desc` says what the cost is.
pub fn scatter(title: &str, x_desc: &str, series: &[Series]) -> Result<String, DrawError> {
    let chart_name = "the cost scatter plot";
    let (x0, x1) = log_range(xs(series));
    let (y0, y1) = log_range(ys(series));
    svg_beside(chart_name, |root| {
        let mut chart = frame(
            root,
            title,
            70,
            (x0..x1).log_scale(),
            (y0..y1).log_scale(),
            chart_name,
        )?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc("latency (log scale)")
            .x_labels(6)
            .x_label_formatter(&|x| compact(*x))
            .y_label_formatter(&|y| human_ns(*y))
            .draw()
            .map_err(|e| draw_error(chart_name, e))?;
        let mut entries = Vec::new();
        for s in series {
            let fill = colour(s.colour).mix(0.35).filled();
            let solid = colour(s.colour).filled();
            chart
                .draw_series(s.points.iter().map(|&p| Circle::new(p, 2, fill)))
                .map_err(|e| draw_error(chart_name, e))?;
            entries.push((s.name.clone(), Mark::Dot(solid)));
        }
        Ok(entries)
    })
}

/// Relative speed against the reference: one bar per solver from 1 to its
/// paired speed ratio (the table's number; log scale: bars to the right
/// are faster) with its 95% interval as a line across the bar's end, and
/// the ratios of the run's 50th, 90th and 99th percentiles marked on it.
pub fn speed(title: &str, reference: &str, bars: &[SpeedBar]) -> Result<String, DrawError> {
    let chart_name = "the relative-speed chart";
    let (x0, x1) = speed_range(bars);
    let n = bars.len().max(1) as f64;
    svg(chart_name, |root| {
        // Headroom above the bars for the legend.
        let mut chart = frame(
            root,
            title,
            10,
            (x0..x1).log_scale(),
            -0.6f64..(n + 0.6),
            chart_name,
        )?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .disable_y_axis()
            .x_desc(format!(
                "speed relative to {reference} (log scale; right of 1: faster)"
            ))
            // A narrow log range gets a label per tenth, and "0.8x0.9x"
            // ran together: only labels far enough apart are written.
            .x_label_formatter(&spaced(x0, x1, SIZE.0 as f64 - 40.0))
            .draw()
            .map_err(|e| draw_error(chart_name, e))?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                [(1.0, -0.6), (1.0, n + 0.6)],
                BLACK.stroke_width(1),
            )))
            .map_err(|e| draw_error(chart_name, e))?;
        let marks: [(&str, ShapeStyle); 3] = [
            ("p50", BLACK.filled()),
            ("p90", BLACK.stroke_width(2)),
            ("p99", RGBColor(120, 120, 120).filled()),
        ];
        for (i, b) in bars.iter().enumerate() {
            let y = n - 1.0 - i as f64;
            speed_bar(&mut chart, b, (x0, y), &marks, chart_name)?;
        }
        for (name, style) in marks {
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), u32>>())
                .map_err(|e| draw_error(chart_name, e))?
                .label(format!("{name} latency ratio"))
                .legend(move |(x, y)| Circle::new((x + 7, y), 4, style));
        }
        legend(&mut chart, SeriesLabelPosition::UpperMiddle, chart_name)
    })
}

/// [`speed`]'s x range: every ratio and interval end of `bars`, and 1,
/// with room on the left for the names.
fn speed_range(bars: &[SpeedBar]) -> (f64, f64) {
    let (mut x0, mut x1) = log_range(
        bars.iter()
            .flat_map(|b| {
                [
                    Some(b.mean),
                    b.interval.map(|i| i.0),
                    b.interval.map(|i| i.1),
                ]
                .into_iter()
                .chain(b.percentiles)
            })
            .flatten()
            .chain([1.0]),
    );
    // Room on the left for the names.
    x0 /= (x1 / x0).powf(0.25);
    x1 *= 1.05;
    (x0, x1)
}

/// One bar of [`speed`] at height `y` (its name written from `x0`): from
/// 1 to the ratio, its interval as a line with end ticks, and its
/// percentile ratios in the styles of `marks`.
fn speed_bar<'a, 'b: 'a>(
    chart: &mut Chart<'a, 'b, LogCoord<f64>, RangedCoordf64>,
    b: &SpeedBar,
    (x0, y): (f64, f64),
    marks: &[(&str, ShapeStyle); 3],
    chart_name: &str,
) -> Result<(), DrawError> {
    let style = colour(b.colour).mix(0.8).filled();
    let (lo, hi) = if b.mean >= 1.0 {
        (1.0, b.mean)
    } else {
        (b.mean, 1.0)
    };
    // Each bar is labelled by name: the legend explains the marks.
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(lo, y - 0.3), (hi, y + 0.3)],
            style,
        )))
        .map_err(|e| draw_error(chart_name, e))?;
    chart
        .draw_series(std::iter::once(Text::new(
            format!("{} {}x", b.name, compact(b.mean)),
            (x0 * 1.02, y + 0.1),
            ("sans-serif", 13).into_font(),
        )))
        .map_err(|e| draw_error(chart_name, e))?;
    if let Some((low, high)) = b.interval {
        chart
            .draw_series(std::iter::once(PathElement::new(
                [(low, y), (high, y)],
                BLACK.stroke_width(2),
            )))
            .map_err(|e| draw_error(chart_name, e))?;
        for x in [low, high] {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    [(x, y - 0.15), (x, y + 0.15)],
                    BLACK.stroke_width(2),
                )))
                .map_err(|e| draw_error(chart_name, e))?;
        }
    }
    for (k, (_, style)) in marks.iter().enumerate() {
        if let Some(r) = b.percentiles[k] {
            chart
                .draw_series(std::iter::once(Circle::new((r, y), 4, *style)))
                .map_err(|e| draw_error(chart_name, e))?;
        }
    }
    Ok(())
}

/// The distribution of per-puzzle ratios (log scale): one bar per bin,
/// whose entries are (low, high, puzzles), with the band 1 ± threshold
/// shaded, the interval shaded darker and the geometric mean drawn as a
/// line.
pub fn ratios(
    title: &str,
    bins: &[(f64, f64, u64)],
    marks: RatioMarks,
) -> Result<String, DrawError> {
    let chart_name = "the ratio distribution";
    let t = marks.threshold;
    let (x0, x1) = log_range(
        [marks.range.0, marks.range.1]
            .into_iter()
            .chain([1.0 - t.min(0.5), 1.0 + t])
            .chain(marks.estimate.into_iter().flat_map(|(e, l, h)| [e, l, h])),
    );
    let bins: Vec<(f64, f64, u64)> = bins
        .iter()
        .copied()
        .filter(|b| b.2 > 0 && b.0 >= x0 && b.1 <= x1)
        .collect();
    let top = bins.iter().map(|b| b.2).max().unwrap_or(1).max(1) as f64 * 1.1;
    svg(chart_name, |root| {
        let mut chart = frame(root, title, 60, (x0..x1).log_scale(), 0f64..top, chart_name)?;
        chart
            .configure_mesh()
            .x_desc("time ratio per puzzle (log scale; above 1: slower)")
            .y_desc("puzzles")
            // Labels far enough apart only, as in the speed chart.
            .x_label_formatter(&spaced(x0, x1, SIZE.0 as f64 - 90.0))
            .y_label_formatter(&|y| compact(*y))
            .draw()
            .map_err(|e| draw_error(chart_name, e))?;
        let band = RGBColor(200, 200, 200).mix(0.5).filled();
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(1.0 - t, 0.0), (1.0 + t, top)],
                band,
            )))
            .map_err(|e| draw_error(chart_name, e))?
            .label(format!("threshold 1 ± {}%", compact(t * 100.0)))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], band));
        let bar = colour(0).mix(0.75).filled();
        chart
            .draw_series(
                bins.iter()
                    .filter(|b| b.2 > 0)
                    .map(|&(lo, hi, c)| Rectangle::new([(lo, 0.0), (hi, c as f64)], bar)),
            )
            .map_err(|e| draw_error(chart_name, e))?
            .label("puzzles")
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], bar));
        if let Some((estimate, low, high)) = marks.estimate {
            let shade = colour(1).mix(0.3).filled();
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(low, 0.0), (high, top)],
                    shade,
                )))
                .map_err(|e| draw_error(chart_name, e))?
                .label(format!("interval {}x to {}x", compact(low), compact(high)))
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], shade));
            let line = colour(1).stroke_width(2);
            chart
                .draw_series(std::iter::once(PathElement::new(
                    [(estimate, 0.0), (estimate, top)],
                    line,
                )))
                .map_err(|e| draw_error(chart_name, e))?
                .label(format!("geometric mean {}x", compact(estimate)))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], line));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight, chart_name)
    })
}

/// A chart on an SVG canvas, over the coordinates `X` and `Y`.
type Chart<'a, 'b, X, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>;

/// The chart's frame: its caption, margins and axis areas (`y_area`
/// pixels for the y labels), over the ranges `x` and `y`.
// What the charts share of their frames is here; each chart's mesh (axis
// words, labels) is its own, alike in shape on purpose.
fn frame<'a, 'b, X: AsRangedCoord, Y: AsRangedCoord>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    title: &str,
    y_area: u32,
    x: X,
    y: Y,
    chart_name: &str,
) -> Result<Chart<'a, 'b, X::CoordDescType, Y::CoordDescType>, DrawError> {
    ChartBuilder::on(root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(y_area)
        .build_cartesian_2d(x, y)
        .map_err(|e| draw_error(chart_name, e))
}

fn legend<'a, 'b: 'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>,
    at: SeriesLabelPosition,
    chart_name: &str,
) -> Result<(), DrawError>
where
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    chart
        .configure_series_labels()
        .position(at)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()
        .map_err(|e| draw_error(chart_name, e))
}

/// The least room between two ratio labels' positions, in SVG pixels: a
/// label such as `0.85x` is about 30 wide.
const LABEL_ROOM: f64 = 48.0;

/// A formatter of ratio labels (`1.2x`) on a log axis from `x0` to `x1`,
/// `width` pixels long, that writes a label only where it stands at least
/// [`LABEL_ROOM`] pixels right of the last one written (the mesh asks for
/// them left to right; a value not above the last starts a new pass).
fn spaced(x0: f64, x1: f64, width: f64) -> impl Fn(&f64) -> String {
    let per_ln = width / (x1 / x0).ln().max(1e-9);
    let last = std::cell::Cell::new(None::<f64>);
    move |&x| match last.get() {
        Some(l) if x > l && (x / l).ln() * per_ln < LABEL_ROOM => String::new(),
        _ => {
            last.set(Some(x));
            format!("{}x", compact(x))
        }
    }
}

/// One corpus x solver over commits, for [`over_commits`]: plain data, in
/// commit order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CommitSeries {
    /// Each commit's label (a short revision: at most 8 characters fit
    /// under a chart of 8 labels).
    pub labels: Vec<String>,
    /// Each commit's mean time and its interval, ns: (mean, low, high).
    pub times: Vec<Option<(f64, f64, f64)>>,
    /// Each commit's total node count.
    pub nodes: Vec<Option<u64>>,
    /// The commits where time steps (indices).
    pub time_steps: Vec<usize>,
    /// The commits where node counts step.
    pub node_steps: Vec<usize>,
    /// The commits whose time is an outlier.
    pub outliers: Vec<usize>,
}

/// A range around `values` (finite ones), widened by a tenth each way.
fn linear_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = match hi - lo {
        d if d > 0.0 => d / 10.0,
        _ => lo.abs().max(1.0) / 10.0,
    };
    (lo - pad, hi + pad)
}

/// The history of one corpus x solver over commits, in two panels on one
/// x axis of commits: above, each commit's mean time with its interval
/// (outliers crossed), below, its total node count; a vertical line
/// before each commit where a figure steps (dashed: time, solid: nodes).
pub fn over_commits(title: &str, s: &CommitSeries) -> Result<String, DrawError> {
    let chart_name = "the history chart";
    let n = s.labels.len().max(1);
    let x = -0.5f64..(n as f64 - 0.5);
    let (n0, n1) = linear_range(s.nodes.iter().flatten().map(|v| *v as f64));
    let step = RGBColor(192, 57, 43);
    svg_beside(chart_name, |root| {
        let (top, bottom) = root.split_vertically(SIZE.1 * 3 / 5);
        time_panel(&top, title, s, x.clone(), step, chart_name)?;
        node_panel(&bottom, s, x, (n0, n1), step, chart_name)?;
        Ok(vec![
            (
                "mean time and its 95% interval".to_string(),
                Mark::Dot(colour(0).filled()),
            ),
            (
                "time outlier".to_string(),
                Mark::Cross(step.stroke_width(2)),
            ),
            ("time step".to_string(), Mark::Dashed(step.stroke_width(2))),
            (
                "total nodes".to_string(),
                Mark::Line(colour(1).stroke_width(2)),
            ),
            (
                "node-count step".to_string(),
                Mark::Line(step.stroke_width(2)),
            ),
        ])
    })
}

/// The upper panel of [`over_commits`]: each commit's mean time with its
/// interval, outliers crossed, time steps dashed.
fn time_panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    title: &str,
    s: &CommitSeries,
    x: std::ops::Range<f64>,
    step: RGBColor,
    chart_name: &str,
) -> Result<(), DrawError> {
    let (t0, t1) = linear_range(s.times.iter().flatten().flat_map(|t| [t.1, t.2]));
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(8)
        .y_label_area_size(80)
        .build_cartesian_2d(x, t0..t1)
        .map_err(|e| draw_error(chart_name, e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc("mean time")
        .y_labels(5)
        .y_label_formatter(&|y| human_ns(*y))
        .draw()
        .map_err(|e| draw_error(chart_name, e))?;
    let bars = s.times.iter().enumerate().filter_map(|(i, t)| {
        t.map(|t| PathElement::new([(i as f64, t.1), (i as f64, t.2)], colour(0)))
    });
    chart
        .draw_series(bars)
        .map_err(|e| draw_error(chart_name, e))?;
    let dots = s.times.iter().enumerate().filter_map(|(i, t)| {
        let t = (*t)?;
        match s.outliers.contains(&i) {
            true => Some(Cross::new((i as f64, t.0), 5, step.stroke_width(2)).into_dyn()),
            false => Some(Circle::new((i as f64, t.0), 3, colour(0).filled()).into_dyn()),
        }
    });
    chart
        .draw_series(dots)
        .map_err(|e| draw_error(chart_name, e))?;
    for &i in &s.time_steps {
        dashed_vertical(&mut chart, i as f64 - 0.5, (t0, t1), step, chart_name)?;
    }
    Ok(())
}

/// A dashed vertical line at `x` across `y`.
fn dashed_vertical<'a, 'b: 'a>(
    chart: &mut ChartContext<
        'a,
        SVGBackend<'b>,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    x: f64,
    y: (f64, f64),
    colour: RGBColor,
    chart_name: &str,
) -> Result<(), DrawError> {
    let pieces = 24;
    let dy = (y.1 - y.0) / pieces as f64;
    let dashes = (0..pieces).step_by(2).map(|k| {
        let from = y.0 + dy * k as f64;
        PathElement::new([(x, from), (x, from + dy)], colour.stroke_width(2))
    });
    chart
        .draw_series(dashes)
        .map_err(|e| draw_error(chart_name, e))?;
    Ok(())
}

/// The x axis of [`over_commits`]: linear, its ticks on the commits given
/// (plotters' own picks are "nice" numbers, which may fall between
/// commits and leave them unlabelled).
struct CommitAxis {
    range: plotters::coord::types::RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ranged for CommitAxis {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.range.map(value, limit)
    }

    fn key_points<Hint: plotters::coord::ranged1d::KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        match hint.max_num_points() {
            0 => Vec::new(),
            _ => self.ticks.clone(),
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.range.range()
    }
}

/// The lower panel of [`over_commits`]: total nodes per commit, the
/// commits labelled below.
fn node_panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    s: &CommitSeries,
    x: std::ops::Range<f64>,
    y: (f64, f64),
    step: RGBColor,
    chart_name: &str,
) -> Result<(), DrawError> {
    // Ticks on the commits themselves (plotters' own picks fall between
    // them, unlabelled), at most 8: every k-th commit.
    let n = s.labels.len();
    let every = n.div_ceil(8).max(1);
    let ticks: Vec<f64> = (0..n).step_by(every).map(|i| i as f64).collect();
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(
            CommitAxis {
                range: x.into(),
                ticks,
            },
            y.0..y.1,
        )
        .map_err(|e| draw_error(chart_name, e))?;
    let label = |v: &f64| {
        let i = v.round();
        match (v - i).abs() < 1e-6 && i >= 0.0 {
            true => s.labels.get(i as usize).cloned().unwrap_or_default(),
            false => String::new(),
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_label_formatter(&label)
        .y_desc("total nodes")
        .y_labels(4)
        .y_label_formatter(&|v| crate::report::thousands(v.round().max(0.0) as u64))
        .draw()
        .map_err(|e| draw_error(chart_name, e))?;
    let line: Vec<(f64, f64)> = s
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (i as f64, v as f64)))
        .collect();
    chart
        .draw_series(LineSeries::new(line.clone(), colour(1).stroke_width(2)))
        .map_err(|e| draw_error(chart_name, e))?;
    chart
        .draw_series(line.iter().map(|&p| Circle::new(p, 3, colour(1).filled())))
        .map_err(|e| draw_error(chart_name, e))?;
    for &i in &s.node_steps {
        let at = i as f64 - 0.5;
        chart
            .draw_series([PathElement::new(
                [(at, y.0), (at, y.1)],
                step.stroke_width(2),
            )])
            .map_err(|e| draw_error(chart_name, e))?;
    }
    Ok(())
}

/// A number for an axis label: three significant figures, no trailing
/// zeros, thousands as `k` and millions as `M`.
pub fn compact(x: f64) -> String {
    let (v, suffix) = if x.abs() >= 1e6 {
        (x / 1e6, "M")
    } else if x.abs() >= 1e4 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    // Three significant figures, however small.
    let digits = if v == 0.0 || !v.is_finite() {
        0
    } else {
        (2 - v.abs().log10().floor() as i32).max(0) as usize
    };
    let s = format!("{v:.digits$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    format!("{s}{suffix}")
}

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(nines_label(0.0), "0%");
        assert_eq!(nines_label(1.0), "90%");
        assert_eq!(nines_label(2.0), "99%");
        assert_eq!(nines_label(3.0), "99.9%");
        assert_eq!(nines_label(5.0), "99.999%");
        assert_eq!(compact(1.0), "1");
        assert_eq!(compact(0.25), "0.25");
        assert_eq!(compact(0.0003), "0.0003");
        assert_eq!(compact(0.001234), "0.00123");
        assert_eq!(compact(0.0), "0");
        assert_eq!(compact(1.034), "1.03");
        assert_eq!(compact(12_345.0), "12.3k");
        assert_eq!(compact(2_500_000.0), "2.5M");
        assert_eq!(colour_hex(0), "#0072B2");
    }

    /// The `<text>` elements of an SVG: (x, text).
    fn texts(svg: &str) -> Vec<(f64, String)> {
        let mut out = Vec::new();
        for part in svg.split("<text").skip(1) {
            let x = part
                .split("x=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|v| v.parse().ok())
                .unwrap();
            let body = part.split('>').nth(1).unwrap().split('<').next().unwrap();
            out.push((x, body.trim().to_string()));
        }
        out
    }

    #[test]
    fn narrow_ratio_axes_keep_their_labels_apart() {
        // The README run's ratios: from 0.068 to 1.55, a label per
        // hundredth and tenth, crowded at the top of each decade.
        let bars = [1.0, 0.44, 0.88, 1.55, 1.55, 0.0684].map(|m| SpeedBar {
            name: format!("s{m}"),
            colour: 0,
            mean: m,
            interval: Some((m * 0.98, m * 1.02)),
            percentiles: [Some(m), Some(m * 1.01), None],
        });
        let svg = speed("narrow", "dlx", &bars).unwrap();
        // The axis's labels (the bars' names stand at the left edge); one
        // drawn twice at the same place is one label.
        let mut ticks: Vec<f64> = texts(&svg)
            .into_iter()
            .filter(|(x, t)| t.ends_with('x') && !t.contains(' ') && *x > 100.0)
            .map(|(x, _)| x)
            .collect();
        ticks.sort_by(f64::total_cmp);
        ticks.dedup();
        assert!(ticks.len() >= 4, "{ticks:?}");
        assert!(ticks.len() >= 2, "{ticks:?} {:?}", texts(&svg));
        // A label like "0.85x" is about 30 pixels wide at the axis's size.
        assert!(
            ticks.windows(2).all(|w| w[1] - w[0] > 40.0),
            "labels run together: {ticks:?} {:?}",
            texts(&svg)
        );
    }

    #[test]
    fn legends_stand_beside_the_plot() {
        let series = [Series {
            name: "dlx: 1,000 of 1,000 solved".into(),
            colour: 0,
            points: (1..=100)
                .map(|i| (i as f64 * 1e3, i as f64 * 10.0))
                .collect(),
        }];
        let plot_right = (SIZE.0 - LEGEND_WIDTH) as f64;
        for svg in [
            solved_within("t", 1000, "puzzles solved within it", &series).unwrap(),
            scatter("t", "nodes", &series).unwrap(),
            versus(
                "t",
                "a",
                "b",
                0.25,
                &[(PairKind::Both, 1e3, 2e3), (PairKind::OnlyA, 5e3, 0.0)],
            )
            .unwrap(),
        ] {
            let legend: Vec<(f64, String)> = texts(&svg)
                .into_iter()
                .filter(|(_, t)| {
                    ["dlx", "both", "only", "a tie", "all "]
                        .iter()
                        .any(|p| t.starts_with(p))
                })
                .collect();
            assert!(!legend.is_empty());
            for (x, t) in legend {
                assert!(
                    x >= plot_right,
                    "`{t}` at {x}, in the plot (right edge {plot_right})"
                );
            }
        }
    }

    /// The right end of each `<text>` of an SVG, estimated from its
    /// anchor, font size and length (a character about 0.55 of the size
    /// wide in a sans-serif font), with the text.
    fn text_ends(svg: &str) -> Vec<(f64, String)> {
        let attr = |part: &str, name: &str| -> Option<String> {
            let v = part.split(&format!(" {name}=\"")).nth(1)?;
            Some(v.split('"').next()?.to_string())
        };
        svg.split("<text")
            .skip(1)
            .map(|part| {
                let x: f64 = attr(part, "x").unwrap().parse().unwrap();
                let size: f64 = attr(part, "font-size").unwrap().parse().unwrap();
                let body = part.split('>').nth(1).unwrap().split('<').next().unwrap();
                let body = body.trim().to_string();
                let width = body.chars().count() as f64 * size * 0.55;
                let end = match attr(part, "text-anchor").as_deref() {
                    Some("middle") => x + width / 2.0,
                    Some("end") => x,
                    _ => x + width,
                };
                (end, body)
            })
            .collect()
    }

    /// No label runs off the canvas: the percentile plot's last label
    /// (`99.9%`, centred on the axis's end) was cut at the right edge.
    #[test]
    fn labels_stay_on_the_canvas() {
        let curve = |points: Vec<(f64, f64)>| {
            [Series {
                name: "heuristic: 1,465 of 1,465 solved".into(),
                colour: 0,
                points,
            }]
        };
        let nines = curve(
            (0..=30)
                .map(|i| (i as f64 / 10.0, 1e3 * (1.0 + i as f64)))
                .collect(),
        );
        let deep = curve(
            (0..=50)
                .map(|i| (i as f64 / 10.0, 1e3 * (1.0 + i as f64)))
                .collect(),
        );
        let times = curve(
            (1..=100)
                .map(|i| (i as f64 * 1e5, i as f64 * 10.0))
                .collect(),
        );
        let bars = [1.0, 0.5, 2.2].map(|m| SpeedBar {
            name: format!("heuristic {m}"),
            colour: 0,
            mean: m,
            interval: Some((m * 0.9, m * 1.1)),
            percentiles: [Some(m), Some(m * 1.5), Some(m * 9.0)],
        });
        for svg in [
            percentiles("top1465: latency by percentile", &nines).unwrap(),
            percentiles("top1465: latency by percentile", &deep).unwrap(),
            solved_within("t", 1465, "puzzles solved within it", &times).unwrap(),
            scatter("t", "search nodes + 1 (log scale)", &times).unwrap(),
            speed("t", "dlx", &bars).unwrap(),
            versus("t", "dlx", "heuristic", 0.25, &[(PairKind::Both, 1e4, 2e7)]).unwrap(),
        ] {
            for (end, text) in text_ends(&svg) {
                assert!(
                    end <= SIZE.0 as f64,
                    "`{text}` runs off the canvas (to {end:.0}, width {})",
                    SIZE.0
                );
            }
        }
    }

    #[test]
    fn a_chart_of_nothing_still_draws() {
        let svg = percentiles("empty", &[]).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        let svg = ratios(
            "empty",
            &[],
            RatioMarks {
                range: (0.5, 2.0),
                estimate: None,
                threshold: 0.01,
            },
        )
        .unwrap();
        assert!(svg.contains("</svg>"));
    }

    /// The lines and crosses of the step colour in `svg`.
    fn step_marks(svg: &str) -> usize {
        let doc = roxmltree::Document::parse(svg).expect("the SVG parses");
        doc.descendants()
            .filter(|n| n.attribute("stroke") == Some("#C0392B"))
            .count()
    }

    #[test]
    fn the_history_chart_marks_steps_and_outliers_only() {
        let mut s = CommitSeries {
            labels: (0..6).map(|i| format!("c{i}")).collect(),
            times: (0..6)
                .map(|i| Some((100.0 + i as f64, 95.0, 110.0)))
                .collect(),
            nodes: vec![Some(5), Some(5), None, Some(5), Some(5), Some(5)],
            ..CommitSeries::default()
        };
        let calm = over_commits("t", &s).unwrap();
        // Only the legend's three marks (a time step's dashes count as two).
        let legend = step_marks(&calm);
        s.time_steps = vec![3];
        s.node_steps = vec![4];
        s.outliers = vec![1];
        let marked = over_commits("t", &s).unwrap();
        // 12 dashes, one line, one cross (two strokes).
        assert_eq!(step_marks(&marked), legend + 12 + 1 + 2);
        for i in 0..6 {
            assert!(
                marked.contains(&format!("\nc{i}\n")),
                "commit {i} is labelled"
            );
        }
        // Over 8 commits, every k-th (here every 2nd of 12).
        s.labels = (0..12).map(|i| format!("c{i}")).collect();
        s.times = vec![Some((100.0, 95.0, 110.0)); 12];
        s.nodes = vec![Some(5); 12];
        let many = over_commits("t", &s).unwrap();
        for i in 0..12 {
            assert_eq!(
                many.contains(&format!("\nc{i}\n")),
                i % 2 == 0,
                "commit {i}"
            );
        }
    }
}

//! `<corpus>.<solver>.hgrm` (`<corpus>`: the corpus's file stem,
//! [`schema::file_stems`]): the HdrHistogram percentile distribution text
//! (as `outputPercentileDistribution` writes it), values in microseconds,
//! five ticks per half distance. HdrHistogram's plotting page reads it.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use hdrhistogram::Histogram;

use super::{schema, Report, RunMeta};
use crate::atomic::AtomicFile;
use crate::harness::{Config, RunResult};

/// Writes one `.hgrm` file per corpus x solver.
#[derive(Debug, Clone, Copy)]
pub struct Hgrm;

/// Nanoseconds per output unit (microseconds).
const SCALE: f64 = 1000.0;

/// The percentile distribution of `h` (values in ns, printed in µs).
pub fn render(h: &Histogram<u64>) -> String {
    let p = 3; // decimals, as the significant figures
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>12} {:>14} {:>10} {:>14}\n",
        "Value", "Percentile", "TotalCount", "1/(1-Percentile)"
    );
    let mut total = 0u64;
    if !h.is_empty() {
        for v in h.iter_quantiles(5) {
            total += v.count_since_last_iteration();
            let q = v.quantile_iterated_to();
            let value = v.value_iterated_to() as f64 / SCALE;
            if q < 1.0 {
                let _ = writeln!(
                    out,
                    "{value:12.p$} {q:2.12} {total:10} {:14.2}",
                    1.0 / (1.0 - q)
                );
            } else {
                let _ = writeln!(out, "{value:12.p$} {q:2.12} {total:10}");
            }
        }
    }
    let (mean, sd, max) = if h.is_empty() {
        (0.0, 0.0, 0.0)
    } else {
        (h.mean() / SCALE, h.stdev() / SCALE, h.max() as f64 / SCALE)
    };
    let _ = writeln!(
        out,
        "#[Mean    = {mean:12.p$}, StdDeviation   = {sd:12.p$}]"
    );
    let _ = writeln!(
        out,
        "#[Max     = {max:12.p$}, Total count    = {:12}]",
        h.len()
    );
    let sub_buckets = (2 * 10u64.pow(u32::from(h.sigfig()))).next_power_of_two();
    let _ = writeln!(
        out,
        "#[Buckets = {:12}, SubBuckets     = {:12}]",
        h.buckets(),
        sub_buckets
    );
    out
}

// Repeats the signature of `Report::write`, as every format does (see the trait).
impl Report for Hgrm {
    fn write(
        &self,
        run: &RunResult,
        _config: &Config,
        _meta: &RunMeta,
        dir: &Path,
    ) -> std::io::Result<Vec<PathBuf>> {
        let mut paths = Vec::new();
        let names: Vec<&str> = run.corpora.iter().map(|c| c.name.as_str()).collect();
        for (c, stem) in run.corpora.iter().zip(schema::file_stems(&names)) {
            for s in &c.solvers {
                let name = schema::hgrm_file(&stem, &s.name);
                let mut f = AtomicFile::create(&dir.join(name))?;
                f.write_all(render(&s.histogram).as_bytes())?;
                paths.push(f.commit()?);
            }
        }
        Ok(paths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distribution_lines_parse_and_end_at_the_maximum() {
        let mut h = Histogram::<u64>::new_with_bounds(1, 60_000_000_000, 3).unwrap();
        for v in 1..=1000u64 {
            h.record(v * 1000).unwrap();
        }
        let text = render(&h);
        let rows: Vec<Vec<f64>> = text
            .lines()
            .skip(2)
            .take_while(|l| !l.starts_with('#'))
            .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
            .collect();
        assert!(rows.len() > 20);
        let last = rows.last().unwrap();
        assert_eq!(last.len(), 3);
        assert_eq!(last[1], 1.0);
        assert_eq!(last[2], 1000.0);
        assert!(
            (last[0] - 1000.0).abs() < 1.0,
            "max 1000 µs, got {}",
            last[0]
        );
        assert!(
            text.contains("#[Max     =     1000.447, Total count    =         1000]"),
            "{text}"
        );
        assert!(text.contains("SubBuckets     =         2048]"));
    }
}

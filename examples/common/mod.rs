//! What the exact-cover examples share: the `--engine` flag.

use dlxbench::exact_cover::{EngineKind, SearchStats};

/// Takes `--engine NAME` (or `--engine=NAME`) out of `args`: the engine to
/// count with, Dancing Links (`dlx`, the default) or dancing cells (`dc`).
pub fn take_engine(args: &mut Vec<String>) -> Result<EngineKind, String> {
    let mut engine = EngineKind::default();
    let mut i = 0;
    while i < args.len() {
        let value = if args[i] == "--engine" {
            if i + 1 == args.len() {
                return Err("--engine needs a value: dlx or dc".to_string());
            }
            args.remove(i);
            args.remove(i)
        } else if let Some(v) = args[i].strip_prefix("--engine=") {
            let v = v.to_string();
            args.remove(i);
            v
        } else {
            i += 1;
            continue;
        };
        engine = value.parse().map_err(|e| format!("{e}"))?;
    }
    Ok(engine)
}

/// `, N mems` for an engine that counts them, nothing otherwise.
pub fn mems(stats: &SearchStats) -> String {
    stats.mems.map_or(String::new(), |m| format!(", {m} mems"))
}

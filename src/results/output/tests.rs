use super::ab::{NodesJson, RatioJson, AB_FORMAT};
use super::compare::CounterChange;
use super::export::{Bmf, BmfValue, GabEntry};
use super::*;
use crate::results::to_json;

fn ratio(name: &str, estimate: Option<f64>) -> RatioJson {
    RatioJson {
        name: name.into(),
        puzzles: 150,
        units: 2,
        estimate,
        low: estimate.map(|e| e * 0.9),
        high: estimate.map(|e| e * 1.1),
        half_width: estimate.map(|_| 0.1),
    }
}

fn ab(a: &str, b: &str, aa: Option<AaJson>) -> AbJson {
    AbJson {
        format: AB_FORMAT.into(),
        a: a.into(),
        b: b.into(),
        method: "student-t over pairs of passes".into(),
        unit: "pair of passes".into(),
        units: 2,
        passes: 5,
        warmup_passes: 1,
        stop: "passes".into(),
        overall: ratio("all", Some(1.0123456789)),
        corpora: vec![ratio("c1", Some(0.5)), ratio("c2", None)],
        verdict: "no_change".into(),
        judged_at: 0.05,
        floor: None,
        pass_ratios: vec![Some(1.25), None, Some(0.1 + 0.2)],
        work: Some(WorkJson {
            puzzles: 150,
            time_ratio: 1.5,
            nodes_ratio: 1.0,
            per_node_ratio: 1.5,
            cause: Some("per_node".into()),
        }),
        nodes: NodesJson {
            a: Some(11_861),
            b: None,
            puzzles_changed: 63,
            outcomes_changed: 0,
        },
        discrepancies: 0,
        failed_solves: 1,
        threads: 2,
        elapsed_s: 3.4,
        layout: None,
        aa: aa.map(Box::new),
    }
}

/// `value` written as dlxbench writes it and read back.
fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(value: &T) -> (String, T) {
    let text = to_json(value).unwrap();
    let back = serde_json::from_str(&text).unwrap();
    (text, back)
}

#[test]
fn an_ab_with_its_a_a_round_trips_and_the_a_a_sits_in_one_object() {
    let aa = AaJson {
        ab: ab("dc", "dc.copy", None),
        false_verdict: false,
        measured_floor: Some(0.6469),
    };
    let doc = ab("dlx", "dc", Some(aa));
    let (text, back) = round_trip(&doc);
    assert_eq!(back, doc);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The A/A's own fields and what it measured side by side, and no
    // `aa` inside it.
    assert_eq!(v["aa"]["b"], "dc.copy");
    assert_eq!(v["aa"]["false_verdict"], false);
    assert_eq!(v["aa"]["measured_floor"], 0.6469);
    assert!(v["aa"].get("aa").is_none(), "{text}");
    assert_eq!(v["format"], "dlxbench-ab/1");
    assert_eq!(v["aa"]["format"], "dlxbench-ab/1");
    // A file from before the tag: the same shape without `format`.
    let mut old = v.clone();
    old.as_object_mut().unwrap().remove("format");
    old["aa"].as_object_mut().unwrap().remove("format");
    let read: AbJson = serde_json::from_value(old).unwrap();
    assert_eq!((read.format.as_str(), read.a.as_str()), ("", "dlx"));
    // Without an A/A, no `aa` key at all (not `null`).
    let (text, back) = round_trip(&ab("dlx", "dc", None));
    assert!(back.aa.is_none());
    assert!(!text.contains("\"aa\""), "{text}");
}

#[test]
fn a_counter_change_is_a_percentage_of_the_baseline() {
    assert_eq!(CounterChange::of((200, 150)).change_pct, Some(-25.0));
    assert_eq!(CounterChange::of((0, 0)).change_pct, Some(0.0));
    assert_eq!(CounterChange::of((0, 5)).change_pct, None);
    let c = CounterChange::of((3, 4));
    assert_eq!((c.baseline, c.current), (3, 4));
    assert_eq!(round_trip(&c).1, c);
}

#[test]
fn export_bounds_are_left_out_when_absent_and_round_trip() {
    let mut bmf = Bmf::new();
    let with = BmfValue {
        value: 10.0,
        lower_value: Some(9.5),
        upper_value: Some(10.5),
    };
    let without = BmfValue {
        value: 3.0,
        lower_value: None,
        upper_value: None,
    };
    bmf.entry("c/dlx".into()).or_default().extend([
        ("latency".to_string(), with),
        ("nodes".to_string(), without),
    ]);
    let (text, back) = round_trip(&bmf);
    assert_eq!(back, bmf);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["c/dlx"]["latency"]["lower_value"], 9.5);
    assert!(v["c/dlx"]["nodes"].get("lower_value").is_none(), "{text}");

    let gab = vec![GabEntry {
        name: "c/dlx nodes".into(),
        unit: "nodes".into(),
        value: 3.0,
        range: None,
        extra: None,
    }];
    let (text, back) = round_trip(&gab);
    assert_eq!(back, gab);
    assert!(!text.contains("range") && !text.contains("extra"), "{text}");
}

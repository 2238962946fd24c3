//! Quantiles: of a sample, and of the normal and Student-t distributions,
//! for the intervals of the speed column ([`super::block_bootstrap`]) and
//! of `compare` and `ab`.

/// The `q` quantile of sorted `values`, interpolating linearly between
/// order statistics (the "type 7" definition).
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let h = (values.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let (i, frac) = (h.floor() as usize, h - h.floor());
    match values.get(i + 1) {
        Some(&next) => values[i] + frac * (next - values[i]),
        None => values[i],
    }
}

/// The standard normal quantile for a two-sided `confidence` (0.95 gives
/// 1.96), by bisection on the error function.
pub fn z_for(confidence: f64) -> f64 {
    let target = 0.5 + confidence / 2.0;
    let (mut lo, mut hi) = (0.0f64, 10.0f64);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if normal_cdf(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The standard normal distribution function (Abramowitz-Stegun 7.1.26
/// for erf; absolute error below 1.5e-7).
fn normal_cdf(x: f64) -> f64 {
    let t = x.abs() / std::f64::consts::SQRT_2;
    let k = 1.0 / (1.0 + 0.327_591_1 * t);
    let poly = k
        * (0.254_829_592
            + k * (-0.284_496_736
                + k * (1.421_413_741 + k * (-1.453_152_027 + k * 1.061_405_429))));
    let erf = 1.0 - poly * (-t * t).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// The two-sided Student-t quantile with `df` degrees of freedom for
/// `confidence` (0.95 and 4 degrees give 2.776), by bisection on the
/// distribution function, exact for integer `df` (Abramowitz and Stegun
/// 26.7.3-4). `df` 0 gives infinity.
pub fn t_for(confidence: f64, df: u64) -> f64 {
    if df == 0 {
        return f64::INFINITY;
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while t_central(hi, df) < confidence {
        hi *= 2.0;
        if hi > 1e12 {
            return f64::INFINITY;
        }
    }
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if t_central(mid, df) < confidence {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// `P(|T| <= x)` for Student's t with `df` degrees of freedom.
fn t_central(x: f64, df: u64) -> f64 {
    let theta = (x / (df as f64).sqrt()).atan();
    let (s, c) = theta.sin_cos();
    let c2 = c * c;
    if df % 2 == 1 {
        // (2/pi) (theta + sin cos (1 + 2/3 c^2 + 2*4/(3*5) c^4 + ...)),
        // the series up to c^(df-3).
        let mut term = 1.0;
        let mut sum = if df > 1 { 1.0 } else { 0.0 };
        let mut k = 1;
        while 2 * k + 1 < df {
            term *= (2 * k) as f64 / (2 * k + 1) as f64 * c2;
            sum += term;
            k += 1;
        }
        2.0 / std::f64::consts::PI * (theta + s * c * sum)
    } else {
        // sin (1 + 1/2 c^2 + 1*3/(2*4) c^4 + ...), up to c^(df-2).
        let mut term = 1.0;
        let mut sum = 1.0;
        let mut k = 1;
        while 2 * k < df {
            term *= (2 * k - 1) as f64 / (2 * k) as f64 * c2;
            sum += term;
            k += 1;
        }
        s * sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_and_z() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 0.125), 1.5);
        assert_eq!(quantile(&v, 1.0), 5.0);
        assert!((z_for(0.95) - 1.959_964).abs() < 1e-4);
        assert!((z_for(0.99) - 2.575_829).abs() < 1e-4);
    }

    #[test]
    fn t_quantiles() {
        for (df, t) in [
            (1, 12.706_2),
            (2, 4.302_7),
            (3, 3.182_4),
            (4, 2.776_4),
            (5, 2.570_6),
            (9, 2.262_2),
            (30, 2.042_3),
            (1000, 1.962_3),
        ] {
            assert!(
                (t_for(0.95, df) - t).abs() < 1e-3,
                "{df}: {}",
                t_for(0.95, df)
            );
        }
        assert!((t_for(0.99, 10) - 3.169_3).abs() < 1e-3);
        assert_eq!(t_for(0.95, 0), f64::INFINITY);
    }
}

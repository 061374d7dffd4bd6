//! Order statistics for repeated timings. Medians, not means: a shared machine adds
//! one-sided noise (interrupts, the other tenant) that a median ignores.

/// Median of `xs` (mean of the middle two for an even count). `None` when empty.
pub fn median(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 })
}

/// The `q`-quantile (0 ≤ q ≤ 1) by linear interpolation between order statistics.
pub fn quantile(xs: &[f64], q: f64) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let pos = q.clamp(0.0, 1.0) * (v.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    Some(v[lo] + (v[hi] - v[lo]) * (pos - lo as f64))
}

/// Interquartile range relative to the median: a spread that one outlier cannot inflate.
pub fn relative_iqr(xs: &[f64]) -> Option<f64> {
    Some((quantile(xs, 0.75)? - quantile(xs, 0.25)?) / median(xs)?)
}

/// Smallest value; `None` when empty.
pub fn min(xs: &[f64]) -> Option<f64> {
    xs.iter().copied().min_by(f64::total_cmp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert_eq!(min(&[3.0, -1.0, 2.0]), Some(-1.0));
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.25), Some(2.0));
        assert_eq!(quantile(&[1.0, 2.0], 0.5), Some(1.5));
        // One wild outlier does not move the interquartile spread.
        assert_eq!(relative_iqr(&[1.0, 1.0, 1.0, 1.0, 100.0]), Some(0.0));
    }
}

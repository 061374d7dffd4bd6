//! A fixed-versus-random timing-leak test in the style of dudect (Reparaz, Balasch and
//! Verbauwhede, "Dude, is my code constant time?", DATE 2017).
//!
//! Two classes of secret inputs are timed in random order: one fixed value, and fresh random
//! values. Code whose running time does not depend on its secrets gives both classes the same
//! timing distribution; Welch's t-statistic on the two samples then stays near N(0, 1). A
//! timing leak shifts one class, and |t| grows with the square root of the number of samples.
//!
//! The classes are interleaved at random, so noise from the machine (interrupts, the other
//! tenant, frequency changes) falls on both alike and cannot make a difference appear. Besides
//! the raw timings, the test is repeated on timings cropped at several percentiles, which
//! drops the long tail that noise adds and sharpens the comparison of the bulk (dudect's
//! pre-processing); the verdict takes the largest |t| over all of them.
//!
//! Nothing here is a proof: a test that passes has not seen a leak at this sample size on
//! this machine. That is why the harness that uses it runs a known leak as a negative control.

use crate::clock::Clock;

/// The two classes of inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The same secret every time.
    Fixed,
    /// A fresh random secret every time.
    Random,
}

/// |t| above this is a leak (dudect's threshold: for an unbiased test, |t| > 4.5 happens by
/// chance with probability below 10⁻⁵).
pub const LEAK_THRESHOLD: f64 = 4.5;

/// Count, mean and sum of squared deviations of a stream of values (Welford's update, which
/// stays accurate where the naive sum of squares would cancel).
#[derive(Clone, Copy, Debug, Default)]
pub struct Moments {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Moments {
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
    }

    pub fn count(&self) -> u64 {
        self.n
    }

    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// Sample variance (n − 1 in the denominator); `None` below two values.
    pub fn variance(&self) -> Option<f64> {
        (self.n >= 2).then(|| self.m2 / (self.n - 1) as f64)
    }
}

/// Welch's t-statistic for the difference of the means of `a` and `b`: `None` when either has
/// fewer than two values or both have no spread at all.
pub fn welch_t(a: &Moments, b: &Moments) -> Option<f64> {
    let se2 = a.variance()? / a.n as f64 + b.variance()? / b.n as f64;
    (se2 > 0.0).then(|| (a.mean - b.mean) / se2.sqrt())
}

/// Each comparison needs at least this many values per class to count.
const MIN_PER_CLASS: u64 = 500;

/// The percentiles at which timings are cropped: 1 − 0.5^(10(i+1)/CROPS), from about the 35th
/// up to the 99.9th (dudect spaces its hundred crops the same way).
const CROPS: usize = 16;

/// Welch's t on the raw timings and on each cropped copy of them.
#[derive(Clone, Debug)]
pub struct LeakTest {
    /// Upper bounds (in ticks) of the cropped tests; the raw test has none.
    bounds: Vec<f64>,
    /// Per test: the fixed class's and the random class's moments. Index 0 is the raw test.
    tests: Vec<[Moments; 2]>,
}

/// The largest |t| a [`LeakTest`] has seen, and where.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// The t-statistic of largest magnitude (positive: the fixed class is slower).
    pub t: f64,
    /// The percentile the timings were cropped at for that test (`None`: raw timings).
    pub cropped_at: Option<f64>,
    /// Timings per class in the raw test: fixed, random.
    pub samples: [u64; 2],
    /// Difference of the raw means, fixed minus random, in ticks.
    pub mean_difference: f64,
    /// How many comparisons (raw and cropped) had enough timings in both classes to count;
    /// with none, `t` is 0 and says nothing.
    pub compared: usize,
}

impl Verdict {
    pub fn leaks(&self) -> bool {
        self.t.abs() > LEAK_THRESHOLD
    }
}

impl LeakTest {
    /// A test whose crop bounds are the percentiles of `warm_up`, timings of both classes
    /// taken before the test proper (and not pushed into it).
    pub fn new(warm_up: &[f64]) -> LeakTest {
        let mut sorted = warm_up.to_vec();
        sorted.sort_by(f64::total_cmp);
        let bounds = if sorted.is_empty() {
            Vec::new()
        } else {
            (0..CROPS)
                .map(|i| {
                    let q = 1.0 - 0.5f64.powf(10.0 * (i + 1) as f64 / CROPS as f64);
                    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
                })
                .collect()
        };
        LeakTest { tests: vec![[Moments::default(); 2]; bounds.len() + 1], bounds }
    }

    /// One timing of one class.
    pub fn push(&mut self, class: Class, ticks: f64) {
        let c = class as usize;
        self.tests[0][c].push(ticks);
        for (bound, test) in self.bounds.iter().zip(&mut self.tests[1..]) {
            if ticks <= *bound {
                test[c].push(ticks);
            }
        }
    }

    /// The comparison with the largest |t| among those with enough values in both classes.
    pub fn verdict(&self) -> Verdict {
        let raw = &self.tests[0];
        let mut best = Verdict {
            t: 0.0,
            cropped_at: None,
            samples: [raw[0].count(), raw[1].count()],
            mean_difference: raw[0].mean() - raw[1].mean(),
            compared: 0,
        };
        for (i, [fixed, random]) in self.tests.iter().enumerate() {
            if fixed.count() < MIN_PER_CLASS || random.count() < MIN_PER_CLASS {
                continue;
            }
            if let Some(t) = welch_t(fixed, random) {
                best.compared += 1;
                if t.abs() > best.t.abs() {
                    best.t = t;
                    best.cropped_at = (i > 0).then(|| 1.0 - 0.5f64.powf(10.0 * i as f64 / CROPS as f64));
                }
            }
        }
        best
    }
}

/// Inputs timed per batch: all of a batch's inputs are made before any is timed, so making
/// them (random numbers, copies) never runs between the clock reads.
const BATCH: usize = 1000;

/// Times `run` on `samples` inputs (plus one warm-up batch for the crop bounds), each made by
/// `make` for a class drawn at random, and returns the verdict. `before_each` runs untimed
/// before every timing (to evict caches, say); `make` gets the class and a random-number
/// generator for the random class's secrets.
pub fn fixed_vs_random<I: Default>(
    clock: Clock,
    samples: usize,
    mut make: impl FnMut(Class, &mut rand::rngs::StdRng, &mut I),
    mut run: impl FnMut(&mut I),
    mut before_each: impl FnMut(),
) -> Verdict {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::from_os_rng();
    let mut inputs: Vec<(Class, I)> = (0..BATCH).map(|_| (Class::Fixed, I::default())).collect();
    let mut ticks = vec![0.0; BATCH];
    let mut test: Option<LeakTest> = None;
    let mut done = 0;
    while done < samples {
        for (class, input) in inputs.iter_mut() {
            *class = if rng.random::<bool>() { Class::Fixed } else { Class::Random };
            make(*class, &mut rng, input);
        }
        for ((_, input), t) in inputs.iter_mut().zip(ticks.iter_mut()) {
            before_each();
            let start = clock.now();
            run(input);
            *t = clock.now().wrapping_sub(start) as f64;
        }
        match test.as_mut() {
            None => test = Some(LeakTest::new(&ticks)),
            Some(test) => {
                for ((class, _), t) in inputs.iter().zip(&ticks) {
                    test.push(*class, *t);
                }
                done += BATCH;
            }
        }
    }
    test.expect("at least the warm-up batch ran").verdict()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moments(xs: &[f64]) -> Moments {
        let mut m = Moments::default();
        xs.iter().for_each(|&x| m.push(x));
        m
    }

    #[test]
    fn moments_match_the_textbook_formulas() {
        let m = moments(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(m.count(), 8);
        assert_eq!(m.mean(), 5.0);
        assert!((m.variance().unwrap() - 32.0 / 7.0).abs() < 1e-12);
        assert_eq!(moments(&[1.0]).variance(), None);
    }

    #[test]
    fn welch_t_of_a_worked_example() {
        // a: mean 2, variance 2.5 (n = 5); b: mean 5, variance 1 (n = 3).
        // t = (2 − 5) / sqrt(2.5/5 + 1/3) = −3 / sqrt(5/6).
        let a = moments(&[0.0, 1.0, 2.0, 3.0, 4.0]);
        let b = moments(&[4.0, 5.0, 6.0]);
        let t = welch_t(&a, &b).unwrap();
        assert!((t - (-3.0 / (5.0f64 / 6.0).sqrt())).abs() < 1e-12, "{t}");
        assert_eq!(welch_t(&moments(&[1.0, 1.0]), &moments(&[1.0, 1.0])), None);
    }

    /// A deterministic stand-in for machine noise: xorshift, scaled to [0, 1).
    fn noise(state: &mut u64) -> f64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        (*state >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Timings of `n` samples per class: 100 ticks plus noise (and a rare 10 000-tick
    /// interrupt), with `shift` ticks added to the fixed class.
    fn run(shift: f64, n: usize) -> Verdict {
        let mut state = 0x2545_f491_4f6c_dd1d;
        let sample = |class: Class, state: &mut u64| {
            let spike = if noise(state) < 0.01 { 10_000.0 } else { 0.0 };
            100.0 + 20.0 * noise(state) + spike + if class == Class::Fixed { shift } else { 0.0 }
        };
        let warm_up: Vec<f64> = (0..1000).map(|i| sample(if i % 2 == 0 { Class::Fixed } else { Class::Random }, &mut state)).collect();
        let mut test = LeakTest::new(&warm_up);
        for _ in 0..n {
            for class in [Class::Fixed, Class::Random] {
                let x = sample(class, &mut state);
                test.push(class, x);
            }
        }
        test.verdict()
    }

    #[test]
    fn a_one_tick_shift_is_flagged_and_equal_classes_are_not() {
        let leak = run(1.0, 20_000);
        assert!(leak.leaks(), "{leak:?}");
        // The interrupts swamp the raw means; the cropped comparison finds it.
        assert!(leak.cropped_at.is_some(), "{leak:?}");
        assert!(leak.t > 0.0, "the fixed class is the slower one: {leak:?}");
        let clean = run(0.0, 20_000);
        assert!(!clean.leaks(), "{clean:?}");
        assert_eq!(clean.samples, [20_000, 20_000]);
        assert_eq!(clean.compared, 1 + CROPS);
        let too_few = run(5.0, 100);
        assert_eq!((too_few.compared, too_few.leaks()), (0, false), "{too_few:?}");
    }
}

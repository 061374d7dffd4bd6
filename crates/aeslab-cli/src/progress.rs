//! Progress on stderr (indicatif). Only ever updated between timed regions, never inside one;
//! hidden when stderr is not a terminal.

use indicatif::{ProgressBar, ProgressStyle};

pub struct Progress(Option<ProgressBar>);

impl Progress {
    pub fn new(enabled: bool) -> Self {
        if !enabled {
            return Progress(None);
        }
        let bar = ProgressBar::new_spinner();
        bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed}] {msg}").expect("valid template"));
        Progress(Some(bar))
    }

    /// Shows what is about to be measured.
    pub fn step(&self, msg: &str) {
        if let Some(bar) = &self.0 {
            bar.set_message(msg.to_string());
            bar.tick();
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

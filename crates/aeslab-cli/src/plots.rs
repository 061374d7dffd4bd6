//! The report's SVG plots, drawn with `plotters`' SVG backend. Text is left to the SVG viewer
//! (`<text>` elements), so no system font is needed to draw them.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

/// A named line (or set of points) of `(x, y)` values.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

const SIZE: (u32, u32) = (1160, 600);
/// Width of the legend panel at the right of line charts, so the legend never hides data.
const LEGEND_WIDTH: u32 = 260;

fn err<E: std::fmt::Debug>(path: &Path) -> impl Fn(E) -> String + '_ {
    move |e| format!("cannot draw {}: {e:?}", path.display())
}

/// Bounds of all points, widened a little (multiplicatively on log axes).
fn bounds(series: &[Series], axis: fn(&(f64, f64)) -> f64, log: bool) -> (f64, f64) {
    let vals = series.iter().flat_map(|s| s.points.iter().map(axis)).filter(|v| v.is_finite() && (!log || *v > 0.0));
    let (lo, hi) = vals.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return if log { (1.0, 10.0) } else { (0.0, 1.0) };
    }
    if log {
        (lo / 1.25, hi * 1.25)
    } else {
        let pad = ((hi - lo) * 0.08).max(hi.abs() * 0.02).max(1e-9);
        (lo - pad, hi + pad)
    }
}

fn color(i: usize) -> RGBColor {
    // Distinguishable on white; cycled when there are more series.
    const C: [RGBColor; 16] = [
        RGBColor(31, 119, 180),
        RGBColor(214, 39, 40),
        RGBColor(44, 160, 44),
        RGBColor(255, 127, 14),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
        RGBColor(0, 0, 0),
        RGBColor(0, 0, 128),
        RGBColor(128, 0, 0),
        RGBColor(0, 110, 60),
        RGBColor(210, 170, 0),
        RGBColor(90, 60, 150),
    ];
    C[i % C.len()]
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

fn area(path: &Path) -> Result<Area<'_>, String> {
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err(path))?;
    Ok(root)
}

/// Each series as a line with a dot at each point, on any pair of axes.
fn draw_lines<X, Y>(chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>, path: &Path, series: &[Series]) -> Result<(), String>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    for (i, s) in series.iter().enumerate() {
        let c = color(i);
        chart.draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2))).map_err(err(path))?;
        chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 3, c.filled()))).map_err(err(path))?;
    }
    Ok(())
}

/// The series names, each beside a short line in its colour, top to bottom.
fn legend(panel: &Area<'_>, path: &Path, series: &[Series]) -> Result<(), String> {
    for (i, s) in series.iter().enumerate() {
        let y = 50 + 20 * i as i32;
        let c = color(i);
        panel.draw(&PathElement::new(vec![(8, y), (32, y)], c.stroke_width(3))).map_err(err(path))?;
        panel.draw(&Circle::new((20, y), 3, c.filled())).map_err(err(path))?;
        panel.draw(&Text::new(s.name.clone(), (40, y - 6), ("sans-serif", 13))).map_err(err(path))?;
    }
    Ok(())
}

/// Lines over message size in bytes (log x) of a cost (log y): one line per series.
pub fn by_size(path: &Path, title: &str, y_desc: &str, series: &[Series]) -> Result<(), String> {
    let root = area(path)?;
    let (plot, panel) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
    let (x0, x1) = bounds(series, |p| p.0, true);
    let (y0, y1) = bounds(series, |p| p.1, true);
    let mut chart = ChartBuilder::on(&plot)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
        .map_err(err(path))?;
    chart
        .configure_mesh()
        .x_desc("message size (bytes)")
        .y_desc(y_desc)
        .x_labels(6)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.3}"))
        .draw()
        .map_err(err(path))?;
    draw_lines(&mut chart, path, series)?;
    legend(&panel, path, series)?;
    root.present().map_err(err(path))
}

/// Lines on linear axes; `x_label` names the tick at each x (categories such as FACE levels,
/// or plain numbers).
pub fn linear(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    x_label: &dyn Fn(f64) -> String,
) -> Result<(), String> {
    let root = area(path)?;
    let (plot, panel) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (x0, x1) = if x0 > x1 { (0.0, 1.0) } else { (x0, x1) };
    let (y0, y1) = bounds(series, |p| p.1, false);
    let mut chart = ChartBuilder::on(&plot)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(x0 - 0.3..x1 + 0.3, y0..y1)
        .map_err(err(path))?;
    let ticks = (x1 - x0) as usize + 1;
    // Labels only at whole x values: the points sit there.
    let formatter = |v: &f64| if (v - v.round()).abs() < 1e-6 { x_label(*v) } else { String::new() };
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(ticks.min(20))
        .x_label_formatter(&formatter)
        .draw()
        .map_err(err(path))?;
    draw_lines(&mut chart, path, series)?;
    legend(&panel, path, series)?;
    root.present().map_err(err(path))
}

/// Grouped horizontal bars: one row per category (first at the top), one bar per series in
/// each row (`values[series][category]`).
pub fn bars(path: &Path, title: &str, x_desc: &str, categories: &[String], series: &[(String, Vec<f64>)]) -> Result<(), String> {
    let root = area(path)?;
    let (plot, panel) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
    let top = series.iter().flat_map(|s| s.1.iter().copied()).filter(|v| v.is_finite()).fold(0.0f64, f64::max);
    let n = categories.len().max(1);
    let mut chart = ChartBuilder::on(&plot)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(170)
        .build_cartesian_2d(0.0..top * 1.08 + 1e-9, 0.0..n as f64)
        .map_err(err(path))?;
    // Row i (from the top) spans y in [n − i − 1, n − i); its name sits at the row's centre.
    let label = |v: &f64| {
        let centre = (v - v.floor() - 0.5).abs() < 1e-6;
        let row = n as i64 - 1 - v.floor() as i64;
        if centre && row >= 0 { categories.get(row as usize).cloned().unwrap_or_default() } else { String::new() }
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc(x_desc)
        .y_labels(2 * n + 1)
        .y_label_formatter(&label)
        .draw()
        .map_err(err(path))?;
    let height = 0.8 / series.len().max(1) as f64;
    for (k, (_, values)) in series.iter().enumerate() {
        let c = color(k);
        chart
            .draw_series(values.iter().enumerate().filter(|(_, v)| v.is_finite()).map(|(i, &v)| {
                let y = (n - 1 - i) as f64 + 0.9 - (k + 1) as f64 * height;
                Rectangle::new([(0.0, y), (v, y + height)], c.filled())
            }))
            .map_err(err(path))?;
    }
    let names: Vec<Series> = series.iter().map(|(name, _)| Series { name: name.clone(), points: Vec::new() }).collect();
    legend(&panel, path, &names)?;
    root.present().map_err(err(path))
}

//! `saltus plot`: columns of a trajectory CSV against `t`, as PNG or SVG, with axes, labels and
//! a legend. Pure Rust (plotters; the PNG text uses an embedded DejaVu Sans Mono font).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

pub(crate) static FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");
/// Registered under the generic family name, so that the SVG output names a family every viewer
/// has while text is measured with the embedded font.
const FONT_NAME: &str = "sans-serif";

/// A CSV read for plotting.
#[derive(Debug, Clone)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// Columns of values.
    pub columns: Vec<Vec<f64>>,
}

/// Reads a comma-separated file with one header line; the error names line and column.
pub fn read_csv(path: &Path) -> Result<Table, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, head) = lines.next().ok_or_else(|| format!("{}: empty file", path.display()))?;
    let header: Vec<String> = head.split(',').map(|s| s.trim().to_string()).collect();
    let mut columns = vec![Vec::new(); header.len()];
    for (i, line) in lines {
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != header.len() {
            return Err(format!(
                "{}:{}: {} fields, the header has {}",
                path.display(),
                i + 1,
                fields.len(),
                header.len()
            ));
        }
        for (j, f) in fields.iter().enumerate() {
            let v: f64 = f.trim().parse().map_err(|_| {
                format!(
                    "{}:{}: column {} (`{}`): `{}` is not a number",
                    path.display(),
                    i + 1,
                    j + 1,
                    header[j],
                    f.trim()
                )
            })?;
            columns[j].push(v);
        }
    }
    if columns.first().is_none_or(|c| c.is_empty()) {
        return Err(format!("{}: no data rows", path.display()));
    }
    Ok(Table { header, columns })
}

/// Columns left out when no `--columns` are given: not states (`kind` of event-driven runs).
const NOT_STATES: &[&str] = &["kind"];

/// Series per legend column.
const LEGEND_ROWS: usize = 30;

/// Plots `columns` (default: all but the first and the non-state columns such as `kind`) against
/// the first column into `out` (`.png` or `.svg`). The legend is outside the axes, on the right,
/// in as many columns of up to 30 entries as needed (the figure widens; nothing is cut); values
/// beyond ±1e300 (and non-finite ones) are clipped to that range.
pub fn plot(table: &Table, columns: &[String], out: &Path, title: &str) -> Result<(), String> {
    let mut picked = Vec::new();
    if columns.is_empty() {
        picked.extend((1..table.header.len()).filter(|&i| !NOT_STATES.contains(&table.header[i].as_str())));
    } else {
        for c in columns {
            let i = table
                .header
                .iter()
                .position(|h| h == c)
                .ok_or_else(|| format!("no column `{c}` (columns: {})", table.header.join(", ")))?;
            picked.push(i);
        }
    }
    if picked.is_empty() {
        return Err("nothing to plot: the file has only one column".into());
    }
    let ext = out.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let legend_cols = picked.len().div_ceil(LEGEND_ROWS);
    let longest = picked.iter().map(|&i| table.header[i].chars().count()).max().unwrap_or(1).max(8);
    // 16 px monospace: about 10 px per character, plus the line sample and margins
    let legend_w = (longest as u32 * 10 + 60) * legend_cols as u32;
    let size = (1100 + legend_w, 800);
    match ext.as_str() {
        "svg" | "png" => {
            // Registering twice is harmless; failure means the embedded font is broken.
            plotters::style::register_font(FONT_NAME, FontStyle::Normal, FONT)
                .map_err(|_| "embedded font cannot be read".to_string())?;
            if ext == "svg" {
                draw(SVGBackend::new(out, size).into_drawing_area(), table, &picked, title, legend_w)
            } else {
                let b = crate::plot_text::TextFix::new(BitMapBackend::new(out, size), FONT)
                    .ok_or("embedded font cannot be read")?;
                draw(b.into_drawing_area(), table, &picked, title, legend_w)
            }
        }
        _ => Err(format!("{}: the output must end in .png or .svg", out.display())),
    }
}

/// Distinct colours: the 10 of the Tableau palette, then golden-angle hues.
pub fn colour(k: usize) -> RGBColor {
    const T10: [(u8, u8, u8); 10] = [
        (31, 119, 180),
        (255, 127, 14),
        (44, 160, 44),
        (214, 39, 40),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
        (188, 189, 34),
        (23, 190, 207),
    ];
    if let Some(&(r, g, b)) = T10.get(k) {
        return RGBColor(r, g, b);
    }
    let h = (k as f64 * 137.507_764) % 360.0;
    let l = if k.is_multiple_of(2) { 0.38 } else { 0.55 };
    let c = HSLColor(h / 360.0, 0.75, l).to_rgba();
    RGBColor(c.0, c.1, c.2)
}

/// The y-axis label: the column's name for one series, else what the columns are.
pub fn y_label(names: &[&str]) -> String {
    if let [one] = names {
        return one.to_string();
    }
    let kind = |n: &str| {
        let field = n.rsplit_once('.').map(|(_, f)| f).unwrap_or(n);
        let field = field.split('[').next().unwrap_or(field);
        match field {
            "q" => "position q",
            "v" => "velocity v",
            "x" => "state x",
            "y" => "output y",
            "ydot" => "relative velocity ydot",
            "lambda" => "multiplier lambda",
            _ => "value",
        }
    };
    let mut kinds: Vec<&str> = Vec::new();
    for n in names {
        let k = kind(n);
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    kinds.join(", ")
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    t: &Table,
    picked: &[usize],
    title: &str,
    legend_w: u32,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let font = FONT_NAME;
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| format!("drawing failed: {x}");
    let x = &t.columns[0];
    let (xmin, xmax) = bounds(x.iter().copied());
    let (ymin, ymax) = bounds(picked.iter().flat_map(|&i| t.columns[i].iter().copied()));
    root.fill(&WHITE).map_err(e)?;
    let (w, _) = root.dim_in_pixel();
    let (plot_area, legend_area) = root.split_horizontally(w - legend_w);
    let names: Vec<&str> = picked.iter().map(|&i| t.header[i].as_str()).collect();
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, (font, 28))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(100)
        .build_cartesian_2d(xmin..xmax, ymin..ymax)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc(t.header[0].as_str())
        .y_desc(y_label(&names))
        .label_style((font, 16))
        .x_label_formatter(&|v| tick(snap(*v, xmax - xmin)))
        .y_label_formatter(&|v| tick(snap(*v, ymax - ymin)))
        .axis_desc_style((font, 18))
        .draw()
        .map_err(e)?;
    for (k, &i) in picked.iter().enumerate() {
        let color = colour(k);
        let pts = x.iter().zip(&t.columns[i]).map(|(&a, &b)| (clip(a), clip(b)));
        chart.draw_series(LineSeries::new(pts, color.stroke_width(1))).map_err(e)?;
    }
    // the legend, outside the axes
    for (k, name) in names.iter().enumerate() {
        let (col, row) = ((k / LEGEND_ROWS) as i32, (k % LEGEND_ROWS) as i32);
        let col_w = legend_w as i32 / picked.len().div_ceil(LEGEND_ROWS) as i32;
        let (x0, y0) = (col * col_w + 10, 70 + row * 22);
        let c = colour(k);
        legend_area.draw(&PathElement::new(vec![(x0, y0), (x0 + 24, y0)], c.stroke_width(3))).map_err(e)?;
        let style = TextStyle::from((font, 16)).pos(Pos::new(HPos::Left, VPos::Center));
        legend_area.draw(&Text::new(name.to_string(), (x0 + 32, y0), style)).map_err(e)?;
    }
    root.present().map_err(e)?;
    Ok(())
}

/// `0` for a tick within round-off of zero on an axis of length `span` (`-1.11e-16` is 0).
fn snap(v: f64, span: f64) -> f64 {
    if v.abs() <= 1e-9 * span.abs() {
        0.0
    } else {
        v
    }
}

/// A tick label: plain from 1e-4 to 1e5 (`0.5`, `-2`, `0.0005`, `1200`), else scientific with
/// 4 significant digits (`1.5e300`, `-2e-7`).
pub fn tick(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        return "0".into();
    }
    if (1e-4..1e5).contains(&a) {
        let r = (v * 1e9).round() / 1e9;
        return format!("{r}");
    }
    let s = format!("{v:.3e}");
    match s.split_once('e') {
        Some((m, e)) if m.contains('.') => format!("{}e{e}", m.trim_end_matches('0').trim_end_matches('.')),
        _ => s,
    }
}

/// Values are plotted within ±1e300 (plotters' tick computation needs a finite span).
const LIMIT: f64 = 1e300;

fn clip(v: f64) -> f64 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(-LIMIT, LIMIT)
    }
}

/// Finite min/max (within ±1e300) with a margin; a flat or empty range is widened.
fn bounds(it: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in it.filter(|v| v.is_finite()).map(clip) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return (0.0, 1.0);
    }
    if hi - lo <= 1e-300 * hi.abs().max(1.0) {
        let d = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        return (lo - d, hi + d);
    }
    let pad = (hi - lo) * 0.05;
    (lo - pad, hi + pad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_stay_finite() {
        for (lo, hi) in [(-1e308, 1e308), (f64::MAX, f64::MAX), (-f64::MAX, 0.0), (1.0, 1.0), (0.0, 0.0)] {
            let (a, b) = bounds([lo, hi, f64::NAN, f64::INFINITY].into_iter());
            assert!(a.is_finite() && b.is_finite() && a < b && (b - a).is_finite(), "{lo} {hi}: {a} {b}");
        }
    }

    #[test]
    fn colours_are_distinct_and_labels_name_the_columns() {
        let c: Vec<RGBColor> = (0..40).map(colour).collect();
        for i in 0..c.len() {
            for j in 0..i {
                let d = (c[i].0 as i32 - c[j].0 as i32).abs()
                    + (c[i].1 as i32 - c[j].1 as i32).abs()
                    + (c[i].2 as i32 - c[j].2 as i32).abs();
                assert!(d >= 12, "colours {j} and {i} nearly equal: {:?} {:?}", c[j], c[i]);
            }
        }
        assert_eq!(y_label(&["ball.q[0]"]), "ball.q[0]");
        assert_eq!(
            (tick(0.5), tick(-2.0), tick(0.30000000000000004), tick(1.5e300), tick(-2e-7)),
            ("0.5".into(), "-2".into(), "0.3".into(), "1.5e300".into(), "-2e-7".into())
        );
        assert_eq!(y_label(&["ball.q[0]", "ball.v[0]", "b.q[1]"]), "position q, velocity v");
    }
}

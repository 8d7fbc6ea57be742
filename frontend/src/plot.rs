//! `saltus plot`: columns of a trajectory CSV against `t`, as PNG or SVG, with axes, labels and
//! a legend. Pure Rust (plotters; the PNG text uses an embedded DejaVu Sans Mono font).

use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

static FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");
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

/// Plots `columns` (all but the first when empty) against the first column into `out`
/// (`.png` or `.svg`).
pub fn plot(table: &Table, columns: &[String], out: &Path, title: &str) -> Result<(), String> {
    let mut picked = Vec::new();
    if columns.is_empty() {
        picked.extend(1..table.header.len());
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
    let size = (1200, 800);
    match ext.as_str() {
        "svg" | "png" => {
            // Registering twice is harmless; failure means the embedded font is broken.
            plotters::style::register_font(FONT_NAME, FontStyle::Normal, FONT)
                .map_err(|_| "embedded font cannot be read".to_string())?;
            if ext == "svg" {
                draw(SVGBackend::new(out, size).into_drawing_area(), table, &picked, title, FONT_NAME)
            } else {
                draw(BitMapBackend::new(out, size).into_drawing_area(), table, &picked, title, FONT_NAME)
            }
        }
        _ => Err(format!("{}: the output must end in .png or .svg", out.display())),
    }
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    t: &Table,
    picked: &[usize],
    title: &str,
    font: &str,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| format!("drawing failed: {x}");
    let x = &t.columns[0];
    let (xmin, xmax) = bounds(x.iter().copied());
    let (ymin, ymax) = bounds(picked.iter().flat_map(|&i| t.columns[i].iter().copied()));
    root.fill(&WHITE).map_err(e)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (font, 28))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d(xmin..xmax, ymin..ymax)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc(t.header[0].as_str())
        .y_desc("value")
        .label_style((font, 16))
        .axis_desc_style((font, 18))
        .draw()
        .map_err(e)?;
    for (k, &i) in picked.iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        chart
            .draw_series(LineSeries::new(x.iter().copied().zip(t.columns[i].iter().copied()), color.stroke_width(1)))
            .map_err(e)?
            .label(t.header[i].as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(3)));
    }
    chart
        .configure_series_labels()
        .label_font((font, 16))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}

/// Finite min/max with a margin; a flat or empty range is widened.
fn bounds(it: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in it.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return (0.0, 1.0);
    }
    if hi - lo <= 1e-300 {
        let d = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        return (lo - d, hi + d);
    }
    let pad = (hi - lo) * 0.05;
    (lo - pad, hi + pad)
}

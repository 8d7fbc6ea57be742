//! Text for the PNG plots: a [`DrawingBackend`] wrapper whose `draw_text` places each glyph at
//! its pen position plus its left side bearing (plotters 0.3.7's ab_glyph path drops the
//! bearing, which printed `0.5` as `0. 5`). Everything else is forwarded to the wrapped backend.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use plotters::prelude::DrawingBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform};

/// `inner` with text drawn from `font` (a TrueType file).
pub struct TextFix<'f, B> {
    inner: B,
    font: FontRef<'f>,
}

impl<'f, B> TextFix<'f, B> {
    /// Wraps `inner`; `None` if `font` cannot be read.
    pub fn new(inner: B, font: &'f [u8]) -> Option<Self> {
        Some(TextFix { inner, font: FontRef::try_from_slice(font).ok()? })
    }

    /// Width (advances and kerning) and height (ascent − descent) of `text` at `size` pixels.
    fn extent(&self, text: &str, size: f32) -> (f32, f32) {
        let f = self.font.as_scaled(PxScale::from(size));
        let mut w = 0.0;
        let mut prev = None;
        for c in text.chars() {
            let id = f.glyph_id(c);
            if let Some(p) = prev {
                w += f.kern(p, id);
            }
            w += f.h_advance(id);
            prev = Some(id);
        }
        (w, f.ascent() - f.descent())
    }
}

fn rotate(t: &FontTransform, x: i32, y: i32) -> (i32, i32) {
    match t {
        FontTransform::Rotate90 => (-y, x),
        FontTransform::Rotate180 => (-x, -y),
        FontTransform::Rotate270 => (y, -x),
        _ => (x, y),
    }
}

impl<B: DrawingBackend> DrawingBackend for TextFix<'_, B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, p: BackendCoord, c: BackendColor) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_pixel(p, c)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_line(a, b, s)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_rect(a, b, s, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        s: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_path(path, s)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        c: BackendCoord,
        r: u32,
        s: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_circle(c, r, s, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        s: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.fill_polygon(vert, s)
    }
    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        let (w, h) = self.extent(text, style.size() as f32);
        Ok((w.ceil() as u32, h.ceil() as u32))
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let size = style.size() as f32;
        let (w, h) = self.extent(text, size);
        let dx = match style.anchor().h_pos {
            HPos::Left => 0.0,
            HPos::Right => -w,
            HPos::Center => -w / 2.0,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0.0,
            VPos::Center => -h / 2.0,
            VPos::Bottom => -h,
        };
        let trans = style.transform();
        let (width, height) = self.get_size();
        let f = self.font.as_scaled(PxScale::from(size));
        let mut pixels = Vec::new();
        let mut pen = 0.0;
        let mut prev = None;
        for c in text.chars() {
            let id = f.glyph_id(c);
            if let Some(p) = prev {
                pen += f.kern(p, id);
            }
            prev = Some(id);
            let glyph = id.with_scale_and_position(PxScale::from(size), ab_glyph::point(pen + dx, f.ascent() + dy));
            if let Some(o) = self.font.outline_glyph(glyph) {
                let b = o.px_bounds();
                o.draw(|x, y, a| pixels.push((b.min.x as i32 + x as i32, b.min.y as i32 + y as i32, a)));
            }
            pen += f.h_advance(id);
        }
        for (x, y, a) in pixels {
            let (x, y) = rotate(&trans, x, y);
            let (x, y) = (pos.0 + x, pos.1 + y);
            if a > 0.0 && x >= 0 && y >= 0 && (x as u32) < width && (y as u32) < height {
                let c = BackendColor { alpha: color.alpha * a as f64, rgb: color.rgb };
                self.inner.draw_pixel((x, y), c)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::prelude::*;

    /// Ink columns of `text` drawn at 40 px: the widths of the blank runs between glyphs.
    fn gaps(text: &str) -> Vec<usize> {
        let (w, h) = (300u32, 80u32);
        let mut buf = vec![255u8; (w * h * 3) as usize];
        {
            let b = TextFix::new(BitMapBackend::with_buffer(&mut buf, (w, h)), crate::plot::FONT).unwrap();
            let root = b.into_drawing_area();
            plotters::style::register_font("sans-serif", FontStyle::Normal, crate::plot::FONT).ok();
            root.draw(&Text::new(text.to_string(), (10, 10), ("sans-serif", 40))).unwrap();
            root.present().unwrap();
        }
        let inked: Vec<bool> =
            (0..w as usize).map(|x| (0..h as usize).any(|y| buf[(y * w as usize + x) * 3] < 128)).collect();
        let first = inked.iter().position(|&i| i).unwrap();
        let last = inked.iter().rposition(|&i| i).unwrap();
        let mut out = Vec::new();
        let mut run = 0;
        for &i in &inked[first..=last] {
            if i {
                if run > 0 {
                    out.push(run);
                }
                run = 0;
            } else {
                run += 1;
            }
        }
        out
    }

    #[test]
    fn a_dot_sits_in_the_middle_of_its_cell() {
        // "0.5" in a monospace font: the blank before and after the dot are equal (the bug of
        // plotters 0.3.7 drew the dot at the left of its cell: "0. 5")
        let g = gaps("0.5");
        assert_eq!(g.len(), 2, "{g:?}");
        assert!(g[0].abs_diff(g[1]) <= 2, "blank before / after the dot: {g:?}");
    }
}

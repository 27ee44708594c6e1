//! Writing a figure as PNG and SVG from one drawing routine, plus the shared colours and
//! text helpers of every figure.
//!
//! A figure draws onto any plotters backend; `save` runs it once on the bitmap backend and
//! once on the SVG backend, so the two files always show the same picture.
//!
//! Text in the PNG is set by `TypesetBitmap`, not by plotters: plotters 0.3.7 draws each glyph
//! without its left side bearing (uneven gaps between letters) and centres text about a fifth
//! of its size too high. The SVG keeps plotters' text, which the viewer lays out itself.

use super::font;
use super::{PlotError, WrittenFigure};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use std::path::Path;

pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Something that can be drawn onto a drawing area of a fixed size.
pub trait Figure {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);
    /// The title a list of figures shows for it.
    fn title(&self) -> String;
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

fn draw_error(path: &Path, message: impl ToString) -> PlotError {
    PlotError::Draw {
        path: path.display().to_string(),
        message: message.to_string(),
    }
}

/// What went wrong drawing a PNG, by its cause: the bitmap backend's own `Display` is its
/// `Debug` (`IOError(Custom { kind: Other, error: "No space left on device" })`), so its I/O
/// errors are unwrapped to their messages (`No space left on device`).
fn bitmap_error(error: &DrawingAreaErrorKind<plotters_bitmap::BitMapBackendError>) -> String {
    use plotters_bitmap::BitMapBackendError as Bitmap;
    match error {
        DrawingAreaErrorKind::BackendError(DrawingErrorKind::DrawingError(cause)) => match cause {
            Bitmap::IOError(e) => e.to_string(),
            other => format!("{other:?}"),
        },
        other => other.to_string(),
    }
}

/// What went wrong encoding or writing a PNG, by its cause (`No space left on device`).
fn png_error(error: &png::EncodingError) -> String {
    match error {
        png::EncodingError::IoError(e) => e.to_string(),
        other => other.to_string(),
    }
}

/// Writes the 8-bit RGB pixels `rgb` of a `width`×`height` picture to `out` as a PNG, encoded
/// as plotters' `image` encoder did: fast compression, adaptive filtering.
fn write_png(
    out: impl std::io::Write,
    rgb: &[u8],
    (width, height): (u32, u32),
) -> Result<(), png::EncodingError> {
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::FilterType::Sub);
    encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgb)?;
    writer.finish()
}

fn create_parent(path: &Path) -> Result<(), PlotError> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => evomcts_records::runfs::create_folder(dir)
            .map_err(|source| PlotError::Io {
                path: dir.display().to_string(),
                source,
            }),
        _ => Ok(()),
    }
}

/// Draws `figure` into `png` and `svg`, each written whole through `runfs::replace_with` (so a
/// link at either path is replaced, not followed).
pub fn save(figure: &impl Figure, png: &Path, svg: &Path) -> Result<(), PlotError> {
    font::register()?;
    create_parent(png)?;
    create_parent(svg)?;
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| PlotError::Io { path, source }
    };
    // Drawn into memory first: a figure that cannot be drawn leaves the old file untouched.
    let size = figure.size();
    let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
    {
        let root =
            TypesetBitmap::new(BitMapBackend::with_buffer(&mut rgb, size)).into_drawing_area();
        root.fill(&WHITE)
            .and_then(|_| figure.draw(&root))
            .and_then(|_| root.present())
            .map_err(|e| draw_error(png, bitmap_error(&e)))?;
    }
    let mut encoded = Ok(());
    let written = evomcts_records::runfs::replace_with(png, |file, _| {
        encoded = write_png(file, &rgb, size).map_err(|e| draw_error(png, png_error(&e)));
        // Any failure keeps the old file: the temporary one is removed.
        encoded
            .as_ref()
            .map(|_| ())
            .map_err(|e| std::io::Error::other(e.to_string()))
    });
    encoded?;
    written.map_err(io(png))?;
    let text = svg_text(figure).map_err(|e| draw_error(svg, e))?;
    evomcts_records::runfs::write_atomically(svg, text.as_bytes()).map_err(io(svg))?;
    Ok(())
}

/// `figure` as the text of an SVG file, as [`save`] writes it.
pub fn svg_text(figure: &impl Figure) -> Result<String, String> {
    font::register().map_err(|e| e.to_string())?;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, figure.size()).into_drawing_area();
        root.fill(&WHITE)
            .and_then(|_| figure.draw(&root))
            .and_then(|_| root.present())
            .map_err(|e| e.to_string())?;
    }
    Ok(text)
}

/// Draws `figure` into `dir/STEM.png` and `dir/STEM.svg`.
pub fn save_in(figure: &impl Figure, dir: &Path, stem: &str) -> Result<WrittenFigure, PlotError> {
    let png = dir.join(format!("{stem}.png"));
    let svg = dir.join(format!("{stem}.svg"));
    save(figure, &png, &svg)?;
    Ok(WrittenFigure {
        title: figure.title(),
        svg,
        png,
    })
}

/// The width in pixels of `text` in the embedded font at `size`, as the PNG draws it; layouts
/// size their margins with it so that no label is cut at the edge. Falls back to a generous
/// estimate if the font cannot be measured.
pub fn text_width(text: &str, size: f64) -> i32 {
    let estimate = (text.chars().count() as f64 * size * 0.62).ceil() as i32;
    if font::register().is_err() {
        return estimate;
    }
    match (font::FAMILY, size).into_font().box_size(text) {
        Ok((w, _)) => w as i32,
        Err(_) => estimate,
    }
}

/// The widest of `texts` at `size`, in pixels.
pub fn widest(texts: impl IntoIterator<Item = impl AsRef<str>>, size: f64) -> i32 {
    texts
        .into_iter()
        .map(|t| text_width(t.as_ref(), size))
        .max()
        .unwrap_or(0)
}

/// The bitmap backend with its text set glyph by glyph from the embedded font: each glyph at
/// its pen position plus its side bearing, kerned, anchored by the font's cap height and
/// descent. Everything else, and rotated text, goes to the bitmap backend as it is.
pub struct TypesetBitmap<'a> {
    inner: BitMapBackend<'a>,
    font: Option<ab_glyph::FontRef<'static>>,
}

impl<'a> TypesetBitmap<'a> {
    pub fn new(inner: BitMapBackend<'a>) -> TypesetBitmap<'a> {
        TypesetBitmap {
            inner,
            font: ab_glyph::FontRef::try_from_slice(font::bytes()).ok(),
        }
    }
}

type BackendResult<'a> =
    Result<(), DrawingErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>>;

impl<'a> DrawingBackend for TypesetBitmap<'a> {
    type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> BackendResult<'a> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> BackendResult<'a> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> BackendResult<'a> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> BackendResult<'a> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> BackendResult<'a> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> BackendResult<'a> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> BackendResult<'a> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> BackendResult<'a> {
        self.inner.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> BackendResult<'a> {
        self.inner.blit_bitmap(pos, size, src)
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> BackendResult<'a> {
        use ab_glyph::{Font, PxScale, ScaleFont};
        let font = match (&self.font, style.transform()) {
            (Some(font), FontTransform::None) => font.clone(),
            _ => return self.inner.draw_text(text, style, pos),
        };
        let colour = style.color();
        if colour.alpha == 0.0 {
            return Ok(());
        }
        let scaled = font.as_scaled(PxScale::from(style.size() as f32));
        let mut glyphs = Vec::with_capacity(text.len());
        let mut x = 0f32;
        let mut previous = None;
        for c in text.chars() {
            let id = scaled.glyph_id(c);
            if let Some(p) = previous {
                x += scaled.kern(p, id);
            }
            glyphs.push(id.with_scale_and_position(scaled.scale(), ab_glyph::point(x, 0.0)));
            x += scaled.h_advance(id);
            previous = Some(id);
        }
        let cap = scaled
            .outline_glyph(scaled.scaled_glyph('H'))
            .map_or(scaled.ascent() * 0.78, |o| -o.px_bounds().min.y);
        let dx = match style.anchor().h_pos {
            HPos::Left => 0.0,
            HPos::Center => -x / 2.0,
            HPos::Right => -x,
        };
        let baseline = match style.anchor().v_pos {
            VPos::Top => cap,
            VPos::Center => cap / 2.0,
            VPos::Bottom => scaled.descent(),
        };
        let origin = ab_glyph::point(pos.0 as f32 + dx, pos.1 as f32 + baseline);
        let mut pixels = Vec::new();
        for mut glyph in glyphs {
            glyph.position += origin;
            if let Some(outline) = scaled.outline_glyph(glyph) {
                let bounds = outline.px_bounds();
                outline.draw(|gx, gy, coverage| {
                    if coverage > 0.0 {
                        pixels.push((
                            bounds.min.x as i32 + gx as i32,
                            bounds.min.y as i32 + gy as i32,
                            coverage,
                        ));
                    }
                });
            }
        }
        for (px, py, coverage) in pixels {
            self.inner.draw_pixel(
                (px, py),
                BackendColor {
                    alpha: colour.alpha * coverage.min(1.0) as f64,
                    rgb: colour.rgb,
                },
            )?;
        }
        Ok(())
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        self.inner.estimate_text_size(text, style)
    }
}

/// Ten distinguishable colours (the "tab10" set), one per controller.
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A text style of the embedded font.
pub fn text(size: f64) -> TextStyle<'static> {
    (font::FAMILY, size).into_font().into()
}

/// Draws `label` in the embedded font at `size` and `colour`, with its `anchor` (horizontal,
/// vertical) at `at`.
pub fn draw_label<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    label: String,
    at: (i32, i32),
    size: f64,
    colour: RGBColor,
    anchor: (HPos, VPos),
) -> DrawResult<DB> {
    root.draw(&Text::new(
        label,
        at,
        text(size).color(&colour).pos(Pos::new(anchor.0, anchor.1)),
    ))
}

/// Breaks `text` into lines of at most `width` characters, at spaces when it can and after an
/// operator or closing parenthesis when a single word is too long.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut pieces: Vec<String> = Vec::new();
    for word in text.split(' ') {
        let mut rest: Vec<char> = word.chars().collect();
        while rest.len() > width {
            let cut = (width / 2..width)
                .rev()
                .find(|&i| matches!(rest[i - 1], '·' | '/' | ')' | ',' | '*'))
                .unwrap_or(width);
            pieces.push(rest[..cut].iter().collect());
            rest.drain(..cut);
        }
        pieces.push(rest.into_iter().collect());
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for p in pieces {
        let joined = if line.is_empty() {
            p.chars().count()
        } else {
            line.chars().count() + 1 + p.chars().count()
        };
        if joined > width && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
            line = p;
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&p);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// A horizontal-bar layout: one row per category, a value axis along the bottom.
pub struct RowAxes {
    /// Pixel x of the axis minimum and maximum.
    pub x0: i32,
    pub x1: i32,
    /// Pixel y of the first row's top.
    pub top: i32,
    pub row_height: i32,
    pub rows: usize,
    pub min: f64,
    pub max: f64,
}

impl RowAxes {
    pub fn px(&self, v: f64) -> i32 {
        let t = ((v - self.min) / (self.max - self.min)).clamp(0.0, 1.0);
        self.x0 + ((self.x1 - self.x0) as f64 * t).round() as i32
    }

    /// Top and bottom pixel of row `i`'s band.
    pub fn row(&self, i: usize) -> (i32, i32) {
        let y = self.top + i as i32 * self.row_height;
        (y, y + self.row_height)
    }

    pub fn bottom(&self) -> i32 {
        self.top + self.rows as i32 * self.row_height
    }

    /// Grid lines, tick labels, the axis title and the row labels (right-aligned at `x0`).
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        labels: &[String],
        ticks: &[f64],
        tick_label: impl Fn(f64) -> String,
        axis_title: &str,
    ) -> DrawResult<DB> {
        let bottom = self.bottom();
        for &t in ticks {
            let x = self.px(t);
            root.draw(&PathElement::new(
                vec![(x, self.top - 4), (x, bottom)],
                RGBColor(225, 225, 225),
            ))?;
            draw_label(
                root,
                tick_label(t),
                (x, bottom + 8),
                14.0,
                BLACK,
                (HPos::Center, VPos::Top),
            )?;
        }
        root.draw(&PathElement::new(
            vec![(self.x0, bottom), (self.x1, bottom)],
            BLACK,
        ))?;
        root.draw(&PathElement::new(
            vec![(self.x0, self.top - 4), (self.x0, bottom)],
            BLACK,
        ))?;
        draw_label(
            root,
            axis_title.to_string(),
            ((self.x0 + self.x1) / 2, bottom + 30),
            15.0,
            BLACK,
            (HPos::Center, VPos::Top),
        )?;
        for (i, label) in labels.iter().enumerate() {
            let (a, b) = self.row(i);
            draw_label(
                root,
                label.clone(),
                (self.x0 - 10, (a + b) / 2),
                15.0,
                BLACK,
                (HPos::Right, VPos::Center),
            )?;
        }
        Ok(())
    }
}

/// Evenly spaced ticks from `min` to `max` (inclusive) `step` apart.
pub fn ticks(min: f64, max: f64, step: f64) -> Vec<f64> {
    let n = ((max - min) / step).round() as usize;
    (0..=n).map(|i| min + i as f64 * step).collect()
}

/// A title and a grey subtitle at the top left.
pub fn titles<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subtitle: &str,
) -> DrawResult<DB> {
    root.draw(&Text::new(
        title.to_string(),
        (20, 14),
        text(24.0).color(&BLACK),
    ))?;
    root.draw(&Text::new(
        subtitle.to_string(),
        (20, 46),
        text(15.0).color(&RGBColor(80, 80, 80)),
    ))
}

/// Round tick spacing for an axis from 0 to `max`.
pub fn tick_step(max: f64) -> f64 {
    let raw = (max / 5.0).max(1e-9);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

/// A share from 0 to 1 as a colour: white at one half, shading to blue at 1 (all won) and red
/// at 0 (all lost); the heat maps of leagues and portfolios.
pub fn share_colour(share: f64) -> RGBColor {
    let (lo, hi) = ((214.0, 39.0, 40.0), (31.0, 119.0, 180.0));
    let (target, t) = if share >= 0.5 {
        (hi, (share - 0.5) * 2.0)
    } else {
        (lo, (0.5 - share) * 2.0)
    };
    let mix = |c: f64| (255.0 + (c - 255.0) * t.clamp(0.0, 1.0)).round() as u8;
    RGBColor(mix(target.0), mix(target.1), mix(target.2))
}

/// The colour bar of [`share_colour`] from 0 (bottom, red) to 1 (top, blue), `height` pixels
/// high at `(x, top)`, with its ticks and `title` above it.
pub fn share_colour_bar<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    x: i32,
    top: i32,
    height: i32,
    title: &str,
) -> DrawResult<DB> {
    let width = 22;
    for i in 0..height {
        let share = 1.0 - i as f64 / (height - 1) as f64;
        root.draw(&Rectangle::new(
            [(x, top + i), (x + width, top + i + 1)],
            share_colour(share).filled(),
        ))?;
    }
    root.draw(&Rectangle::new(
        [(x, top), (x + width, top + height)],
        RGBColor(120, 120, 120),
    ))?;
    for (share, label) in [
        (1.0, "1 (all won)"),
        (0.75, "0.75"),
        (0.5, "0.5 (even)"),
        (0.25, "0.25"),
        (0.0, "0 (all lost)"),
    ] {
        let y = top + ((1.0 - share) * (height - 1) as f64).round() as i32;
        root.draw(&PathElement::new(
            vec![(x + width, y), (x + width + 5, y)],
            BLACK,
        ))?;
        draw_label(
            root,
            label.to_string(),
            (x + width + 8, y),
            12.0,
            BLACK,
            (HPos::Left, VPos::Center),
        )?;
    }
    draw_label(
        root,
        title.to_string(),
        (x, top - 18),
        13.0,
        RGBColor(90, 90, 90),
        (HPos::Left, VPos::Center),
    )
}

/// The side of a heat map's square cell, in pixels (leagues' and portfolios' matrices).
pub const MATRIX_CELL: i32 = 120;

/// A square heat map whose top left cell is at `origin`: each name above its column (wrapped),
/// the two axes' labels (`axes`: the text and its height above the matrix) left of the column
/// names, then row by row the row's name at its left (`name_size`) and `draw_row(a, y)`, which
/// draws row `a`'s cells at height `y`.
pub fn matrix_frame<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    names: &[String],
    origin: (i32, i32),
    axes: [(&str, i32); 2],
    name_size: f64,
    mut draw_row: impl FnMut(usize, i32) -> DrawResult<DB>,
) -> DrawResult<DB> {
    let (x0, y0) = origin;
    for (j, name) in names.iter().enumerate() {
        let lines = wrap(name, 14);
        let cx = x0 + j as i32 * MATRIX_CELL + MATRIX_CELL / 2;
        for (k, line) in lines.iter().enumerate() {
            let y = y0 - 10 - (lines.len() - k) as i32 * 18;
            draw_label(
                root,
                line.clone(),
                (cx, y),
                15.0,
                BLACK,
                (HPos::Center, VPos::Top),
            )?;
        }
    }
    for (axis, dy) in axes {
        draw_label(
            root,
            axis.into(),
            (x0 - 10, y0 - dy),
            13.0,
            RGBColor(90, 90, 90),
            (HPos::Right, VPos::Center),
        )?;
    }
    for (a, name) in names.iter().enumerate() {
        let y = y0 + a as i32 * MATRIX_CELL;
        draw_label(
            root,
            name.clone(),
            (x0 - 10, y + MATRIX_CELL / 2),
            name_size,
            BLACK,
            (HPos::Right, VPos::Center),
        )?;
        draw_row(a, y)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_every_character_and_respects_the_width() {
        let text = "Q + 2·C·√(2·ln N/n) + √√√√N/(1.189 − ln(Q/C) + √√√√N) − min(Q, C)";
        let lines = wrap(text, 20);
        assert!(lines.len() > 1);
        for l in &lines {
            assert!(l.chars().count() <= 20, "{l}");
        }
        let rejoined: String = lines.join("").chars().filter(|c| *c != ' ').collect();
        let original: String = text.chars().filter(|c| *c != ' ').collect();
        assert_eq!(rejoined, original);
    }

    #[test]
    fn text_widths_grow_with_the_text_and_the_size() {
        let short = text_width("MCTS", 15.0);
        let long = text_width("MCTS with a much longer name", 15.0);
        assert!(short > 20 && long > 3 * short, "{short} {long}");
        assert!(text_width("MCTS", 30.0) > short * 3 / 2);
        assert_eq!(widest(["MCTS", "MCTS with a much longer name"], 15.0), long);
    }

    // Issue 43, cause 16: a full disk while writing a PNG is reported by its cause, not as the
    // backend's `Debug` text.
    #[test]
    fn a_failed_png_write_is_reported_by_its_cause() {
        use plotters_bitmap::BitMapBackendError as Bitmap;
        let full = || std::io::Error::other("No space left on device");
        let wrap = |e| DrawingAreaErrorKind::BackendError(DrawingErrorKind::DrawingError(e));
        let path = Path::new("plots/x.png");
        for shown in [
            draw_error(path, png_error(&png::EncodingError::IoError(full()))),
            draw_error(path, bitmap_error(&wrap(Bitmap::IOError(full())))),
        ] {
            assert_eq!(
                shown.to_string(),
                "plots/x.png: cannot draw the figure: No space left on device"
            );
        }
        // As the encoder meets it: a writer whose disk is full.
        struct Full;
        impl std::io::Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("No space left on device"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let error = write_png(Full, &[255; 2 * 2 * 3], (2, 2)).unwrap_err();
        assert_eq!(
            draw_error(path, png_error(&error)).to_string(),
            "plots/x.png: cannot draw the figure: No space left on device"
        );
    }

    #[test]
    fn the_png_holds_the_pixels_drawn() {
        let (w, h) = (3u32, 2u32);
        let rgb: Vec<u8> = (0..w * h * 3).map(|i| (i * 37 % 256) as u8).collect();
        let mut bytes = Vec::new();
        write_png(&mut bytes, &rgb, (w, h)).unwrap();
        let mut reader = png::Decoder::new(bytes.as_slice()).read_info().unwrap();
        let mut back = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut back).unwrap();
        assert_eq!((info.width, info.height), (w, h));
        assert_eq!(
            (info.color_type, info.bit_depth),
            (png::ColorType::Rgb, png::BitDepth::Eight)
        );
        assert_eq!(&back[..info.buffer_size()], rgb.as_slice());
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(92.0), 20.0);
        assert_eq!(tick_step(5.0), 1.0);
        assert_eq!(tick_step(263.0), 100.0);
    }
}

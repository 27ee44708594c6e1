//! The one font every figure uses, embedded in the binary so plots render on a machine with no
//! fonts and no font libraries installed.
//!
//! plotters is built with `ab_glyph` instead of font-kit/fontconfig, so it knows no system
//! fonts: DejaVu Sans (Bitstream Vera licence, see `assets/fonts/LICENSE-DejaVu.txt`) is
//! registered from bytes under the generic family names before the first figure is drawn. It
//! covers the symbols formula labels use (√, ·, −, ≠).

use super::PlotError;
use plotters::style::{register_font, FontStyle};
use std::sync::OnceLock;

static DEJAVU_SANS: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");

/// The embedded font file, for the PNG text renderer (`chart`).
pub(crate) fn bytes() -> &'static [u8] {
    DEJAVU_SANS
}

/// The family name figures ask for.
pub const FAMILY: &str = "sans-serif";

/// Registers the embedded font (once per process) for every generic family and style.
pub fn register() -> Result<(), PlotError> {
    static DONE: OnceLock<bool> = OnceLock::new();
    let ok = *DONE.get_or_init(|| {
        ["sans-serif", "serif", "monospace"].iter().all(|family| {
            [FontStyle::Normal, FontStyle::Bold]
                .into_iter()
                .all(|style| register_font(family, style, DEJAVU_SANS).is_ok())
        })
    });
    if ok {
        Ok(())
    } else {
        Err(PlotError::Font)
    }
}

//! Helpers of the analysis tests: checking that a PNG is a well-formed image of the expected
//! size with real content, and that an SVG is a complete document.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn temp_dir(name: &str) -> PathBuf {
    let dir = crate::support::scratch("analysis", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Walks every chunk of a PNG, checking its CRC, and returns (width, height, IDAT bytes).
/// Panics with the file name on anything malformed.
pub fn check_png(path: &Path) -> (u32, u32, usize) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        &bytes[..8],
        b"\x89PNG\r\n\x1a\n",
        "{}: not a PNG signature",
        path.display()
    );
    let mut at = 8;
    let (mut width, mut height, mut idat) = (0, 0, 0);
    let mut seen_end = false;
    while at + 12 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let data = &bytes[at + 8..at + 8 + len];
        let crc = u32::from_be_bytes(bytes[at + 8 + len..at + 12 + len].try_into().unwrap());
        assert_eq!(
            crc32(&bytes[at + 4..at + 8 + len]),
            crc,
            "{}: bad CRC in chunk {}",
            path.display(),
            String::from_utf8_lossy(kind)
        );
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(data[0..4].try_into().unwrap());
                height = u32::from_be_bytes(data[4..8].try_into().unwrap());
            }
            b"IDAT" => idat += len,
            b"IEND" => seen_end = true,
            _ => {}
        }
        at += 12 + len;
    }
    assert!(seen_end, "{}: no IEND chunk", path.display());
    assert_eq!(at, bytes.len(), "{}: trailing bytes", path.display());
    assert!(
        width > 100 && height > 100,
        "{}: {width}×{height}",
        path.display()
    );
    (width, height, idat)
}

/// Checks a PNG and that it holds a drawing (a blank canvas compresses to almost nothing).
pub fn check_png_drawn(path: &Path) -> (u32, u32) {
    let (w, h, idat) = check_png(path);
    assert!(
        idat > 4000,
        "{}: only {idat} bytes of image data: is it blank?",
        path.display()
    );
    (w, h)
}

/// Reads an SVG, checks it is a complete document of the given size, and returns its text.
pub fn check_svg(path: &Path, size: (u32, u32)) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        text.starts_with(&format!("<svg width=\"{}\" height=\"{}\"", size.0, size.1)),
        "{}: {}",
        path.display(),
        &text[..text.len().min(80)]
    );
    assert!(
        text.trim_end().ends_with("</svg>"),
        "{}: truncated",
        path.display()
    );
    text
}

/// Checks the PNG and SVG pair `dir/STEM.{png,svg}` and returns the SVG text.
pub fn check_pair(dir: &Path, stem: &str) -> String {
    let size = check_png_drawn(&dir.join(format!("{stem}.png")));
    check_svg(&dir.join(format!("{stem}.svg")), size)
}

//! The report of a tuning run (`evomcts tune`): its `summary.md` as written (the method, the
//! values, the recommendation and the re-estimate), the parameters' trajectories and the spec.

use super::{write_sectioned_page, ReportError, WrittenReport};
use evomcts_records::escape;
use std::path::Path;

/// A file of the run as preformatted text, or a note that the run has not written it (yet).
fn run_text(dir: &Path, name: &str, missing: &str) -> String {
    match evomcts_records::runfs::read_capped_text(
        &dir.join(name),
        evomcts_records::runfs::MAX_DATA_FILE_BYTES,
        "a run's file",
    ) {
        Ok(text) => format!("<pre>{}</pre>\n", escape::html(&text)),
        Err(_) => format!("<p class=\"warning\">{}</p>\n", escape::html(missing)),
    }
}

/// Writes the report of the tuning run in `dir` into `out`.
pub fn write_tune_report(dir: &Path, out: &Path) -> Result<WrittenReport, ReportError> {
    let mut files = Vec::new();
    let figures = super::run_figures(&[dir.to_path_buf()], &out.join("figures"), &mut files)?;
    let sections = [
        (
            "summary",
            "Summary",
            run_text(
                dir,
                "summary.md",
                "summary.md is not written yet: the run has steps or its re-estimate left (resume it with --resume).",
            ),
        ),
        ("figures", "Figures", super::figures_html(&figures)),
        (
            "spec",
            "Spec",
            run_text(dir, "spec.ron", "spec.ron is missing from the run folder."),
        ),
    ];
    let name = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    write_sectioned_page(out, "Tuning run", &name, &sections, files, Vec::new())
}

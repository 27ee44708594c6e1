//! The report of a study (`evomcts study`): `study.csv` as a table, `study.md` as written, the
//! phases' run folders (each reported on its own by `evomcts report FOLDER`) and the spec.

use super::{write_sectioned_page, ReportError, WrittenReport};
use evomcts_records::escape;
use evomcts_study::{StudySpec, PHASES_RON, STUDY_CSV, STUDY_CSV_HEADER, STUDY_MD, STUDY_RON};
use std::path::Path;

/// A file of the study as preformatted text, or a note that it is not written (yet).
fn study_text(dir: &Path, name: &str, missing: &str) -> String {
    match evomcts_records::runfs::read_capped_text(
        &dir.join(name),
        evomcts_records::runfs::MAX_DATA_FILE_BYTES,
        "a study's file",
    ) {
        Ok(text) => format!("<pre>{}</pre>\n", escape::html(&text)),
        Err(_) => format!("<p class=\"warning\">{}</p>\n", escape::html(missing)),
    }
}

/// The phases' folders that exist, each with the command that reports it (`report` for a tuning
/// or evolution run; a validation has its `summary.md` and `validate sequential`).
fn phases_list(dir: &Path) -> String {
    let text = evomcts_records::runfs::read_capped_text(
        &dir.join(STUDY_RON),
        evomcts_records::runfs::MAX_SPEC_FILE_BYTES,
        "a spec",
    )
    .unwrap_or_default();
    let Ok(spec) = StudySpec::from_ron(&text, STUDY_RON) else {
        return "<p class=\"warning\">study.ron does not read as a study spec.</p>\n".into();
    };
    let mut out = String::from("<ul>\n");
    for budget in &spec.budgets {
        for phase in ["tune", "evolve", "validate"] {
            let folder = format!("sims-{budget}/{phase}");
            let command = match phase {
                "validate" => "evomcts validate sequential",
                _ => "evomcts report",
            };
            let state = if dir.join(&folder).is_dir() {
                format!(
                    "<code>{command} {}</code>",
                    escape::html(&escape::path(&dir.join(&folder)))
                )
            } else {
                "not started".to_string()
            };
            out.push_str(&format!(
                "<li>{} simulations, {phase}: <code>{}</code>: {state}</li>\n",
                budget,
                escape::html(&folder)
            ));
        }
    }
    out.push_str("</ul>\n");
    out
}

/// Writes the report of the study in `dir` into `out`.
pub fn write_study_report(dir: &Path, out: &Path) -> Result<WrittenReport, ReportError> {
    let files = Vec::new();
    let results = if dir.join(STUDY_CSV).is_file() {
        super::evolution::csv_table(dir, STUDY_CSV, STUDY_CSV_HEADER, "One row per budget")?
    } else {
        "<p class=\"warning\">study.csv is not written yet: no budget has finished its three phases (resume the study with --resume).</p>\n".to_string()
    };
    let sections = [
        ("results", "Results", results),
        (
            "summary",
            "Summary",
            study_text(dir, STUDY_MD, "study.md is not written yet."),
        ),
        ("phases", "Phases", phases_list(dir)),
        (
            "finished",
            "Finished phases",
            study_text(dir, PHASES_RON, "No phase has finished yet."),
        ),
        (
            "spec",
            "Spec",
            study_text(dir, STUDY_RON, "study.ron is missing from the folder."),
        ),
    ];
    let name = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    write_sectioned_page(out, "Study", &name, &sections, files, Vec::new())
}

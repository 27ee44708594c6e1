//! The report of an evolution run: its logbook and hall of fame as the run wrote them, the
//! fitness of each generation with its intervals, the champion and its lineage, and the front
//! between simple and strong when the run has one (`pareto.csv`).

use super::html::{self, inline_svg, link, section, table};
use super::{write_file, ReportError, WrittenReport, STYLESHEET};
use evomcts_evolve::pareto::{self, Verdict, ALPHA, PARETO_CSV};
use evomcts_evolve::population::{gap_warning, generations_on_disk, read_generations, Generation};
use evomcts_evolve::reestimate::{REESTIMATE_CSV, REESTIMATE_HEADER};
use evomcts_evolve::report::{
    hall_of_fame, lineage, lineage_svg, HALL_OF_FAME, HALL_OF_FAME_HEADER, HALL_SIZE, LOGBOOK,
    LOGBOOK_HEADER,
};
use evomcts_formula::typeset::pretty;
use evomcts_league::report::TextTable;
use evomcts_records::csv::{CsvError, Row, Table};
use evomcts_records::escape;
use std::path::Path;

/// A CSV cell for people: a number with a fractional part to three decimals, as the terminal
/// prints fitness; anything else (whole numbers, formulas, ids) as it is. The CSV file itself
/// keeps full precision.
fn rounded_cell(cell: &str) -> String {
    let looks_numeric = cell.contains('.')
        && cell
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    match cell.parse::<f64>() {
        Ok(value) if looks_numeric && value.is_finite() => format!("{value:.3}"),
        _ => cell.to_string(),
    }
}

/// The run's table `name` read and checked against its `header` (`records::csv`: a header
/// other than the writer's, a row of the wrong width, a quote left open or a file cut in its
/// last row is refused, naming the file and line); `None` when the run has not written it.
pub(super) fn read_table(
    dir: &Path,
    name: &str,
    header: &str,
) -> Result<Option<Table>, ReportError> {
    Ok(Table::read(&dir.join(name), header, "a run's table")?)
}

/// A table of the run for people: its rows under its header.
fn text_table(table: &Table, name: &str, title: &str) -> String {
    html::table(&TextTable {
        title: format!("{title} ({name}; numbers to three decimals, the file keeps them whole)"),
        headers: table.columns().to_vec(),
        rows: table
            .rows()
            .map(|row| row.fields().iter().map(|cell| rounded_cell(cell)).collect())
            .collect(),
    })
}

/// The run's table `name` (its header `header`) as a table, or a note when the run has not
/// written it.
pub(super) fn csv_table(
    dir: &Path,
    name: &str,
    header: &str,
    title: &str,
) -> Result<String, ReportError> {
    Ok(match read_table(dir, name, header)? {
        Some(table) => text_table(&table, name, title),
        None => format!(
            "<p class=\"warning\">{} is missing from the run folder.</p>\n",
            escape::html(name)
        ),
    })
}

fn interval(mean: f64, low: f64, high: f64) -> [String; 3] {
    [
        format!("{mean:.3}"),
        format!("{low:.3}"),
        format!("{high:.3}"),
    ]
}

/// Best and mean fitness of each generation, the champion's and the seed formula's fitness
/// with their 95% intervals.
fn fitness_table(gens: &[Generation]) -> TextTable {
    TextTable {
        title: "Fitness per generation: best and mean of the candidates evaluated; champion and seed formula with 95% intervals".into(),
        headers: [
            "generation",
            "best",
            "mean",
            "champion_mean",
            "champion_low",
            "champion_high",
            "champion_samples",
            "reference_mean",
            "reference_low",
            "reference_high",
        ]
        .map(String::from)
        .to_vec(),
        rows: gens
            .iter()
            .map(|g| {
                let (c, r) = (&g.champion.fitness, &g.reference.fitness);
                let mut row = vec![
                    g.generation.to_string(),
                    format!("{:.3}", g.best),
                    format!("{:.3}", g.mean),
                ];
                row.extend(interval(c.mean, c.low, c.high));
                row.push(c.samples.to_string());
                row.extend(interval(r.mean, r.low, r.high));
                row
            })
            .collect(),
    }
}

/// What the re-estimate changed, read from `reestimate.csv`: the candidate evolution ranked
/// first by mean, its evolution and fresh means (the shrinkage is the winner's curse), and the
/// candidate the fresh samples crowned. `None` when the run has no re-estimate (yet).
struct ReestimateSummary {
    leader_id: String,
    leader_evolution: f64,
    leader_fresh: f64,
    crowned_id: String,
    crowned_fresh: (f64, f64, f64),
    crowned_formula: String,
}

/// The summary of `reestimate.csv` (read against its header): the leader by evolution mean
/// and the one crowned row; an error names the file and line.
fn reestimate_summary(table: &Table) -> Result<ReestimateSummary, CsvError> {
    let column = |name: &str| table.column(name).expect("the header names the column");
    let (id, evolution, fresh, low, high, crowned, formula) = (
        column("id"),
        column("evolution_mean"),
        column("fresh_mean"),
        column("fresh_low"),
        column("fresh_high"),
        column("crowned"),
        column("formula"),
    );
    let mut leader: Option<(Row<'_>, f64)> = None;
    let mut winner: Option<Row<'_>> = None;
    for row in table.rows() {
        // An empty mean is an estimate that was not finite: no leader (the writer leaves it
        // empty); anything else must be a number. The last of equal means leads, as ever.
        if !row.get(evolution).is_empty() {
            let mean = row.number(evolution)?;
            if leader.as_ref().is_none_or(|(_, best)| mean >= *best) {
                leader = Some((row, mean));
            }
        }
        match row.get(crowned) {
            "true" if winner.is_some() => {
                return Err(row.field_error(crowned, "a second crowned row: one is crowned"))
            }
            "true" => winner = Some(row),
            "false" => {}
            other => {
                return Err(
                    row.field_error(crowned, format!("expected true or false, found {other:?}"))
                )
            }
        }
    }
    let (Some((leader, leader_evolution)), Some(winner)) = (leader, winner) else {
        return Err(table.error_at(
            table.len() + 1,
            "no crowned row: the re-estimate crowns one candidate",
        ));
    };
    Ok(ReestimateSummary {
        leader_id: leader.get(id).to_string(),
        leader_evolution,
        leader_fresh: leader.number(fresh)?,
        crowned_id: winner.get(id).to_string(),
        crowned_fresh: (
            winner.number(fresh)?,
            winner.number(low)?,
            winner.number(high)?,
        ),
        crowned_formula: winner.get(formula).to_string(),
    })
}

/// The re-estimate's section: what it changed in words, then `reestimate.csv` as a table.
fn reestimate_section(dir: &Path) -> Result<Option<(ReestimateSummary, String)>, ReportError> {
    let Some(table) = read_table(dir, REESTIMATE_CSV, REESTIMATE_HEADER)? else {
        return Ok(None);
    };
    let summary = reestimate_summary(&table)?;
    let words = format!(
        "<p>The hall of fame's best were re-played on fresh samples that no generation drew. \
         Evolution's leader, #{}, had an evolution mean of {:.3} and a fresh mean of {:.3}: its \
         estimate shrank by {:.3}. The fresh samples crown #{} with {:.3} [{:.3}, {:.3}].</p>\n",
        escape::html(&summary.leader_id),
        summary.leader_evolution,
        summary.leader_fresh,
        summary.leader_evolution - summary.leader_fresh,
        escape::html(&summary.crowned_id),
        summary.crowned_fresh.0,
        summary.crowned_fresh.1,
        summary.crowned_fresh.2,
    );
    let table = text_table(
        &table,
        REESTIMATE_CSV,
        "Each candidate's evolution estimate and its fresh one; the crowned row is the champion",
    );
    Ok(Some((summary, words + &table)))
}

/// The front's section, from `pareto.csv`: each front member simplified with its fitness and
/// interval, then the file as a table; `None` when the run has no front.
fn pareto_section(dir: &Path) -> Result<Option<String>, ReportError> {
    let Some((table, rows)) = pareto::read(dir)? else {
        return Ok(None);
    };
    let samples = rows.first().map_or(0, |r| r.samples);
    let mut html = format!(
        "<p>The hall of fame's best distinct simplified formulas and the seed formula (#0), \
         each on the same {samples} fresh samples. A candidate is on the front when no candidate \
         as simple or simpler beats it and it beats every simpler front member (paired Wilcoxon \
         signed-rank tests, Holm-adjusted over all pairs, α = {ALPHA}). The front, simplest \
         first:</p>\n<ul>\n"
    );
    for r in rows.iter().filter(|r| r.verdict == Verdict::Front) {
        let shown = r
            .simplified
            .parse::<evomcts_formula::Formula>()
            .map_or_else(|_| r.simplified.clone(), |f| pretty(&f));
        html.push_str(&format!(
            "<li>{} nodes, #{}: <code>{}</code> · {:.3} [{:.3}, {:.3}]</li>\n",
            r.complexity,
            r.id,
            escape::html(&shown),
            r.mean,
            r.low,
            r.high
        ));
    }
    html.push_str("</ul>\n");
    html.push_str(&text_table(
        &table,
        PARETO_CSV,
        "Every candidate judged, by complexity; `against` is the candidate of the deciding comparison",
    ));
    Ok(Some(html))
}

/// Reads the generation files of the evolution run in `dir` and writes its report into `out`.
pub fn write_evolution_report(dir: &Path, out: &Path) -> Result<WrittenReport, ReportError> {
    let gens = read_generations(dir)?;
    let gap = gap_warning(dir, &generations_on_disk(dir)?);
    let Some(latest) = gens.last() else {
        return Err(ReportError::Input(format!(
            "{}: no generation files (gen-NNN.ron) yet",
            dir.display()
        )));
    };
    // Every table is read and checked before anything is written: one that does not read
    // refuses the report with nothing on disk.
    let tables = RunTables::read(dir)?;
    let mut files = Vec::new();
    let figures = super::run_figures(&[dir.to_path_buf()], &out.join("figures"), &mut files)?;
    let reestimate = tables.reestimate.as_ref().map(|(s, _)| s);
    let mut body = evolution_header(&gens, latest, reestimate);
    let sections = evolution_sections(dir, &gens, &figures, tables)?;
    body.push_str("<nav><ul>\n");
    for (id, heading, _) in &sections {
        body.push_str(&format!("<li>{}</li>\n", link(&format!("#{id}"), heading)));
    }
    body.push_str("</ul></nav>\n</header>\n<main>\n");
    if let Some(w) = &gap {
        body.push_str(&format!("<p class=\"warning\">{}</p>\n", escape::html(w)));
    }
    for (id, heading, content) in &sections {
        body.push_str(&section(id, heading, content));
    }
    body.push_str("</main>\n");
    let page = html::page(
        &format!("Evolution run {}", latest.run),
        "report.css",
        &body,
        &[],
    );
    write_file(out, "report.css", STYLESHEET, &mut files)?;
    write_file(out, "index.html", &page, &mut files)?;
    Ok(WrittenReport {
        index: out.join("index.html"),
        game_pages: 0,
        largest_game_page: 0,
        files,
        warnings: gap.into_iter().collect(),
    })
}

/// The run's tables as the page shows them, each read and checked (`records::csv`).
struct RunTables {
    logbook: String,
    reestimate: Option<(ReestimateSummary, String)>,
    pareto: Option<String>,
    hall_of_fame: String,
}

impl RunTables {
    fn read(dir: &Path) -> Result<RunTables, ReportError> {
        Ok(RunTables {
            logbook: csv_table(dir, LOGBOOK, LOGBOOK_HEADER, "One row per generation")?,
            reestimate: reestimate_section(dir)?,
            pareto: pareto_section(dir)?,
            hall_of_fame: csv_table(
                dir,
                HALL_OF_FAME,
                HALL_OF_FAME_HEADER,
                "The best distinct formulas, ranked by the lower end of their 95% interval",
            )?,
        })
    }
}

/// The page's sections in order, each as (anchor, heading, HTML).
fn evolution_sections(
    dir: &Path,
    gens: &[Generation],
    figures: &[super::InlineFigure],
    tables: RunTables,
) -> Result<Vec<(&'static str, &'static str, String)>, ReportError> {
    let spec = match evomcts_records::runfs::read_spec_text(&dir.join("spec.ron")) {
        Ok(text) => format!("<pre>{}</pre>\n", escape::html_lines(&text)),
        Err(_) => "<p class=\"warning\">spec.ron is missing from the run folder.</p>\n".into(),
    };
    let hall = hall_of_fame(gens, HALL_SIZE);
    let tree = lineage_svg(&lineage(gens, &hall));
    let mut sections = vec![("logbook", "Logbook", tables.logbook)];
    if let Some((_, content)) = tables.reestimate {
        sections.push(("reestimate", "Re-estimate of the best", content));
    }
    if let Some(content) = tables.pareto {
        sections.push(("pareto", "The front between simple and strong", content));
    }
    sections.extend([
        ("figures", "Figures", super::figures_html(figures)),
        ("fitness", "Fitness per generation", table(&fitness_table(gens))),
        ("hall-of-fame", "Hall of fame", tables.hall_of_fame),
        (
            "lineage",
            "The champion's lineage",
            format!(
                "<p class=\"note\">Parent above child; the champion has a red frame, the hall of fame blue ones.</p>\n{}",
                inline_svg(&tree)
            ),
        ),
        ("spec", "Spec", spec),
    ]);
    Ok(sections)
}

/// The page's header up to its navigation: the run, what it spent, and its champion, by the
/// evolution and, if there is one, by the re-estimate.
fn evolution_header(
    gens: &[Generation],
    latest: &Generation,
    reestimate: Option<&ReestimateSummary>,
) -> String {
    let champion = &latest.champion;
    let mut body = format!(
        "<header>\n<h1>Evolution run {}</h1>\n<p>{} generations (the first population and {} of evolution) · {} fitness samples spent</p>\n<p>Champion (generation {}, #{}): <code>{}</code> · fitness {:.3} [{:.3}, {:.3}] over {} samples</p>\n",
        escape::html(&latest.run),
        gens.len(),
        gens.len().saturating_sub(1),
        latest.samples_spent,
        latest.generation,
        champion.id,
        escape::html(&pretty(&champion.formula)),
        champion.fitness.mean,
        champion.fitness.low,
        champion.fitness.high,
        champion.fitness.samples,
    );
    if let Some(summary) = reestimate {
        body.push_str(&format!(
            "<p>Champion by the re-estimate (#{}): <code>{}</code> · fresh fitness {:.3} [{:.3}, {:.3}]</p>\n",
            escape::html(&summary.crowned_id),
            escape::html(&summary.crowned_formula),
            summary.crowned_fresh.0,
            summary.crowned_fresh.1,
            summary.crowned_fresh.2,
        ));
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_cells_round_numbers_and_keep_everything_else() {
        assert_eq!(rounded_cell("-6.166666666666666"), "-6.167");
        assert_eq!(rounded_cell("0.2812500000000002"), "0.281");
        assert_eq!(rounded_cell("24"), "24");
        assert_eq!(
            rounded_cell("Q + 2*C*sqrt(2.5*ln(N)/n)"),
            "Q + 2*C*sqrt(2.5*ln(N)/n)"
        );
        assert_eq!(rounded_cell("1e5"), "1e5");
        assert_eq!(rounded_cell(""), "");
    }
}

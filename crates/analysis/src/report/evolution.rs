//! The report of an evolution run: its logbook and hall of fame as the run wrote them, the
//! fitness of each generation with its intervals, the champion and its lineage, and the front
//! between simple and strong when the run has one (`pareto.csv`).

use super::html::{self, inline_svg, link, section, table};
use super::{write_file, ReportError, WrittenReport, STYLESHEET};
use evomcts_evolve::pareto::{read_csv as read_pareto, Verdict, ALPHA, PARETO_CSV};
use evomcts_evolve::population::{gap_warning, generations_on_disk, read_generations, Generation};
use evomcts_evolve::reestimate::REESTIMATE_CSV;
use evomcts_evolve::report::{
    hall_of_fame, lineage, lineage_svg, parse_csv, HALL_OF_FAME, HALL_SIZE, LOGBOOK,
};
use evomcts_formula::typeset::pretty;
use evomcts_league::report::TextTable;
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

/// The text of the run's file `name`, `None` when the run has not written it.
fn read_run_table(dir: &Path, name: &str) -> Result<Option<String>, ReportError> {
    let path = dir.join(name);
    match evomcts_records::runfs::read_capped_text(
        &path,
        evomcts_records::runfs::MAX_DATA_FILE_BYTES,
        "a run's table",
    ) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ReportError::Io {
            path: path.display().to_string(),
            source,
        }),
    }
}

/// CSV text of the run's file `name` as a table.
fn text_table(text: &str, name: &str, title: &str) -> String {
    let mut rows = parse_csv(text).into_iter();
    let headers = rows.next().unwrap_or_default();
    table(&TextTable {
        title: format!("{title} ({name}; numbers to three decimals, the file keeps them whole)"),
        headers,
        rows: rows
            .map(|row| row.iter().map(|cell| rounded_cell(cell)).collect())
            .collect(),
    })
}

/// A CSV file of the run as a table, or a note when the run has not written it.
pub(super) fn csv_table(dir: &Path, name: &str, title: &str) -> Result<String, ReportError> {
    Ok(match read_run_table(dir, name)? {
        Some(text) => text_table(&text, name, title),
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

fn reestimate_summary(text: &str) -> Option<ReestimateSummary> {
    let mut rows = parse_csv(text).into_iter();
    let headers = rows.next()?;
    let column = |name: &str| headers.iter().position(|h| h == name);
    let (id, evolution, fresh, low, high, crowned, formula) = (
        column("id")?,
        column("evolution_mean")?,
        column("fresh_mean")?,
        column("fresh_low")?,
        column("fresh_high")?,
        column("crowned")?,
        column("formula")?,
    );
    let rows: Vec<Vec<String>> = rows.filter(|r| r.len() == headers.len()).collect();
    let number = |row: &Vec<String>, i: usize| row[i].parse::<f64>().ok();
    let leader = rows
        .iter()
        .filter_map(|r| Some((r, number(r, evolution)?)))
        .max_by(|(_, a), (_, b)| a.total_cmp(b))?
        .0;
    let winner = rows.iter().find(|r| r[crowned] == "true")?;
    Some(ReestimateSummary {
        leader_id: leader[id].clone(),
        leader_evolution: number(leader, evolution)?,
        leader_fresh: number(leader, fresh)?,
        crowned_id: winner[id].clone(),
        crowned_fresh: (
            number(winner, fresh)?,
            number(winner, low)?,
            number(winner, high)?,
        ),
        crowned_formula: winner[formula].clone(),
    })
}

/// The re-estimate's section: what it changed in words, then `reestimate.csv` as a table.
fn reestimate_section(dir: &Path) -> Result<Option<(ReestimateSummary, String)>, ReportError> {
    let Some(text) = read_run_table(dir, REESTIMATE_CSV)? else {
        return Ok(None);
    };
    let path = dir.join(REESTIMATE_CSV);
    let Some(summary) = reestimate_summary(&text) else {
        return Err(ReportError::Input(format!(
            "{}: not a re-estimate table (expected the columns id, evolution_mean, fresh_mean, \
             fresh_low, fresh_high, crowned, formula and one crowned row)",
            path.display()
        )));
    };
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
        &text,
        REESTIMATE_CSV,
        "Each candidate's evolution estimate and its fresh one; the crowned row is the champion",
    );
    Ok(Some((summary, words + &table)))
}

/// The front's section, from `pareto.csv`: each front member simplified with its fitness and
/// interval, then the file as a table; `None` when the run has no front.
fn pareto_section(dir: &Path) -> Result<Option<String>, ReportError> {
    let Some(text) = read_run_table(dir, PARETO_CSV)? else {
        return Ok(None);
    };
    let rows = read_pareto(&text)
        .map_err(|m| ReportError::Input(format!("{}: {m}", dir.join(PARETO_CSV).display())))?;
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
        &text,
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
    let mut files = Vec::new();
    let figures = super::run_figures(&[dir.to_path_buf()], &out.join("figures"), &mut files)?;
    let reestimate = reestimate_section(dir)?;
    let sections = evolution_sections(dir, &gens, &figures, reestimate.as_ref())?;
    let mut body = evolution_header(&gens, latest, reestimate.as_ref().map(|(s, _)| s));
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

/// The page's sections in order, each as (anchor, heading, HTML).
fn evolution_sections(
    dir: &Path,
    gens: &[Generation],
    figures: &[super::InlineFigure],
    reestimate: Option<&(ReestimateSummary, String)>,
) -> Result<Vec<(&'static str, &'static str, String)>, ReportError> {
    let spec = match evomcts_records::runfs::read_spec_text(&dir.join("spec.ron")) {
        Ok(text) => format!("<pre>{}</pre>\n", escape::html_lines(&text)),
        Err(_) => "<p class=\"warning\">spec.ron is missing from the run folder.</p>\n".into(),
    };
    let hall = hall_of_fame(gens, HALL_SIZE);
    let tree = lineage_svg(&lineage(gens, &hall));
    let mut sections = vec![(
        "logbook",
        "Logbook",
        csv_table(dir, LOGBOOK, "One row per generation")?,
    )];
    if let Some((_, content)) = reestimate {
        sections.push(("reestimate", "Re-estimate of the best", content.clone()));
    }
    if let Some(content) = pareto_section(dir)? {
        sections.push(("pareto", "The front between simple and strong", content));
    }
    sections.extend([
        ("figures", "Figures", super::figures_html(figures)),
        ("fitness", "Fitness per generation", table(&fitness_table(gens))),
        (
            "hall-of-fame",
            "Hall of fame",
            csv_table(
                dir,
                HALL_OF_FAME,
                "The best distinct formulas, ranked by the lower end of their 95% interval",
            )?,
        ),
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

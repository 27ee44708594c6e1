//! The checks of the transfer results: a matrix column (`matrix/TARGET.ron`) and the general
//! formula's rows (`general.ron`), each against itself, the spec, the games' results and its
//! validations' folders.

use super::*;

/// `matrix/TARGET.ron` against itself, the spec, the games' results and its cells' folders.
pub(super) fn check_column(
    spec: &PortfolioSpec,
    dir: &Path,
    target: &PortfolioGame,
    c: &MatrixColumn,
    games: &[GameResult],
    at: &At,
) -> Result<(), PortfolioError> {
    if spec.matrix.games == 0 {
        return Err(at.bad(
            "cells",
            "are here, but the spec plays no matrix (`matrix.games` is 0), so no job writes this file",
        ));
    }
    if c.target != target.label {
        return Err(at.bad(
            "target",
            format!(
                "is {}, but the file is the column of {}",
                shown(&c.target),
                shown(&target.label)
            ),
        ));
    }
    let budgets = spec.budgets();
    for (i, cell) in c.cells.iter().enumerate() {
        let f = format!("cells[{i}]");
        if cell.target != target.label {
            return Err(at.bad(
                format!("{f}.target"),
                format!(
                    "is {}, but the file is the column of {}",
                    shown(&cell.target),
                    shown(&target.label)
                ),
            ));
        }
        if spec.game(&cell.source).is_none() {
            return Err(at.bad(
                format!("{f}.source"),
                format!(
                    "is {}, no label of the portfolio's games",
                    shown(&cell.source)
                ),
            ));
        }
        if cell.source == target.label {
            return Err(at.bad(
                format!("{f}.source"),
                format!(
                    "is the column's own game {}: the diagonal is its study's validation, not a cell",
                    shown(&cell.source)
                ),
            ));
        }
        if !budgets.contains(&cell.budget) {
            return Err(at.bad(
                format!("{f}.budget"),
                format!("is {}, not a budget of the spec ({budgets:?})", cell.budget),
            ));
        }
        if let Some(j) = c.cells[..i]
            .iter()
            .position(|o| o.budget == cell.budget && o.source == cell.source)
        {
            return Err(at.bad(
                f,
                format!(
                    "is {}'s champion at {} simulations, which cells[{j}] holds already",
                    shown(&cell.source),
                    cell.budget
                ),
            ));
        }
    }
    let own = games
        .iter()
        .find(|g| g.label == target.label)
        .expect("every game's result is read");
    let expected = column_cells(own, games);
    if c.cells.len() != expected.len() {
        return Err(at.bad(
            "cells",
            format!(
                "holds {} cells, but the spec gives {}: every other game's champion at each budget",
                c.cells.len(),
                expected.len()
            ),
        ));
    }
    for (i, (cell, (row, source, theirs))) in c.cells.iter().zip(expected).enumerate() {
        let f = format!("cells[{i}]");
        if cell.budget != row.budget || cell.source != source.label {
            return Err(at.bad(
                f,
                format!(
                    "is {}'s champion at {} simulations, but the job writes {}'s at {} there (by budget, then in the spec's order of games)",
                    shown(&cell.source),
                    cell.budget,
                    shown(&source.label),
                    row.budget
                ),
            ));
        }
        if cell.formula != theirs.champion {
            return Err(at.bad(
                format!("{f}.formula"),
                format!(
                    "is {}, but the champion of {} at {} simulations is {} ({})",
                    shown(&cell.formula.to_string()),
                    shown(&source.label),
                    row.budget,
                    shown(&theirs.champion.to_string()),
                    inside(dir, &result_file(dir, &source.label, Part::Study))
                ),
            ));
        }
        check_validation(&cell.validation, &format!("{f}.validation"), at)?;
        if cell.validation.games != spec.matrix.games {
            return Err(at.bad(
                format!("{f}.validation.games"),
                format!(
                    "is {}, but a cell plays the spec's matrix.games, {}",
                    cell.validation.games, spec.matrix.games
                ),
            ));
        }
        let cell_spec =
            spec.cell_spec(target, &source.label, row.budget, row.c_e, &theirs.champion);
        let folder = cell_dir(dir, row.budget, &target.label, &source.label);
        check_played(&cell_spec, &folder, &cell.validation, &f, dir, at)?;
    }
    Ok(())
}

/// `general.ron` against itself, the spec's `general`, the games' results, the general
/// evolutions and the held-out games' validation folders.
pub(super) fn check_general(
    spec: &PortfolioSpec,
    dir: &Path,
    r: &GeneralResult,
    games: &[GameResult],
    at: &At,
) -> Result<(), PortfolioError> {
    let Some(general) = &spec.general else {
        return Err(at.bad(
            "rows",
            "are here, but the spec names no general formula (`general`), so no job writes this file",
        ));
    };
    let budgets = spec.budgets();
    for (i, row) in r.rows.iter().enumerate() {
        let f = format!("rows[{i}]");
        if !budgets.contains(&row.budget) {
            return Err(at.bad(
                format!("{f}.budget"),
                format!("is {}, not a budget of the spec ({budgets:?})", row.budget),
            ));
        }
        if spec.game(&row.target).is_none() {
            return Err(at.bad(
                format!("{f}.target"),
                format!(
                    "is {}, no label of the portfolio's games",
                    shown(&row.target)
                ),
            ));
        }
        if general.train.contains(&row.target) {
            return Err(at.bad(
                format!("{f}.target"),
                format!(
                    "is {}, a game the formula evolves on (general.train), not a held-out one",
                    shown(&row.target)
                ),
            ));
        }
        if row.trained_on.contains(&row.target) {
            return Err(at.bad(
                format!("{f}.trained_on"),
                format!(
                    "holds {}, the row's own held-out target",
                    shown(&row.target)
                ),
            ));
        }
        for (k, label) in row.trained_on.iter().enumerate() {
            if spec.game(label).is_none() {
                return Err(at.bad(
                    format!("{f}.trained_on[{k}]"),
                    format!("is {}, no label of the portfolio's games", shown(label)),
                ));
            }
        }
        if row.trained_on != general.train {
            return Err(at.bad(
                format!("{f}.trained_on"),
                format!(
                    "is {}, but the spec's general.train is {}",
                    shown_list(&row.trained_on),
                    shown_list(&general.train)
                ),
            ));
        }
        if let Some(j) = r.rows[..i]
            .iter()
            .position(|o| o.budget == row.budget && o.target == row.target)
        {
            return Err(at.bad(
                f,
                format!(
                    "is {} at {} simulations, which rows[{j}] holds already",
                    shown(&row.target),
                    row.budget
                ),
            ));
        }
    }
    let expected = HeldOut::all(spec, games);
    if r.rows.len() != expected.len() {
        return Err(at.bad(
            "rows",
            format!(
                "holds {} rows, but the spec gives {}: every held-out game at each budget",
                r.rows.len(),
                expected.len()
            ),
        ));
    }
    for (i, (row, e)) in r.rows.iter().zip(expected).enumerate() {
        let f = format!("rows[{i}]");
        if row.budget != e.budget || row.target != e.target.label {
            return Err(at.bad(
                f,
                format!(
                    "is {} at {} simulations, but the job writes {} at {} there (by budget, then in the spec's order of games)",
                    shown(&row.target),
                    row.budget,
                    shown(&e.target.label),
                    e.budget
                ),
            ));
        }
        let evolved: PathBuf = general_dir(dir, e.budget).join(EVOLVE_DIR);
        check_champion(
            &row.formula,
            &evolved,
            &format!("{f}.formula"),
            "the general formula's evolution",
            dir,
            at,
        )?;
        check_validation(&row.validation, &format!("{f}.validation"), at)?;
        if row.validation.games != general.games {
            return Err(at.bad(
                format!("{f}.validation.games"),
                format!(
                    "is {}, but a held-out game plays the spec's general.games, {}",
                    row.validation.games, general.games
                ),
            ));
        }
        let cell = general_cell_spec(spec, general, e.target, e.budget, e.c_e, &row.formula);
        let folder = general_dir(dir, e.budget).join(&e.target.label);
        check_played(&cell, &folder, &row.validation, &f, dir, at)?;
    }
    Ok(())
}

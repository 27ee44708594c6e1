//! The one reader of the CSV tables evomcts writes (a validation's `games.csv`, a tuning run's
//! `tune.csv` and `trajectory.csv`, an evolution's `logbook.csv`, `hall_of_fame.csv`,
//! `reestimate.csv`, `pareto.csv` and fingerprint bank, a study's `study.csv`, a portfolio's
//! tables), used alike by the resume paths, `report`, `plot` and the Python readers, so that
//! a table that does not read for one does not read for any.
//!
//! A table is the writers' dialect of CSV: a header line naming the columns, then one line per
//! row, each ended by a line break (`\r\n` is taken too), fields separated by commas; a field
//! holding a comma or a quote is quoted, its quotes doubled. No writer puts a line break
//! inside a field, so a row is one line and its line number is its row number as a spreadsheet
//! counts them (the header is 1).
//!
//! Reading refuses, naming the file, the line and, where one field is at fault, its number
//! and column:
//! - a header other than the one expected (garbage, another file's, another version's);
//! - a row with more or fewer fields than the header has;
//! - a quote that opens a field and does not close it on its line (a file cut inside a quoted
//!   formula), a quote inside an unquoted field, text after a field's closing quote;
//! - a last line without its line break: the file was cut while written, even if what is left
//!   of the row still has the right number of fields (a number cut to fewer digits).
//!
//! Cells are given as text; [`Row::parse`] reads one as a number or another value, an error
//! naming its field.

use crate::runfs::FileError;
use std::path::Path;

/// What is wrong with a table: the file (as given), and where the text is bad, its line and
/// field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CsvError {
    /// The file could not be read (not found, not text, too large, a folder).
    #[error("{file}: {message}")]
    Io { file: String, message: String },
    /// The text is not the table expected: at `line` (1 is the header), in the `field`th field
    /// (from 1) of column `column` when one field is at fault.
    #[error("{file}:{line}: {}{message}", field_prefix(*field, column))]
    Bad {
        file: String,
        line: usize,
        field: Option<usize>,
        column: Option<String>,
        message: String,
    },
}

fn field_prefix(field: Option<usize>, column: &Option<String>) -> String {
    match (field, column) {
        (Some(k), Some(c)) => format!("field {k} (`{}`): ", crate::escape::terminal(c)),
        (Some(k), None) => format!("field {k}: "),
        _ => String::new(),
    }
}

impl CsvError {
    /// The file the error is about, as given.
    pub fn file(&self) -> &str {
        match self {
            CsvError::Io { file, .. } | CsvError::Bad { file, .. } => file,
        }
    }

    /// The line (1 is the header), when the text is at fault.
    pub fn line(&self) -> Option<usize> {
        match self {
            CsvError::Io { .. } => None,
            CsvError::Bad { line, .. } => Some(*line),
        }
    }

    /// The column at fault, when one field is.
    pub fn column(&self) -> Option<&str> {
        match self {
            CsvError::Io { .. } => None,
            CsvError::Bad { column, .. } => column.as_deref(),
        }
    }

    /// What is wrong, with the field and its column when one is at fault, without the file
    /// and line: `field 2 (`mean`): expected a number, found "high"`.
    pub fn detail(&self) -> String {
        match self {
            CsvError::Io { message, .. } => message.clone(),
            CsvError::Bad {
                field,
                column,
                message,
                ..
            } => format!("{}{message}", field_prefix(*field, column)),
        }
    }

    /// What is wrong, without the file, line and field.
    pub fn message(&self) -> &str {
        match self {
            CsvError::Io { message, .. } | CsvError::Bad { message, .. } => message,
        }
    }
}

/// A resume path's error: the same file, line and message, the file left untouched.
impl From<CsvError> for FileError {
    fn from(e: CsvError) -> FileError {
        let detail = e.detail();
        match e {
            CsvError::Io { file, message } => FileError::Io { file, message },
            CsvError::Bad { file, line, .. } => FileError::Corrupt {
                file,
                line,
                message: detail,
            },
        }
    }
}

/// A table read and checked: its columns (the header's), then its rows, each with as many
/// fields as there are columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    file: String,
    columns: Vec<String>,
    /// Each row's line and fields.
    rows: Vec<(usize, Vec<String>)>,
}

/// One row of a [`Table`]: its fields as text, and errors that name its line and field.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    table: &'a Table,
    line: usize,
    fields: &'a [String],
}

/// How a field of a line ends, once split.
enum Split {
    Fields(Vec<String>),
    /// The field (from 1) is bad: why.
    Bad(usize, String),
}

/// The fields of one line (without its line break).
fn split_line(line: &str) -> Split {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    loop {
        let number = fields.len() + 1;
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                    None => {
                        return Split::Bad(
                            number,
                            "a quote opens the field and nothing closes it on its line \
                             (the file was cut inside it, or a quote was added)"
                                .into(),
                        )
                    }
                }
            }
            match chars.next() {
                None => {
                    fields.push(field);
                    return Split::Fields(fields);
                }
                Some(',') => fields.push(std::mem::take(&mut field)),
                Some(c) => {
                    return Split::Bad(
                        number,
                        format!(
                            "{:?} after the closing quote (a quoted field ends at a comma or \
                             the end of the line)",
                            c
                        ),
                    )
                }
            }
        } else {
            loop {
                match chars.next() {
                    None => {
                        fields.push(field);
                        return Split::Fields(fields);
                    }
                    Some(',') => {
                        fields.push(std::mem::take(&mut field));
                        break;
                    }
                    Some('"') => {
                        return Split::Bad(
                            number,
                            "a quote inside an unquoted field (a field holding a quote is \
                             quoted, its quotes doubled)"
                                .into(),
                        )
                    }
                    Some(c) => field.push(c),
                }
            }
        }
    }
}

/// `text` as a message shows it: escaped, at most 80 characters.
fn shown(text: &str) -> String {
    crate::escape::abbreviated(text, 80)
}

impl Table {
    /// The table of `text`, read from `file`, whose header must be `header` (the column names
    /// joined by commas, as the writer writes it).
    pub fn parse(file: &Path, text: &str, header: &str) -> Result<Table, CsvError> {
        Table::parse_checked(file, text, Some(header))
    }

    /// The table of `text` with the header it has, whatever its columns: every row is still
    /// checked against it. For a reader that checks the columns itself (Python's, which names
    /// the column missing).
    pub fn parse_any(file: &Path, text: &str) -> Result<Table, CsvError> {
        Table::parse_checked(file, text, None)
    }

    /// The table in the file `path` ([`Table::parse`]), `None` when there is no such file;
    /// `what` says what it holds, for the error of a file too large.
    pub fn read(path: &Path, header: &str, what: &str) -> Result<Option<Table>, CsvError> {
        match crate::runfs::read_capped_text(path, crate::runfs::MAX_DATA_FILE_BYTES, what) {
            Ok(text) => Table::parse(path, &text, header).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(CsvError::Io {
                file: path.display().to_string(),
                message: e.to_string(),
            }),
        }
    }

    fn parse_checked(file: &Path, text: &str, header: Option<&str>) -> Result<Table, CsvError> {
        let file = file.display().to_string();
        let bad = |line: usize, field: Option<usize>, column: Option<&String>, message: String| {
            CsvError::Bad {
                file: file.clone(),
                line,
                field,
                column: column.cloned(),
                message,
            }
        };
        let expected = |what: &str| match header {
            Some(h) => format!("{what}; expected the header `{h}`"),
            None => format!("{what}; expected a header line naming the columns"),
        };
        if text.is_empty() {
            return Err(bad(1, None, None, expected("the file is empty")));
        }
        let mut columns: Vec<String> = Vec::new();
        let mut rows = Vec::new();
        let mut rest = text;
        let mut number = 0;
        while !rest.is_empty() {
            number += 1;
            let (line, ended) = match rest.find('\n') {
                Some(end) => {
                    let line = &rest[..end];
                    rest = &rest[end + 1..];
                    (line.strip_suffix('\r').unwrap_or(line), true)
                }
                None => (std::mem::take(&mut rest), false),
            };
            let fields = match split_line(line) {
                Split::Fields(fields) => fields,
                Split::Bad(k, message) if number == 1 => {
                    return Err(bad(
                        1,
                        None,
                        None,
                        expected(&format!("field {k} of the header: {message}")),
                    ))
                }
                Split::Bad(k, message) => {
                    return Err(bad(number, Some(k), columns.get(k - 1), message))
                }
            };
            if number == 1 {
                if let Some(h) = header {
                    if fields.join(",") != h || line.contains('"') {
                        return Err(bad(
                            1,
                            None,
                            None,
                            expected(&format!("found `{}`", shown(line))),
                        ));
                    }
                }
                if fields.iter().any(|c| c.is_empty()) {
                    return Err(bad(
                        1,
                        None,
                        None,
                        expected(&format!("a column without a name in `{}`", shown(line))),
                    ));
                }
            }
            if !ended {
                return Err(bad(
                    number,
                    None,
                    None,
                    "the last line has no line break: the file was cut while it was written".into(),
                ));
            }
            if number == 1 {
                columns = fields;
                continue;
            }
            if fields.len() != columns.len() {
                let message = if fields.len() < columns.len() {
                    format!(
                        "{} fields where the header has {}: no field for column `{}`{}",
                        fields.len(),
                        columns.len(),
                        shown(&columns[fields.len()]),
                        if line.is_empty() {
                            " (an empty line)"
                        } else {
                            ""
                        }
                    )
                } else {
                    format!(
                        "{} fields where the header has {}: a field beyond the last column `{}`",
                        fields.len(),
                        columns.len(),
                        shown(&columns[columns.len() - 1]),
                    )
                };
                return Err(bad(number, None, None, message));
            }
            rows.push((number, fields));
        }
        Ok(Table {
            file,
            columns,
            rows,
        })
    }

    /// The file the table was read from, as given.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The columns, the header's names in order.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// The index of column `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The number of rows (the header not counted).
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The rows in the file's order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = Row<'_>> + '_ {
        self.rows.iter().map(move |(line, fields)| Row {
            table: self,
            line: *line,
            fields,
        })
    }

    /// The `i`th row (from 0).
    pub fn row(&self, i: usize) -> Option<Row<'_>> {
        self.rows.get(i).map(|(line, fields)| Row {
            table: self,
            line: *line,
            fields,
        })
    }

    /// The rows' fields, each row's as many as the columns.
    pub fn into_rows(self) -> Vec<Vec<String>> {
        self.rows.into_iter().map(|(_, f)| f).collect()
    }

    /// An error at `line` of the file, about no one field.
    pub fn error_at(&self, line: usize, message: impl Into<String>) -> CsvError {
        CsvError::Bad {
            file: self.file.clone(),
            line,
            field: None,
            column: None,
            message: message.into(),
        }
    }
}

impl<'a> Row<'a> {
    /// The row's line in the file (the header is line 1).
    pub fn line(&self) -> usize {
        self.line
    }

    /// Its fields, as many as the table's columns.
    pub fn fields(&self) -> &'a [String] {
        self.fields
    }

    /// The field in column `k` (from 0).
    pub fn get(&self, k: usize) -> &'a str {
        &self.fields[k]
    }

    /// An error about this row as a whole.
    pub fn error(&self, message: impl Into<String>) -> CsvError {
        self.table.error_at(self.line, message)
    }

    /// An error about its field in column `k` (from 0), naming the field and its column.
    pub fn field_error(&self, k: usize, message: impl Into<String>) -> CsvError {
        CsvError::Bad {
            file: self.table.file.clone(),
            line: self.line,
            field: Some(k + 1),
            column: self.table.columns.get(k).cloned(),
            message: message.into(),
        }
    }

    /// Its field in column `k` read as a `T`; `expected` says what it should be ("a number",
    /// "a whole number") in the error.
    pub fn parse<T: std::str::FromStr>(&self, k: usize, expected: &str) -> Result<T, CsvError> {
        self.fields[k].parse().map_err(|_| {
            self.field_error(
                k,
                format!("expected {expected}, found {:?}", shown(&self.fields[k])),
            )
        })
    }

    /// Its field in column `k` as a finite number.
    pub fn number(&self, k: usize) -> Result<f64, CsvError> {
        self.parse::<f64>(k, "a number")
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| {
                self.field_error(
                    k,
                    format!("expected a number, found {:?}", shown(&self.fields[k])),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, header: &str) -> Result<Table, String> {
        Table::parse(Path::new("d/t.csv"), text, header).map_err(|e| e.to_string())
    }

    #[test]
    fn fields_keep_quoted_commas_and_quotes() {
        let t = parse("a,b,c\n1,\"x, \"\"y\"\"\",3\n\"\",,\"\"\"\"\n", "a,b,c").unwrap();
        assert_eq!(
            t.clone().into_rows(),
            vec![vec!["1", "x, \"y\"", "3"], vec!["", "", "\""]]
        );
        assert_eq!(t.row(1).unwrap().line(), 3);
        assert_eq!(
            parse("a\r\n1\r\n", "a").unwrap().into_rows(),
            vec![vec!["1"]]
        );
        assert!(parse("a,b\n", "a,b").unwrap().is_empty());
    }

    #[test]
    fn every_damage_is_refused_with_its_line_and_field() {
        let header = "n,formula,mean";
        for (text, error) in [
            ("", "d/t.csv:1: the file is empty; expected the header `n,formula,mean`"),
            ("garbage\n", "d/t.csv:1: found `garbage`; expected the header `n,formula,mean`"),
            ("n,formula\n", "d/t.csv:1: found `n,formula`; expected the header"),
            ("\"n\",formula,mean\n", "d/t.csv:1: found `\"n\",formula,mean`"),
            ("n,formula,mean\n1,Q,0.5\n2,Q\n", "d/t.csv:3: 2 fields where the header has 3: no field for column `mean`"),
            ("n,formula,mean\n\n", "d/t.csv:2: 1 fields where the header has 3: no field for column `formula` (an empty line)"),
            ("n,formula,mean\n1,Q,0.5,7\n", "d/t.csv:2: 4 fields where the header has 3: a field beyond the last column `mean`"),
            ("n,formula,mean\n1,\"Q + 2*C*sqrt(ln(N)/n),0.5\n", "d/t.csv:2: field 2 (`formula`): a quote opens the field and nothing closes it"),
            ("n,formula,mean\n1,\"Q + 2*C*sq", "d/t.csv:2: field 2 (`formula`): a quote opens the field"),
            ("n,formula,mean\n1,Q\"x\",0.5\n", "d/t.csv:2: field 2 (`formula`): a quote inside an unquoted field"),
            ("n,formula,mean\n1,\"Q\"x,0.5\n", "d/t.csv:2: field 2 (`formula`): 'x' after the closing quote"),
            ("n,formula,mean\n1,Q,0.5\n2,Q,0.2", "d/t.csv:3: the last line has no line break: the file was cut"),
            ("n,formula,mean", "d/t.csv:1: the last line has no line break"),
        ] {
            let err = parse(text, header).unwrap_err();
            assert!(err.starts_with(error), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_cell_error_names_its_field_and_column_and_a_resume_keeps_the_file() {
        let t = parse("n,mean\n1,0.5\n2,high\n", "n,mean").unwrap();
        let row = t.row(1).unwrap();
        let err = row.number(1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "d/t.csv:3: field 2 (`mean`): expected a number, found \"high\""
        );
        assert_eq!((err.line(), err.column()), (Some(3), Some("mean")));
        assert_eq!(
            FileError::from(err).to_string(),
            "d/t.csv:3: field 2 (`mean`): expected a number, found \"high\" (left untouched; remove the folder to start again)"
        );
        assert_eq!(t.row(0).unwrap().parse::<u64>(0, "a count").unwrap(), 1);
        assert!(t.row(0).unwrap().number(1).is_ok());
        let inf = parse("n,mean\n1,inf\n", "n,mean").unwrap();
        assert!(inf.row(0).unwrap().number(1).is_err());
    }

    #[test]
    fn a_table_of_any_header_checks_its_rows_against_it() {
        let t = Table::parse_any(Path::new("t.csv"), "x,y\n1,2\n").unwrap();
        assert_eq!(t.columns(), ["x", "y"]);
        assert_eq!(t.column("y"), Some(1));
        let err = Table::parse_any(Path::new("t.csv"), "x,y\n1\n").unwrap_err();
        assert!(err.to_string().starts_with("t.csv:2: 1 fields"), "{err}");
        let err = Table::parse_any(Path::new("t.csv"), "x,,y\n").unwrap_err();
        assert!(err.to_string().contains("a column without a name"), "{err}");
    }

    #[test]
    fn a_missing_file_is_none_and_an_unreadable_one_names_itself() {
        let dir = std::env::temp_dir().join(format!("evomcts-csv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(Table::read(&dir.join("none.csv"), "a", "a table"), Ok(None));
        std::fs::write(dir.join("bin.csv"), [0xff, 0xfe, b'\n']).unwrap();
        let err = Table::read(&dir.join("bin.csv"), "a", "a table").unwrap_err();
        assert!(matches!(err, CsvError::Io { .. }), "{err}");
        assert!(err.to_string().contains("bin.csv"), "{err}");
        std::fs::write(dir.join("a.csv"), "a\n1\n").unwrap();
        assert_eq!(
            Table::read(&dir.join("a.csv"), "a", "a table")
                .unwrap()
                .unwrap()
                .len(),
            1
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}

//! `Formula` and `Grammar`: what `evomcts formula show / eval / grammar / mutate` do.

use anyhow::Context;
use evomcts_formula as formula;
use evomcts_formula::{typeset, Formula, Grammar, SelectionInputs, TERMINALS};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::raise;

/// A selection formula, e.g. ``Formula("Q + 2*C*sqrt(2*ln(N)/n)")``.
///
/// Terminals: those of ``Formula.terminals()``, e.g. Q (child's mean reward), N (parent
/// visits), n (child visits), C (exploration constant); operators + - * /; functions ln (or log), sqrt, min, max; numbers; an optional own C_E as a suffix,
/// e.g. ``Q + C*sqrt(ln(N)/n) [C=5]``. Bad text raises ``EvomctsError`` naming the column.
#[pyclass(module = "evomcts._evomcts", name = "Formula", frozen)]
#[derive(Clone)]
pub struct PyFormula {
    pub(crate) inner: Formula,
}

pub(crate) fn parse_formula(text: &str) -> PyResult<Formula> {
    Formula::parse(text).map_err(|err| raise(anyhow::anyhow!("cannot parse the formula: {err}")))
}

/// A statistic of `formula eval`: finite, as the command line's flags must be.
fn finite(flag: &str, value: f64) -> PyResult<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(raise(anyhow::anyhow!(
            "invalid value for {flag}: expected a finite number, got {value}"
        )))
    }
}

/// A terminal that cannot be negative (a count, a variance, a prior, most move features: the
/// table's `signed: false`): finite and at least 0, as the command line's flags for them,
/// which take no minus sign, must be.
fn count(flag: &str, value: f64) -> PyResult<f64> {
    let value = finite(flag, value)?;
    if value < 0.0 {
        return Err(raise(anyhow::anyhow!(
            "invalid value for {flag}: expected a number >= 0, got {value}"
        )));
    }
    Ok(value)
}

#[pymethods]
impl PyFormula {
    /// Parses the formula's text (as ``evomcts formula show`` does).
    #[new]
    fn new(text: &str) -> PyResult<Self> {
        Ok(PyFormula {
            inner: parse_formula(text)?,
        })
    }

    /// UCT, the seed of evolution: ``Q + 2*C*sqrt(2*ln(N)/n)``.
    #[staticmethod]
    fn uct() -> Self {
        PyFormula {
            inner: Formula::uct(),
        }
    }

    /// The printed form, which parses back to the same tree.
    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Formula({:?})", self.inner.to_string())
    }

    /// Equal when the printed forms are equal (the same tree and own C_E).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyFormula>()
            .is_ok_and(|o| o.get().inner.to_string() == self.inner.to_string())
    }

    fn __hash__(&self) -> u64 {
        formula::fnv1a(self.inner.to_string().bytes())
    }

    /// The formula for people, e.g. ``Q + 2·C·√(2·ln(N)/n)``.
    fn typeset(&self) -> String {
        typeset::pretty(&self.inner)
    }

    /// The formula in LaTeX.
    fn latex(&self) -> String {
        typeset::latex(&self.inner)
    }

    /// The canonical form, under which equal formulas are counted once; its value is the same.
    fn canonical(&self) -> PyFormula {
        PyFormula {
            inner: self.inner.canonical(),
        }
    }

    /// The simplified form: the same value for every input, with constants folded through
    /// the protected operators and identities and provably dead branches removed.
    fn simplify(&self) -> PyFormula {
        PyFormula {
            inner: self.inner.simplify(),
        }
    }

    /// Number of nodes of the tree.
    #[getter]
    fn size(&self) -> usize {
        self.inner.size()
    }

    /// Depth of the tree (a lone leaf has depth 0).
    #[getter]
    fn depth(&self) -> usize {
        self.inner.depth()
    }

    /// The formula's own C_E (its ``[C=...]`` suffix), or None to take the controller's.
    #[getter]
    fn c_e(&self) -> Option<f64> {
        self.inner.c_e()
    }

    /// The formula's value for one child, as ``evomcts formula eval`` prints it; the keywords
    /// are its flags, one per terminal, each with its default (``Formula.terminals()`` lists
    /// them): e.g. q (Q, the child's mean reward), parent_visits (N), child_visits (n), c (C_E;
    /// the formula's own ``[C=...]`` wins). A terminal that cannot be negative refuses a
    /// negative value, and every value must be finite.
    #[pyo3(signature = (**keywords))]
    fn eval(&self, keywords: Option<&Bound<'_, PyDict>>) -> PyResult<f64> {
        let mut inputs = SelectionInputs::defaults();
        for (key, value) in keywords.into_iter().flat_map(|k| k.iter()) {
            let key: String = key.extract()?;
            let Some(info) = TERMINALS.iter().find(|t| t.keyword == key) else {
                return Err(PyTypeError::new_err(format!(
                    "Formula.eval() got an unexpected keyword argument '{key}'"
                )));
            };
            let value: f64 = value.extract().map_err(|_| {
                PyTypeError::new_err(format!("argument '{key}': must be a real number"))
            })?;
            *info.terminal.slot_mut(&mut inputs) = if info.signed {
                finite(info.keyword, value)?
            } else {
                count(info.keyword, value)?
            };
        }
        let compiled = self.inner.compile().map_err(raise)?;
        Ok(compiled.eval(&inputs))
    }

    /// The terminals a formula may read, in the table's order: (symbol, ``eval`` keyword,
    /// meaning, default) for each.
    #[staticmethod]
    fn terminals() -> Vec<(&'static str, &'static str, &'static str, f64)> {
        TERMINALS
            .iter()
            .map(|t| (t.symbol, t.keyword, t.meaning, t.default))
            .collect()
    }

    /// One random mutation under ``grammar`` (default: the paper's), the first offspring
    /// ``evomcts formula mutate --seed SEED`` prints.
    #[pyo3(signature = (grammar=None, seed=1))]
    fn mutate(&self, grammar: Option<&PyGrammar>, seed: u64) -> PyFormula {
        self.offspring(1, grammar, seed).remove(0)
    }

    /// ``count`` random single mutations under ``grammar`` from one generator seeded with
    /// ``seed``: the offspring ``evomcts formula mutate --count COUNT --seed SEED`` prints
    /// (``count`` bounded as the flag is).
    #[pyo3(signature = (count, grammar=None, seed=1))]
    fn mutations(
        &self,
        count: &Bound<'_, PyAny>,
        grammar: Option<&PyGrammar>,
        seed: u64,
    ) -> PyResult<Vec<PyFormula>> {
        let max = evomcts_records::bounds::MAX_MUTATIONS;
        let count = crate::int_arg("count", count, 0, max)? as usize;
        Ok(self.offspring(count, grammar, seed))
    }
}

impl PyFormula {
    fn offspring(&self, count: usize, grammar: Option<&PyGrammar>, seed: u64) -> Vec<PyFormula> {
        let paper;
        let grammar = match grammar {
            Some(g) => &g.inner,
            None => {
                paper = Grammar::paper();
                &paper
            }
        };
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        (0..count)
            .map(|_| PyFormula {
                inner: formula::mutate(&self.inner, grammar, &mut rng),
            })
            .collect()
    }
}

/// A grammar for evolving formulas: which functions, terminals and constants a formula may
/// use and how deep it may grow. ``Grammar()`` is the paper's; ``Grammar.from_file(path)``
/// reads a RON grammar file (e.g. ``grammars/ucb1_tuned.ron``), ``Grammar.from_text(text)``
/// the same text given directly.
#[pyclass(module = "evomcts._evomcts", name = "Grammar", frozen)]
pub struct PyGrammar {
    pub(crate) inner: Grammar,
}

#[pymethods]
impl PyGrammar {
    /// The built-in grammar named ``name``: ``"paper"`` (default) or ``"ucb1_tuned"``.
    #[new]
    #[pyo3(signature = (name="paper"))]
    fn new(name: &str) -> PyResult<Self> {
        Ok(PyGrammar {
            inner: Grammar::named(name)
                .context("invalid grammar")
                .map_err(raise)?,
        })
    }

    /// Reads a RON grammar file; errors name the file, line and column.
    #[staticmethod]
    fn from_file(path: std::path::PathBuf) -> PyResult<Self> {
        Ok(PyGrammar {
            inner: evomcts_records::runfs::read_grammar(&path)
                .context("invalid grammar")
                .map_err(raise)?,
        })
    }

    /// Parses a grammar's RON text; ``file`` names it in errors.
    #[staticmethod]
    #[pyo3(signature = (text, file="<text>"))]
    fn from_text(text: &str, file: &str) -> PyResult<Self> {
        Ok(PyGrammar {
            inner: Grammar::from_ron(text, file)
                .context("invalid grammar")
                .map_err(raise)?,
        })
    }

    /// The grammar as RON, as ``evomcts formula grammar`` prints it.
    fn to_ron(&self) -> String {
        self.inner.to_ron()
    }

    fn __str__(&self) -> String {
        self.inner.to_ron()
    }

    fn __repr__(&self) -> String {
        format!("<Grammar {:?}>", self.inner.name())
    }

    /// The grammar's name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_string()
    }

    /// What the grammar is for.
    #[getter]
    fn description(&self) -> String {
        self.inner.description().to_string()
    }

    /// None if the grammar can produce ``formula``, else why not.
    fn admits(&self, formula: &PyFormula) -> Option<String> {
        self.inner.admits(&formula.inner).err()
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFormula>()?;
    m.add_class::<PyGrammar>()?;
    Ok(())
}

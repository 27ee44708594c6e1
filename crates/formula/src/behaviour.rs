//! What a formula does on a bank of sibling sets: forms grouped by the children they pick, and
//! a formula named after the known tree policy it ranks like.
//!
//! Both read only the child picked in each set (the first maximum, `fingerprint::choices`),
//! so they describe a formula as a tree policy on that bank and nowhere else: two formulas
//! that agree on a bank can differ on other positions (`evolve::hashing` measures how often).
//!
//! Grouping ([`classes`]): each form is evaluated with every placeholder at one value, for each
//! value the caller lists (one round per value; one value 1.0 is a sensible default, several
//! separate forms whose ranking depends on their constants). A form's key is its fingerprint
//! on the bank (`fingerprint::fingerprint`), or with several values a hash of its per-value
//! fingerprints; forms with equal keys form a class (a different pick vector shares a key with
//! probability about 2⁻⁶⁴). All placeholders of a form take the same value in a round, so forms
//! that only differ when their constants differ from each other fall together. A class's
//! representative is its simplest member: fewest nodes, then text.
//!
//! Naming ([`Namer`], [`name`]): the formula's picks are compared with those of references, in
//! this order: greedy Q (`Q`, and `Q + ε·n`, `Q − ε·n` with ε = 10⁻⁹ for which child wins ties
//! of Q: the more or the less visited one), most visited (`n`), and UCT as the search writes it
//! (`Q + 2*C*sqrt(2*ln(N)/n)`, `Formula::uct`) at each C_E of [`UCT_GRID`]. The first reference
//! the formula matches on every set names it; with none, the one it agrees with on the most
//! sets does, with the share of sets.

use std::collections::HashMap;
use std::fmt;

use super::compiled::CompiledFormula;
use super::enumerate::{Enumeration, Form};
use super::fingerprint::{choices, fingerprint, fnv1a, SiblingSets};
use super::tree::{BinaryOp, Expr, Formula, Terminal};

/// The C_E values UCT is tried at when naming a formula.
pub const UCT_GRID: [f64; 16] = [
    0.001, 0.002, 0.003, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 2.0, 3.0,
];

/// The tiny weight of `n` that breaks greedy Q's ties: far below any gap between the Q of two
/// children (a visit count below 10⁵ moves Q by less than 10⁻⁴), far above Q's rounding.
pub const TIE_EPSILON: f64 = 1e-9;

/// One group of forms that pick the same children on the bank.
#[derive(Clone, Debug, PartialEq)]
pub struct BehaviourClass {
    /// The simplest member: fewest nodes, then text.
    pub representative: Form,
    /// How many forms the class has, the representative included.
    pub members: usize,
    /// The class's key (see the module documentation).
    pub fingerprint: u64,
}

/// The forms of `enumeration` grouped by behaviour on `bank` with placeholders at each of
/// `constants` in turn (none given: 1.0); classes in the order of their representatives.
pub fn classes(
    enumeration: &Enumeration,
    bank: &SiblingSets,
    constants: &[f64],
) -> Vec<BehaviourClass> {
    group(enumeration.forms(), bank, constants)
}

/// [`classes`] of any list of forms.
pub fn group(forms: &[Form], bank: &SiblingSets, constants: &[f64]) -> Vec<BehaviourClass> {
    group_terms(forms, bank, constants, None)
}

/// [`group`] of each form as a term added to `base` (`Form::term_of`): forms whose sums with the
/// base pick alike form a class.
pub fn group_terms(
    forms: &[Form],
    bank: &SiblingSets,
    constants: &[f64],
    base: Option<&Formula>,
) -> Vec<BehaviourClass> {
    let constants = if constants.is_empty() {
        &[1.0][..]
    } else {
        constants
    };
    let mut by_key: HashMap<u64, usize> = HashMap::new();
    let mut out: Vec<BehaviourClass> = Vec::new();
    for form in forms {
        let key = key_of(form, bank, constants, base);
        match by_key.get(&key) {
            Some(&i) => {
                let class = &mut out[i];
                class.members += 1;
                if simpler(form, &class.representative) {
                    class.representative = form.clone();
                }
            }
            None => {
                by_key.insert(key, out.len());
                out.push(BehaviourClass {
                    representative: form.clone(),
                    members: 1,
                    fingerprint: key,
                });
            }
        }
    }
    out.sort_by(|a, b| order(&a.representative, &b.representative));
    out
}

fn order(a: &Form, b: &Form) -> std::cmp::Ordering {
    (a.size(), a.text()).cmp(&(b.size(), b.text()))
}

fn simpler(a: &Form, b: &Form) -> bool {
    order(a, b) == std::cmp::Ordering::Less
}

/// The form's fingerprint at one value, or the hash of its fingerprints at several.
fn key_of(form: &Form, bank: &SiblingSets, constants: &[f64], base: Option<&Formula>) -> u64 {
    let at = |value: f64| {
        let compiled = CompiledFormula::new(&form.term_of(base, &[value]))
            .expect("a form of at most enumerate::MAX_NODES nodes fits the evaluator's stack");
        fingerprint(&compiled, bank)
    };
    match constants {
        [value] => at(*value),
        values => fnv1a(values.iter().flat_map(|&v| at(v).to_le_bytes())),
    }
}

/// Which child greedy Q's ties go to, as far as the bank tells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ties {
    /// No tie of Q on the bank is decided differently by the three tie rules.
    Undecided,
    /// The first child (in the set's order), as `Q` alone picks.
    First,
    /// The more visited child, as `Q + ε·n` picks.
    MoreVisited,
    /// The less visited child, as `Q − ε·n` picks.
    LessVisited,
}

/// A known tree policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reference {
    Greedy(Ties),
    /// argmax n.
    MostVisited,
    /// `Q + 2*C*sqrt(2*ln(N)/n)` at this C_E.
    Uct(f64),
}

impl Reference {
    /// The formula that picks as this reference (`Greedy(Undecided)` picks as `Q`).
    pub fn formula(self) -> Formula {
        let q = Expr::Term(Terminal::Q);
        let n = Expr::Term(Terminal::ChildVisits);
        let tie = |op| {
            let weighted = Expr::binary(BinaryOp::Mul, Expr::Const(TIE_EPSILON), n.clone());
            Formula::new(Expr::binary(op, q.clone(), weighted))
        };
        match self {
            Reference::Greedy(Ties::Undecided | Ties::First) => Formula::new(q),
            Reference::Greedy(Ties::MoreVisited) => tie(BinaryOp::Add),
            Reference::Greedy(Ties::LessVisited) => tie(BinaryOp::Sub),
            Reference::MostVisited => Formula::new(n),
            Reference::Uct(c) => Formula::uct().with_c_e(Some(c)),
        }
    }

    /// Every reference compared, in the order of the module documentation.
    fn all() -> impl Iterator<Item = Reference> {
        [
            Reference::Greedy(Ties::First),
            Reference::Greedy(Ties::MoreVisited),
            Reference::Greedy(Ties::LessVisited),
            Reference::MostVisited,
        ]
        .into_iter()
        .chain(UCT_GRID.iter().map(|&c| Reference::Uct(c)))
    }
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reference::Greedy(Ties::Undecided) => f.write_str("greedy Q"),
            Reference::Greedy(Ties::First) => f.write_str("greedy Q, first child on ties"),
            Reference::Greedy(Ties::MoreVisited) => f.write_str("greedy Q, more-visited on ties"),
            Reference::Greedy(Ties::LessVisited) => f.write_str("greedy Q, less-visited on ties"),
            Reference::MostVisited => f.write_str("most visited (argmax n)"),
            Reference::Uct(c) => write!(f, "UCT at C = {}", super::tree::format_number(*c)),
        }
    }
}

/// What a formula ranks like on a bank.
#[derive(Clone, Debug, PartialEq)]
pub enum Behaviour {
    /// Picks as greedy Q in every set.
    Greedy(Ties),
    /// Picks as argmax n in every set.
    MostVisited,
    /// Picks as UCT in every set at each of these C_E values of [`UCT_GRID`] (in grid order).
    Uct(Vec<f64>),
    /// Matches no reference everywhere; `reference` is the one it agrees with most (the first
    /// such), on `agreeing` of `sets` sets.
    Closest {
        reference: Reference,
        agreeing: usize,
        sets: usize,
    },
    /// The bank has no sets.
    NoSets,
}

impl Behaviour {
    /// The share of sets on which the formula picks as its named reference: 1 for an exact
    /// match (and for an empty bank).
    pub fn agreement(&self) -> f64 {
        match self {
            Behaviour::Closest { agreeing, sets, .. } => *agreeing as f64 / *sets as f64,
            _ => 1.0,
        }
    }
}

impl fmt::Display for Behaviour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Behaviour::Greedy(ties) => write!(f, "ranks as {}", Reference::Greedy(*ties)),
            Behaviour::MostVisited => write!(f, "ranks as {}", Reference::MostVisited),
            Behaviour::Uct(cs) => {
                let cs: Vec<String> = cs.iter().map(|&c| super::tree::format_number(c)).collect();
                write!(f, "ranks as UCT at C = {}", cs.join(", "))
            }
            Behaviour::Closest {
                reference,
                agreeing,
                sets,
            } => {
                // Rounded down, so a formula that disagrees somewhere never reads 100.0%.
                let permille = agreeing * 1000 / sets;
                write!(
                    f,
                    "agrees with {reference} on {}.{}% of sets",
                    permille / 10,
                    permille % 10
                )
            }
            Behaviour::NoSets => f.write_str("no sibling sets to rank"),
        }
    }
}

/// The references' picks on one bank, computed once for naming many formulas.
pub struct Namer<'a> {
    bank: &'a SiblingSets,
    references: Vec<(Reference, Vec<u32>)>,
}

impl<'a> Namer<'a> {
    pub fn new(bank: &'a SiblingSets) -> Namer<'a> {
        let references = Reference::all()
            .map(|r| (r, picks(&r.formula(), bank)))
            .collect();
        Namer { bank, references }
    }

    /// What `formula` ranks like (see the module documentation). An error only when the
    /// formula is too deep for the compiled evaluator.
    pub fn name(&self, formula: &Formula) -> Result<Behaviour, super::CompileError> {
        if self.bank.is_empty() {
            return Ok(Behaviour::NoSets);
        }
        let own = choices(&CompiledFormula::new(formula)?, self.bank);
        let agreeing: Vec<usize> = self
            .references
            .iter()
            .map(|(_, theirs)| own.iter().zip(theirs).filter(|(a, b)| a == b).count())
            .collect();
        let sets = self.bank.len();
        let exact = |r: Reference| {
            self.references
                .iter()
                .zip(&agreeing)
                .any(|((reference, _), &a)| *reference == r && a == sets)
        };
        let (plain, more, less) = (
            exact(Reference::Greedy(Ties::First)),
            exact(Reference::Greedy(Ties::MoreVisited)),
            exact(Reference::Greedy(Ties::LessVisited)),
        );
        let behaviour = match (plain, more, less) {
            (true, true, true) => Behaviour::Greedy(Ties::Undecided),
            (true, _, _) => Behaviour::Greedy(Ties::First),
            (_, true, _) => Behaviour::Greedy(Ties::MoreVisited),
            (_, _, true) => Behaviour::Greedy(Ties::LessVisited),
            _ if exact(Reference::MostVisited) => Behaviour::MostVisited,
            _ => {
                let cs: Vec<f64> = UCT_GRID
                    .iter()
                    .copied()
                    .filter(|&c| exact(Reference::Uct(c)))
                    .collect();
                if cs.is_empty() {
                    self.closest(&agreeing)
                } else {
                    Behaviour::Uct(cs)
                }
            }
        };
        Ok(behaviour)
    }

    /// The reference agreeing on the most sets, the first of equals.
    fn closest(&self, agreeing: &[usize]) -> Behaviour {
        let (best, &count) = agreeing
            .iter()
            .enumerate()
            .rev()
            .max_by_key(|(_, &a)| a)
            .expect("there are references");
        Behaviour::Closest {
            reference: self.references[best].0,
            agreeing: count,
            sets: self.bank.len(),
        }
    }
}

/// [`Namer::name`] for one formula.
pub fn name(formula: &Formula, bank: &SiblingSets) -> Result<Behaviour, super::CompileError> {
    Namer::new(bank).name(formula)
}

fn picks(formula: &Formula, bank: &SiblingSets) -> Vec<u32> {
    let compiled = CompiledFormula::new(formula).expect("a reference formula compiles");
    choices(&compiled, bank)
}

#[cfg(test)]
#[path = "behaviour_tests.rs"]
mod tests;

//! The terminals of selection formulas, declared once.
//!
//! Each terminal is one entry of the `terminal_table!` invocation below: its symbol, its
//! meaning, its LaTeX, its `formula eval` flag and Python keyword (with the default and
//! whether the value may be negative), its class, the column the fingerprint bank stores it
//! in (if any), and its slot in [`SelectionInputs`]. The macro expands that one list into
//! the [`Terminal`] enum, the [`SelectionInputs`] struct, the table [`TERMINALS`] and the
//! evaluators' input readers; every other list (the parser's and the grammar's symbols, the
//! printers, [`Terminal::KNOWLEDGE`] and [`Terminal::MOVE_FEATURES`], the compiled
//! evaluator's input array, the native code's loads, `formula eval`'s flags, the Python
//! keywords) is read from the table, and the lists that cannot be (the Python stub,
//! README's usage line) are compared with it by tests.
//!
//! Guarantees, checked at compile time: the order of the entries is the order of
//! [`Terminal`], of [`TERMINALS`], of the evaluator's input indices and of the `f64` slots
//! of the `repr(C)` [`SelectionInputs`] (the native code reads terminal `t` at byte
//! `8 * t as usize`); the move features are the entries with a slot in
//! `SelectionInputs::features`, in order. The order never changes, because the canonical
//! form sorts terminals by it: a new terminal goes at the end (a new move feature at the
//! end of the features). Adding one is an entry here and its computation in the search
//! (`search::mcts`, and for a move feature the game's `assess_moves`).

use serde::{Deserialize, Serialize};

/// Where a terminal's value comes from, which decides when a search computes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TerminalClass {
    /// A statistic of the tree, or the exploration constant: every search fills it.
    Statistic,
    /// Game knowledge about the move to the child: computed only for policies that read it.
    Knowledge,
    /// A move feature the game gives per move (`Game::assess_moves`): knowledge too, kept in
    /// [`SelectionInputs::features`] and computed only for policies that read a feature.
    MoveFeature,
}

impl TerminalClass {
    /// Whether a search computes terminals of this class only for policies that read them.
    pub const fn is_knowledge(self) -> bool {
        !matches!(self, TerminalClass::Statistic)
    }
}

/// One row of the table of terminals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TerminalInfo {
    pub terminal: Terminal,
    /// The name in the text form and in grammar files, e.g. `N`.
    pub symbol: &'static str,
    /// One line for help texts.
    pub meaning: &'static str,
    /// In the papers' notation, e.g. `n_j`.
    pub latex: &'static str,
    /// The Python keyword of `Formula.eval`, e.g. `parent_visits`.
    pub keyword: &'static str,
    /// The flag of `formula eval` without its dashes: the keyword with `-` for `_`.
    pub flag: &'static str,
    /// The value `formula eval` and `Formula.eval` take when it is not given.
    pub default: f64,
    /// Whether a negative value makes sense (the flag then takes a leading `-`); otherwise
    /// `Formula.eval` refuses one.
    pub signed: bool,
    pub class: TerminalClass,
    /// The column of the fingerprint bank (`fingerprint-bank.csv`) that stores it, or `None`
    /// when the bank does not carry it.
    pub bank_column: Option<&'static str>,
}

/// Expands the one list of terminals (see the module documentation). Each entry names its
/// slot in `SelectionInputs` as `field` or `features[k]`.
macro_rules! terminal_table {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident {
            symbol: $symbol:literal,
            input: $field:ident $([$index:tt])?,
            meaning: $meaning:literal,
            latex: $latex:literal,
            keyword: $keyword:literal,
            flag: $flag:literal,
            default: $default:literal,
            signed: $signed:literal,
            class: $class:ident,
            bank: $bank:expr,
        }
    )*) => {
        /// A leaf variable of a formula, read from [`SelectionInputs`]; one per row of
        /// [`TERMINALS`], in its order.
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
        )]
        pub enum Terminal {
            $($(#[doc = $doc])* $variant,)*
        }

        /// The table of terminals, one row per [`Terminal`], in its order.
        pub const TERMINALS: &[TerminalInfo] = &[$(TerminalInfo {
            terminal: Terminal::$variant,
            symbol: $symbol,
            meaning: $meaning,
            latex: $latex,
            keyword: $keyword,
            flag: $flag,
            default: $default,
            signed: $signed,
            class: TerminalClass::$class,
            bank_column: $bank,
        },)*];

        impl Terminal {
            /// All terminals, in the order used for canonical ordering and listings.
            pub const ALL: [Terminal; TERMINAL_COUNT] = [$(Terminal::$variant,)*];

            /// The raw field value (not yet sanitised).
            #[inline(always)]
            pub fn read(self, inputs: &SelectionInputs) -> f64 {
                match self {
                    $(Terminal::$variant => inputs.$field $([$index])?,)*
                }
            }

            /// The terminal's slot in `inputs`, to fill it.
            pub fn slot_mut(self, inputs: &mut SelectionInputs) -> &mut f64 {
                match self {
                    $(Terminal::$variant => &mut inputs.$field $([$index])?,)*
                }
            }
        }

        /// The inputs as an array indexed like `Terminal as usize`: the evaluators' inputs.
        #[inline(always)]
        pub(crate) fn input_array(inputs: &SelectionInputs) -> [f64; TERMINAL_COUNT] {
            [$(inputs.$field $([$index])?,)*]
        }

        // Terminal `t` is the `f64` at byte `8 * t as usize` of `SelectionInputs`, which has
        // no other field: the native code reads the inputs by these offsets.
        const _: () = {
            use std::mem::{offset_of, size_of};
            $(assert!(
                offset_of!(SelectionInputs, $field) $(+ 8 * $index)?
                    == 8 * Terminal::$variant as usize
            );)*
            assert!(size_of::<SelectionInputs>() == 8 * TERMINAL_COUNT);
        };

        selection_inputs! {
            fields []
            $($(#[doc = $doc])* $field $([$index])?;)*
        }
    };
}

/// Declares [`SelectionInputs`] with one `f64` field per terminal whose slot is a field, and
/// the array `features` where the first move feature's slot `features[0]` is.
macro_rules! selection_inputs {
    (fields [$($fields:tt)*]) => {
        /// What the search layer knows about one child when it scores it: one slot per
        /// terminal (see [`TERMINALS`]).
        ///
        /// Every field is a plain number; the extras default to 0 for searches that do not
        /// track them. Non-finite values are tolerated: evaluation maps NaN to 0 and ±∞ to
        /// ±`f64::MAX` when it reads a field. `repr(C)`, fields in [`Terminal`] order:
        /// native formula code reads them by offset.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[repr(C)]
        pub struct SelectionInputs {
            $($fields)*
        }
    };
    (fields [$($fields:tt)*] $(#[doc = $doc:literal])* $field:ident [0]; $($rest:tt)*) => {
        selection_inputs! {
            fields [
                $($fields)*
                /// The move features of the move that leads to the child, in
                /// [`Terminal::MOVE_FEATURES`] order (0 where the game gives none or the
                /// search computes none).
                #[serde(default)]
                pub $field: [f64; MOVE_FEATURE_COUNT],
            ]
            $($rest)*
        }
    };
    (fields [$($fields:tt)*] $(#[doc = $doc:literal])* $field:ident [$index:tt]; $($rest:tt)*) => {
        selection_inputs! { fields [$($fields)*] $($rest)* }
    };
    (fields [$($fields:tt)*] $(#[doc = $doc:literal])* $field:ident; $($rest:tt)*) => {
        selection_inputs! {
            fields [$($fields)* $(#[doc = $doc])* pub $field: f64,]
            $($rest)*
        }
    };
}

terminal_table! {
    /// `Q`: Q(s,a), the child's mean reward.
    Q {
        symbol: "Q",
        input: q,
        meaning: "Q(s,a), the child's mean reward",
        latex: r"\bar{Q}_j",
        keyword: "q",
        flag: "q",
        default: 0.0,
        signed: true,
        class: Statistic,
        bank: Some("q"),
    }
    /// `N`: N(s), the parent's visit count.
    ParentVisits {
        symbol: "N",
        input: parent_visits,
        meaning: "N(s), the parent's visits",
        latex: "N",
        keyword: "parent_visits",
        flag: "parent-visits",
        default: 1.0,
        signed: false,
        class: Statistic,
        bank: Some("parent_visits"),
    }
    /// `n`: N(s,a), the child's visit count.
    ChildVisits {
        symbol: "n",
        input: child_visits,
        meaning: "N(s,a), the child's visits",
        latex: "n_j",
        keyword: "child_visits",
        flag: "child-visits",
        default: 1.0,
        signed: false,
        class: Statistic,
        bank: Some("child_visits"),
    }
    /// `C`: the controller's exploration constant C_E (used unless the formula carries its
    /// own).
    ExplorationConstant {
        symbol: "C",
        input: c_e,
        meaning: "C_E, the exploration constant (a formula's own `[C=...]` wins)",
        latex: "C_E",
        keyword: "c",
        flag: "c",
        default: 2.0,
        signed: true,
        class: Statistic,
        bank: Some("c_e"),
    }
    /// `V`: sample variance of the child's rewards.
    RewardVariance {
        symbol: "V",
        input: reward_variance,
        meaning: "variance of the child's rewards",
        latex: r"\sigma^2_j",
        keyword: "variance",
        flag: "variance",
        default: 0.0,
        signed: false,
        class: Statistic,
        bank: Some("variance"),
    }
    /// `P`: the parent's mean reward Q(s).
    ParentQ {
        symbol: "P",
        input: parent_q,
        meaning: "Q(s), the parent's mean reward",
        latex: r"\bar{Q}",
        keyword: "parent_q",
        flag: "parent-q",
        default: 0.0,
        signed: true,
        class: Statistic,
        bank: Some("parent_q"),
    }
    /// `K`: number of children of the parent (the child and its siblings).
    Siblings {
        symbol: "K",
        input: siblings,
        meaning: "number of children of the parent",
        latex: "K",
        keyword: "siblings",
        flag: "siblings",
        default: 0.0,
        signed: false,
        class: Statistic,
        bank: Some("siblings"),
    }
    /// `H`: the game's heuristic value of the move that leads to the child, in the unit of
    /// `Q` (0 where the search computes no knowledge).
    Heuristic {
        symbol: "H",
        input: heuristic,
        meaning: "heuristic value of the move to the child, in Q's unit",
        latex: "H_j",
        keyword: "heuristic",
        flag: "heuristic",
        default: 0.0,
        signed: true,
        class: Knowledge,
        bank: Some("heuristic"),
    }
    /// `p`: the child's prior, the softmax of its siblings' `H` (0 where the search computes
    /// no knowledge).
    Prior {
        symbol: "p",
        input: prior,
        meaning: "prior of the child: softmax of the siblings' H",
        latex: "p_j",
        keyword: "prior",
        flag: "prior",
        default: 0.0,
        signed: false,
        class: Knowledge,
        bank: Some("prior"),
    }
    /// `G`: the mover's own score gain from the move, in Q's unit.
    MoverGain {
        symbol: "G",
        input: features[0],
        meaning: "the mover's own score gain from the move, in Q's unit",
        latex: "G_j",
        keyword: "mover_gain",
        flag: "mover-gain",
        default: 0.0,
        signed: true,
        class: MoveFeature,
        bank: None,
    }
    /// `O`: the opponent's score gain from the move, in Q's unit.
    OpponentGain {
        symbol: "O",
        input: features[1],
        meaning: "the opponent's score gain from the move, in Q's unit",
        latex: "O_j",
        keyword: "opponent_gain",
        flag: "opponent-gain",
        default: 0.0,
        signed: true,
        class: MoveFeature,
        bank: None,
    }
    /// `M`: 1 if the move commits a piece (Carcassonne: places a meeple).
    PiecePlaced {
        symbol: "M",
        input: features[2],
        meaning: "1 if the move places a piece (a meeple), else 0",
        latex: "M_j",
        keyword: "meeple",
        flag: "meeple",
        default: 0.0,
        signed: false,
        class: MoveFeature,
        bank: None,
    }
    /// `F`: 1 if that piece stays until the end (Carcassonne: a farmer).
    PieceFixed {
        symbol: "F",
        input: features[3],
        meaning: "1 if that piece stays to the end (a farmer), else 0",
        latex: "F_j",
        keyword: "farmer",
        flag: "farmer",
        default: 0.0,
        signed: false,
        class: MoveFeature,
        bank: None,
    }
    /// `R`: the mover's pieces the move brings back to its supply.
    PiecesReturned {
        symbol: "R",
        input: features[4],
        meaning: "the mover's pieces the move returns to its supply",
        latex: "R_j",
        keyword: "returned",
        flag: "returned",
        default: 0.0,
        signed: false,
        class: MoveFeature,
        bank: None,
    }
    /// `L`: the mover's supply after the move, as a share of a full supply.
    Supply {
        symbol: "L",
        input: features[5],
        meaning: "the mover's supply after the move, / a full supply (7)",
        latex: "L_j",
        keyword: "supply",
        flag: "supply",
        default: 0.0,
        signed: false,
        class: MoveFeature,
        bank: None,
    }
    /// `T`: the share of the game's turns played before the move.
    Progress {
        symbol: "T",
        input: features[6],
        meaning: "the share of the game's turns played before the move",
        latex: "T",
        keyword: "turn",
        flag: "turn",
        default: 0.0,
        signed: false,
        class: MoveFeature,
        bank: None,
    }
}

/// The number of terminals.
pub const TERMINAL_COUNT: usize = TERMINALS.len();

/// The number of move features: the length of [`SelectionInputs::features`].
pub const MOVE_FEATURE_COUNT: usize = count_where(CLASS_MOVE_FEATURE);

/// The number of terminals that carry game knowledge.
const KNOWLEDGE_COUNT: usize = count_where(CLASS_KNOWLEDGE);

/// Class filters of the `const` selections below.
const CLASS_MOVE_FEATURE: u8 = 1;
const CLASS_KNOWLEDGE: u8 = 2;

const fn selected(info: &TerminalInfo, filter: u8) -> bool {
    match filter {
        CLASS_MOVE_FEATURE => matches!(info.class, TerminalClass::MoveFeature),
        _ => info.class.is_knowledge(),
    }
}

const fn count_where(filter: u8) -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < TERMINALS.len() {
        if selected(&TERMINALS[i], filter) {
            count += 1;
        }
        i += 1;
    }
    count
}

/// The terminals that pass `filter`, in table order; `K` must be their number.
const fn terminals_where<const K: usize>(filter: u8) -> [Terminal; K] {
    let mut out = [Terminal::Q; K];
    let mut k = 0;
    let mut i = 0;
    while i < TERMINALS.len() {
        if selected(&TERMINALS[i], filter) {
            out[k] = TERMINALS[i].terminal;
            k += 1;
        }
        i += 1;
    }
    assert!(k == K);
    out
}

// The table is in `Terminal` order, and the move features are contiguous (one array).
const _: () = {
    let mut i = 0;
    while i < TERMINALS.len() {
        assert!(TERMINALS[i].terminal as usize == i);
        i += 1;
    }
    let features = terminals_where::<MOVE_FEATURE_COUNT>(CLASS_MOVE_FEATURE);
    let mut k = 1;
    while k < MOVE_FEATURE_COUNT {
        assert!(features[k] as usize == features[0] as usize + k);
        k += 1;
    }
};

impl Terminal {
    /// The move features, in the order of [`SelectionInputs::features`] (and of the games'
    /// `MOVE_FEATURE_SYMBOLS`): a game gives them per move, and a search computes them only
    /// for formulas that read one.
    pub const MOVE_FEATURES: [Terminal; MOVE_FEATURE_COUNT] = terminals_where(CLASS_MOVE_FEATURE);

    /// The terminals that carry game knowledge: a search computes them only for formulas
    /// that read them.
    pub const KNOWLEDGE: [Terminal; KNOWLEDGE_COUNT] = terminals_where(CLASS_KNOWLEDGE);

    /// The terminal's row of [`TERMINALS`].
    #[inline(always)]
    pub fn info(self) -> &'static TerminalInfo {
        &TERMINALS[self as usize]
    }

    /// Whether this is a move feature, and which: its index in
    /// [`SelectionInputs::features`].
    pub fn feature_index(self) -> Option<usize> {
        Terminal::MOVE_FEATURES.iter().position(|&t| t == self)
    }

    /// The name used in the text form and in grammar files.
    #[inline]
    pub fn symbol(self) -> &'static str {
        self.info().symbol
    }

    /// Inverse of [`Terminal::symbol`].
    pub fn from_symbol(symbol: &str) -> Option<Terminal> {
        TERMINALS
            .iter()
            .find(|info| info.symbol == symbol)
            .map(|info| info.terminal)
    }

    /// One-line meaning, for help texts.
    pub fn description(self) -> &'static str {
        self.info().meaning
    }

    /// The terminal in LaTeX, in the papers' notation.
    pub fn latex(self) -> &'static str {
        self.info().latex
    }

    /// Comma-separated list of all symbols, for error messages.
    pub fn symbol_list() -> String {
        Terminal::ALL.map(Terminal::symbol).join(", ")
    }
}

impl SelectionInputs {
    /// Inputs for the paper's terminal set; the extras are 0.
    pub fn new(q: f64, parent_visits: f64, child_visits: f64, c_e: f64) -> Self {
        SelectionInputs {
            q,
            parent_visits,
            child_visits,
            c_e,
            ..Default::default()
        }
    }

    /// The value of every terminal, in [`Terminal`] order.
    pub fn values(&self) -> [f64; TERMINAL_COUNT] {
        input_array(self)
    }

    /// Inputs with every terminal at its `formula eval` default ([`TerminalInfo::default`]).
    pub fn defaults() -> Self {
        let mut inputs = SelectionInputs::default();
        for info in TERMINALS {
            *info.terminal.slot_mut(&mut inputs) = info.default;
        }
        inputs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_terminal_reads_and_fills_its_own_slot() {
        for (i, info) in TERMINALS.iter().enumerate() {
            let mut inputs = SelectionInputs::default();
            *info.terminal.slot_mut(&mut inputs) = 1.0 + i as f64;
            let values = inputs.values();
            for (j, value) in values.iter().enumerate() {
                assert_eq!(*value, if i == j { 1.0 + i as f64 } else { 0.0 });
            }
            assert_eq!(info.terminal.read(&inputs), 1.0 + i as f64);
        }
    }

    #[test]
    fn names_are_unique_and_flags_spell_the_keywords() {
        for (i, a) in TERMINALS.iter().enumerate() {
            assert_eq!(a.flag, a.keyword.replace('_', "-"), "{}", a.symbol);
            assert_eq!(Terminal::from_symbol(a.symbol), Some(a.terminal));
            for b in &TERMINALS[i + 1..] {
                assert_ne!(a.symbol, b.symbol);
                assert_ne!(a.keyword, b.keyword);
                assert!(a.bank_column.is_none() || a.bank_column != b.bank_column);
            }
        }
    }

    #[test]
    fn the_derived_lists_follow_the_classes() {
        assert_eq!(
            Terminal::MOVE_FEATURES.map(Terminal::symbol).join(""),
            "GOMFRLT"
        );
        assert_eq!(
            Terminal::KNOWLEDGE.map(Terminal::symbol).join(""),
            "HpGOMFRLT"
        );
        assert_eq!(Terminal::MoverGain.feature_index(), Some(0));
        assert_eq!(Terminal::Progress.feature_index(), Some(6));
        assert_eq!(Terminal::Prior.feature_index(), None);
        let defaults = SelectionInputs::defaults();
        assert_eq!(
            (defaults.parent_visits, defaults.child_visits, defaults.c_e),
            (1.0, 1.0, 2.0)
        );
    }
}

"""Formula and Grammar: parse, print, typeset, canonical form, evaluate, mutate, grammars."""

import math

import pytest

import evomcts
from evomcts import EvomctsError, Formula, Grammar

UCT = "Q + 2*C*sqrt(2*ln(N)/n)"


def test_a_formula_prints_as_it_parses_and_typesets_for_people():
    f = Formula(UCT)
    assert str(f) == UCT
    assert Formula(str(f)) == f
    assert f == Formula.uct()
    assert f.typeset() == "Q + 2·C·√(2·ln(N)/n)"
    assert "\\sqrt" in f.latex()
    assert (f.size, f.depth, f.c_e) == (13, 6, None)
    assert Formula("Q + C*sqrt(ln(N)/n) [C=5]").c_e == 5.0
    assert hash(Formula(UCT)) == hash(f)
    assert repr(f) == f'Formula("{UCT}")'


def test_eval_takes_the_flags_of_formula_eval():
    f = Formula(UCT)
    value = f.eval(q=0.5, parent_visits=10, child_visits=2, c=1.0)
    assert value == pytest.approx(0.5 + 2 * math.sqrt(2 * math.log(10) / 2))
    # The formula's own C_E wins over the controller's, as on the command line.
    own = Formula("C [C=3]")
    assert own.eval(c=1.0) == 3.0
    extras = Formula("V + P + K + H + p")
    assert extras.eval(variance=1, parent_q=2, siblings=3, heuristic=4, prior=5) == 15.0
    with pytest.raises(EvomctsError, match="invalid value for q: expected a finite number"):
        f.eval(q=math.inf)
    with pytest.raises(TypeError):
        f.eval(0.5)  # keywords only, as flags


def test_eval_takes_one_keyword_per_terminal_of_the_table():
    terminals = Formula.terminals()
    assert [t[0] for t in terminals[:4]] == ["Q", "N", "n", "C"]
    for symbol, keyword, meaning, default in terminals:
        alone = Formula(symbol)
        assert meaning, symbol
        assert alone.eval() == default, symbol
        assert alone.eval(**{keyword: 3.5}) == 3.5, keyword
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        Formula(UCT).eval(bogus=1.0)
    with pytest.raises(TypeError, match="argument 'q'"):
        Formula(UCT).eval(q="high")
    # A terminal that cannot be negative refuses a negative value, as its flag does.
    with pytest.raises(EvomctsError, match="invalid value for meeple: expected a number >= 0"):
        Formula("M").eval(meeple=-1)
    assert Formula("G").eval(mover_gain=-0.25) == -0.25


def test_the_canonical_form_keeps_the_value():
    f = Formula("n*0 + Q + Q")
    c = f.canonical()
    args = dict(q=0.3, parent_visits=7, child_visits=3, c=1.5)
    assert c.eval(**args) == pytest.approx(f.eval(**args))
    assert c.size <= f.size
    assert Formula("Q + n").canonical() == Formula("n + Q").canonical()


def test_bad_formula_text_names_the_column():
    with pytest.raises(EvomctsError) as caught:
        Formula("Q + * 2")
    message = str(caught.value)
    assert message.startswith("cannot parse the formula: column 5: expected")
    assert "found `*`" in message
    with pytest.raises(EvomctsError, match="column 6: .*end of input"):
        Formula("Q + (")


def test_mutations_are_those_of_formula_mutate_and_depend_only_on_the_seed():
    parent = Formula(UCT)
    three = parent.mutations(3, seed=1)
    # The first lines `evomcts formula mutate --count 3` prints after the parent.
    assert [str(f) for f in three] == [
        "Q + (ln(N) - sqrt(N))",
        "Q + 2*C*sqrt(2*(ln(N*n)/ln(ln(N)))/n)",
        "Q + 2*C*sqrt((sqrt(2) - sqrt(2) - (Q - n - sqrt(Q)))/n)",
    ]
    assert parent.mutate(seed=1) == three[0]
    assert parent.mutations(3, seed=1) == three
    assert parent.mutations(3, seed=2) != three
    ucb1_tuned = Grammar("ucb1_tuned")
    for child in parent.mutations(20, grammar=ucb1_tuned, seed=4):
        assert ucb1_tuned.admits(child) is None, child


def test_grammars_from_names_files_and_text(repo):
    paper = Grammar()
    assert paper.name == "paper" and paper.description
    from_file = Grammar.from_file(str(repo / "grammars" / "paper.ron"))
    assert from_file.to_ron() == Grammar.from_text(from_file.to_ron()).to_ron()
    assert Grammar.from_text(paper.to_ron()).name == "paper"
    assert paper.admits(Formula("Q + H")) is not None


def test_bad_grammars_name_the_file_and_place(tmp_path):
    with pytest.raises(EvomctsError, match="invalid grammar: .*no-such.ron: cannot read"):
        Grammar.from_file(str(tmp_path / "no-such.ron"))
    bad = tmp_path / "bad.ron"
    bad.write_text("(name: \"x\",\n  functions: [Oops],\n)\n")
    with pytest.raises(EvomctsError, match=r"invalid grammar: .*bad.ron:\d+:\d+"):
        Grammar.from_file(str(bad))
    with pytest.raises(EvomctsError, match="invalid grammar"):
        Grammar("no-such-grammar")


def test_the_package_exports_what_its_stub_declares():
    for name in evomcts.__all__:
        assert hasattr(evomcts, name), name

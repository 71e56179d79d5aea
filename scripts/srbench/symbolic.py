"""SRBench's ground-truth checks (La Cava et al. 2021, and its repository's
`symbolic_equivalence`): a model is a *symbolic solution* when, its constants below 1e-4 in
magnitude set to 0 and the others rounded to 3 decimals, the truth minus the model or the model
over the truth simplifies to a constant (not 0 for the quotient); an *accuracy solution* when
its test R^2 exceeds 0.999 (run.py).

The model is glevo's `best_sympy`, which names the inputs by the CSV's columns made identifiers
as glevo makes them (src/gp/identifiers.c): identifier() below is the same rule, so that the
truth's symbols are the model's."""
import re
import signal

import sympy

# src/gp/identifiers.c's reserved words: Python's keywords, SymPy's parser's constants and
# functions, the printers' operator names.
RESERVED = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
    "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
    "try", "while", "with", "yield", "E", "I", "S", "N", "O", "Q", "pi", "oo", "zoo", "nan",
    "sin", "cos", "tan", "exp", "log", "sqrt", "Abs", "abs", "tanh", "pow", "aq", "square",
    "cube", "Piecewise", "Max", "Min", "re", "im", "beta", "gamma", "zeta", "Float",
    "Integer", "Symbol", "Rational"}


def identifiers(names):
    """The columns' names as glevo prints them (the same rule as src/gp/identifiers.c)."""
    out = []
    for n in names:
        base = re.sub(r"[^A-Za-z0-9_]", "_", n or "")
        if base[:1].isdigit():
            base = "_" + base
        s, k = base, 0
        while s in RESERVED or s in out:
            k += 1
            s = base + "_" if k == 1 else f"{base}_{k}"
        out.append(s)
    return out


def _round_floats(expr):
    """SRBench's rounding: constants below 1e-4 in magnitude to 0, the others to 3 decimals."""
    for a in sympy.preorder_traversal(expr):
        if isinstance(a, sympy.Float):
            expr = expr.subs(a, 0 if abs(a) < 1e-4 else sympy.Float(round(a, 3)))
    return expr


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def symbolic_solution(model_text, truth_text, names, seconds=30):
    """True, False, or None when SymPy did not decide within `seconds` (main thread only)."""
    idents = identifiers(names)
    symbols = {i: sympy.Symbol(i) for i in idents}
    truth = sympy.sympify(truth_text, locals={n: symbols[i] for n, i in zip(names, idents)})
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        model = _round_floats(sympy.sympify(model_text, locals=dict(symbols)))
        if not model.free_symbols:
            return False  # a constant model is no solution of a function of the inputs
        diff = _round_floats(sympy.simplify(truth - model))
        if not diff.free_symbols:
            return True
        frac = _round_floats(sympy.simplify(model / truth))
        return not frac.free_symbols and frac != 0
    except _Timeout:
        return None
    except (sympy.SympifyError, TypeError, ValueError, ZeroDivisionError):
        return False
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)

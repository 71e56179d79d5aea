"""SRBench's ground-truth checks (La Cava et al. 2021, and its repository's
`symbolic_equivalence`): a model is a *symbolic solution* when, its constants below 1e-4 in
magnitude set to 0 and the others rounded to 3 decimals, the truth minus the model or the model
over the truth simplifies to a constant (not 0 for the quotient); an *accuracy solution* when
its test R^2 exceeds 0.999 (run.py).

The model is glevo's `best_sympy`, which names the inputs by the CSV's columns made identifiers
(src/gp/sr/identifiers.c); `glevo gp --json` lists them (`identifiers`), and the truth's variables
become those symbols, so that the truth's symbols are the model's."""
import signal

import sympy

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


def symbolic_solution(model_text, truth_text, names, idents, seconds=30):
    """True, False, or None when SymPy did not decide within `seconds` (main thread only).
    names: the truth's variables; idents: the same inputs as the model names them."""
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
    except (AttributeError, RecursionError, NotImplementedError):
        # SymPy's own failures inside simplify (SymPy 1.11's fu.py raised AttributeError on a
        # Feynman model, 2026-11-29, and stopped a whole summary): undecided, as a timeout.
        return None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)

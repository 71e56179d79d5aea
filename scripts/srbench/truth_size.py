"""The node count of a suite target's truth as glevo would write it with its binary and unary
operators: a yardstick for the size of a printed model (a model that recovers the target
exactly should not be much larger than the truth itself).

The truth is the target's SymPy string (suites.Target.truth) parsed by sympy.sympify, so the
count follows SymPy's automatically evaluated form (e.g. sqrt(2*pi) becomes sqrt(2)*sqrt(pi)),
and is counted node by node:
  - a symbol: 1; a subtree without symbols (2, 1/2, -0.3, pi, 4*pi, sqrt(2*pi)): 1, the one
    constant glevo would fit in its place; in a sum or product the factors or terms without
    symbols together are that one constant;
  - a sum of k terms: k - 1 binary nodes plus its terms, where a term with a negative
    coefficient is subtracted (a - 3*b is (- a (* 3 b)), not a neg plus an add); only when every
    term is negative does the first keep its sign (its coefficient is the constant);
  - a product: its factors with a negative exponent form a denominator, written with one `/`
    (a*b/(c*d**2) is (/ (* a b) (* c (* d d)))); a numerator of k factors is k - 1 binary
    nodes plus the factors, an empty one the constant 1 (1/x is (/ 1 x): 3 nodes);
  - a power: x**2 as x*x and x**3 as x*x*x (the base counted each time it appears),
    x**(1/2) as sqrt (1 node + x), a negative exponent as 1 over the positive power
    (x**(-1/2) is 1/sqrt(x)), any other power as pow (1 node + base + exponent);
  - a function (sin, cos, exp, log, tanh, asin, ...): 1 node + its arguments."""
import functools

import sympy

import suites


def count(expr):
    """Nodes of a SymPy expression as glevo would write it (the module's rule)."""
    if not expr.free_symbols or expr.is_Symbol:
        return 1
    if expr.is_Add:
        return _sum(expr.args)
    if expr.is_Mul or (expr.is_Pow and _negative(expr.exp)):
        return _product(sympy.Mul.make_args(expr))
    if expr.is_Pow:
        return _power(expr.base, expr.exp)
    return 1 + sum(count(a) for a in expr.args)  # a function of its arguments


def _negative(v):
    return v.is_number and v.is_negative


def _constants_folded(args):
    """The symbol-free args as one constant (a list of at most one expression) + the others."""
    numbers = [a for a in args if not a.free_symbols]
    rest = [a for a in args if a.free_symbols]
    return ([sympy.Mul(*numbers)] if numbers else []) + rest


def _sum(terms):
    terms = _constants_folded(terms)
    coeff = [t.as_coeff_Mul()[0] for t in terms]
    subtracted = [t for t, c in zip(terms, coeff) if _negative(c)]
    added = [t for t, c in zip(terms, coeff) if not _negative(c)]
    if not added:  # -a - b: the first term keeps its sign
        added, subtracted = subtracted[:1], subtracted[1:]
    return (len(terms) - 1 + sum(count(t) for t in added)
            + sum(count(-t) for t in subtracted))


def _product(factors):
    factors = _constants_folded(factors)
    den = [sympy.Pow(f.base, -f.exp) for f in factors if f.is_Pow and _negative(f.exp)]
    num = [f for f in factors if not (f.is_Pow and _negative(f.exp))] or [sympy.S.One]
    n = len(num) - 1 + sum(count(f) for f in num)
    if den:
        n += 1 + len(den) - 1 + sum(count(f) for f in den)
    return n


def _power(base, exp):
    b = count(base)
    if exp == 2:
        return 1 + 2 * b
    if exp == 3:
        return 2 + 3 * b
    if exp == sympy.S.Half:
        return 1 + b
    return 1 + b + count(exp)


@functools.lru_cache(maxsize=None)
def truth_nodes(target_name):
    """Nodes of a target's truth (count), or None where the suite states no truth or the target
    is not known (a row of another harness)."""
    try:
        t = suites.target(target_name)
    except KeyError:
        return None
    if not t.truth:
        return None
    # The inputs as plain symbols: a name such as I, E, beta or gamma is otherwise SymPy's own.
    expr = sympy.sympify(t.truth, locals={n: sympy.Symbol(n) for n in t.names})
    return count(expr)


if __name__ == "__main__":
    import sys
    for suite in sys.argv[1:] or list(suites.SUITES):
        for t in suites.SUITES[suite]:
            print(f"{t.name}\t{truth_nodes(t.name)}\t{t.truth or ''}")

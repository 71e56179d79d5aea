"""glevo.SymbolicRegressor: scikit-learn's own estimator checks, a pipeline with
cross-validation, the inputs' names in the formula, pickling, SymPy."""
import pickle
import warnings

import numpy as np
import pytest

import glevo


def small(**params):
    return glevo.SymbolicRegressor(**dict(dict(pop=200, generations=10, backend="cpu"), **params))


def data(seed=1, n=200):
    rng = np.random.default_rng(seed)
    X = rng.uniform(1, 3, (n, 2))
    return X, X[:, 0] ** 2 + np.sin(X[:, 1])


def test_scikit_learn_check_estimator():
    checks = pytest.importorskip("sklearn.utils.estimator_checks")
    failed = []
    for estimator, check in checks.check_estimator(small(), generate_only=True):
        name = getattr(check, "func", check).__name__
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                check(estimator)
        except pytest.skip.Exception:
            pass
        except Exception as e:  # noqa: BLE001: each check's failure, named
            if type(e).__name__ != "SkipTest":
                failed.append(f"{name}: {type(e).__name__}: {e}")
    assert not failed, "\n".join(failed)


def test_fits_and_names_the_inputs():
    X, y = data()
    est = small(generations=20).fit(X, y, feature_names=["speed", "lambda"])
    assert est.score(X, y) > 0.999
    assert "speed" in est.formula_ and "lambda_" in est.formula_  # a keyword, made an identifier
    assert "x1" in est.program_  # the S-expression keeps x1, x2
    assert est.variable_names_ == ["speed", "lambda"]
    np.testing.assert_array_equal(est.predict(X), est.model_(X).astype(np.float64))


def test_pickle_and_clone_keep_the_model_and_params():
    X, y = data()
    est = small().fit(X, y)
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(again.predict(X), est.predict(X))
    sklearn_base = pytest.importorskip("sklearn.base")
    twin = sklearn_base.clone(est)
    assert twin.get_params() == est.get_params() and not hasattr(twin, "model_")


def test_pipeline_with_cross_validation():
    sk = pytest.importorskip("sklearn.model_selection")
    pipeline = pytest.importorskip("sklearn.pipeline")
    preprocessing = pytest.importorskip("sklearn.preprocessing")
    X, y = data(n=150)
    pipe = pipeline.make_pipeline(preprocessing.StandardScaler(), small(generations=20))
    scores = sk.cross_val_score(pipe, X, y, cv=3)
    assert scores.shape == (3,) and np.all(scores > 0.95)


def test_sympy_expression():
    sympy = pytest.importorskip("sympy")
    X, y = data()
    est = small(generations=20).fit(X, y, feature_names=["a", "b"])
    expr = est.sympy()
    assert {str(s) for s in expr.free_symbols} <= {"a", "b"}
    f = sympy.lambdify(sorted(expr.free_symbols, key=str), expr, "numpy")
    args = [X[:, 0] if str(s) == "a" else X[:, 1] for s in sorted(expr.free_symbols, key=str)]
    np.testing.assert_allclose(f(*args), est.predict(X), rtol=1e-5, atol=1e-5 * np.abs(y).max())


def test_bad_input_is_a_clear_error():
    X, y = data()
    with pytest.raises(ValueError, match="y is None"):
        small().fit(X, None)
    est = small().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        est.predict(X[:, :1])

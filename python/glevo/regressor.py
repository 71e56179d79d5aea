"""glevo.SymbolicRegressor: glevo.GP as a scikit-learn estimator (fit, predict, score,
get_params/set_params), so it runs where PySR, gplearn and Operon run: in pipelines, grid
searches, cross-validation and SRBench. Built on scikit-learn's BaseEstimator and
RegressorMixin where scikit-learn is installed (Debian's python3-sklearn); without it the
class still fits and predicts, with the same parameters."""
import numpy as np

from .gp import GP

try:
    from sklearn.base import BaseEstimator, RegressorMixin
    from sklearn.utils.validation import check_is_fitted
    _HAVE_SKLEARN = True
except ImportError:  # the estimator protocol by hand: parameters from __init__'s signature
    import inspect
    _HAVE_SKLEARN = False

    class BaseEstimator:
        def get_params(self, deep=True):
            names = [p for p in inspect.signature(type(self).__init__).parameters if p != "self"]
            return {name: getattr(self, name) for name in names}

        def set_params(self, **params):
            valid = self.get_params()
            for name, value in params.items():
                if name not in valid:
                    raise ValueError(f"{type(self).__name__}: unknown parameter {name!r}")
                setattr(self, name, value)
            return self

    class RegressorMixin:
        def score(self, X, y, sample_weight=None):
            y = np.asarray(y, dtype=np.float64)
            residual = np.sum((y - self.predict(X)) ** 2)
            total = np.sum((y - y.mean()) ** 2)
            return 1.0 - residual / total if total > 0 else float(residual == 0)

    def check_is_fitted(estimator, attributes=None):
        if not hasattr(estimator, "model_"):
            raise AttributeError(f"{type(estimator).__name__} is not fitted yet: call fit first")


class SymbolicRegressor(RegressorMixin, BaseEstimator):
    """A model y = f(X) found by glevo's genetic programming, printed as a formula.

    The parameters are `glevo gp`'s, with its defaults (None: the CLI's default for the
    metric, as GP.defaults() shows): pop, generations, function_set ("regression",
    "classification" or a list such as "+,-,*,/,sin"), max_size, tournament, pc, pm,
    const_opt_iters, portfolio, enumeration, linear_layer, prune, linear_scaling, parsimony,
    target_error,
    backend ("auto", "fragment", "compute", "cpu") and seed (runs are reproducible by seed).

    After fit: model_ (a glevo.GPModel), program_ (its S-expression, inputs x1, x2, ...),
    formula_ (infix with the inputs' names: fit's feature_names, a DataFrame's columns, else
    x1, x2, ...; variable_names_ lists them; the formula makes each an identifier), sympy_ (the
    SymPy text), train_r2_, n_features_in_, and for a DataFrame feature_names_in_. sympy()
    gives the model as a SymPy expression.
    """

    def __init__(self, pop=1000, generations=50, function_set="regression", max_size=None,
                 tournament=None, pc=None, pm=None, const_opt_iters=None, portfolio=None,
                 enumeration=None, linear_layer=None, prune=None, linear_scaling=None,
                 parsimony=None, target_error=None, backend="auto", seed=1):
        self.pop = pop
        self.generations = generations
        self.function_set = function_set
        self.max_size = max_size
        self.tournament = tournament
        self.pc = pc
        self.pm = pm
        self.const_opt_iters = const_opt_iters
        self.portfolio = portfolio
        self.enumeration = enumeration
        self.linear_layer = linear_layer
        self.prune = prune
        self.linear_scaling = linear_scaling
        self.parsimony = parsimony
        self.target_error = target_error
        self.backend = backend
        self.seed = seed

    def _gp_params(self):
        params = {k: v for k, v in self.get_params().items() if v is not None}
        # linear_scaling and prune are tri-states in the library (0: the metric's default).
        for flag in ("linear_scaling", "prune"):
            if flag in params:
                params[flag] = 1 if params[flag] else -1
        return params

    def _check_X(self, X, reset, y=None):
        if _HAVE_SKLEARN:
            if y is None:
                return self._validate_data(X, reset=reset, dtype=np.float64), None
            return self._validate_data(X, y, reset=reset, dtype=np.float64, y_numeric=True)
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"SymbolicRegressor: X must be 2-D, it has shape {X.shape}")
        if reset:
            self.n_features_in_ = X.shape[1]
        elif X.shape[1] != self.n_features_in_:
            raise ValueError(f"SymbolicRegressor: X has {X.shape[1]} features, the model was "
                             f"fitted on {self.n_features_in_}")
        return X, None if y is None else np.asarray(y, dtype=np.float64)

    def fit(self, X, y, feature_names=None):
        """Evolves the model on X (samples x features) and y. feature_names (or a DataFrame's
        columns) name the inputs in the printed formula."""
        if y is None:  # scikit-learn's wording, which its estimator checks look for
            raise ValueError("SymbolicRegressor requires y to be passed, but the target y is None")
        X, y = self._check_X(X, True, y)
        if y.ndim != 1:
            raise ValueError(f"SymbolicRegressor: y must be 1-D, it has shape {y.shape}")
        if X.shape[0] < 2:
            raise ValueError(f"SymbolicRegressor: {X.shape[0]} sample; fitting needs at least 2")
        # feature_names_in_ is scikit-learn's (a DataFrame's columns, checked at predict);
        # variable_names_ is what the formula calls the inputs.
        names = feature_names if feature_names is not None else getattr(self, "feature_names_in_", None)
        self.variable_names_ = ([str(n) for n in names] if names is not None else
                                [f"x{k + 1}" for k in range(X.shape[1])])
        gp = GP((X, y), feature_names=self.variable_names_, **self._gp_params())
        result = gp.run()
        self.model_ = gp.model
        self.program_ = str(self.model_)
        self.formula_ = result["best_infix"]
        self.sympy_ = result["best_sympy"]
        self.train_r2_ = result["train_r2"]
        self.result_ = result
        return self

    def predict(self, X):
        check_is_fitted(self, "model_")
        X, _ = self._check_X(X, False)
        return self.model_(X).astype(np.float64)

    def sympy(self):
        """The fitted model as a SymPy expression (needs python3-sympy), over symbols named
        after the inputs."""
        check_is_fitted(self, "model_")
        import sympy
        return sympy.sympify(self.sympy_)

    def __str__(self):
        return self.formula_ if hasattr(self, "formula_") else repr(self)

    def _more_tags(self):
        # Nondeterministic across seeds but not within one: runs are reproducible by seed.
        return {"poor_score": True}

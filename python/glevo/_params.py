"""Keyword arguments -> a C params struct. Every family lists its fields once (name, kind,
how an explicit zero is meant); defaults come from the C library's *_params_defaults and
the values are validated by the library's own validation, so the messages are its own."""
import math
import numbers

from ._lib import ffi, lib, text, enum_names

ZERO = lib.GLEVO_ZERO
# (glevo_backend)GLEVO_ZERO as C stores it: the enums have no negative values, so cffi (as
# the C compiler) gives them an unsigned base and -1 wraps.
ZERO_ENUM = ZERO & 0xFFFFFFFF


class Field:
    """kind: 'int', 'float', 'bool', 'seed' or ('enum', name_fn, parse_fn).
    zero: 'literal' (the C field takes GLEVO_ZERO for a meant 0), 'plain' (0 is 0) or
    'default' (0 would mean "the default" in C: refused from Python)."""

    def __init__(self, kind, zero="plain", c=None):
        self.kind, self.zero, self.c = kind, zero, c


def _enum_parse(field, value, owner, name):
    _, name_fn, parse_fn = field.kind
    if not isinstance(value, str):
        raise TypeError(f"{owner}: {name} must be a str (one of "
                        f"{', '.join(enum_names(name_fn))}), not {type(value).__name__}")
    v = parse_fn(value.encode()) if value else -1
    if v < 0:
        raise ValueError(f"{owner}: {name} '{value}' is unknown (known: "
                         f"{', '.join(enum_names(name_fn))})")
    return v


def convert(field, value, owner, name):
    """The C value of a Python argument, refusing wrong types and non-finite numbers."""
    kind = field.kind
    if isinstance(kind, tuple):
        return _enum_parse(field, value, owner, name)
    if kind == "bool":
        if not isinstance(value, (bool, int)) or (isinstance(value, int) and value not in (0, 1)):
            raise TypeError(f"{owner}: {name} must be a bool, not {type(value).__name__}")
        return bool(value)
    if kind in ("int", "seed"):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{owner}: {name} must be an int, not {type(value).__name__}")
        value = int(value)
        if kind == "seed":
            if not 0 <= value < 2**32:
                raise ValueError(f"{owner}: seed {value} is outside 0..2^32-1")
            return value
        if not -2**63 <= value < 2**63:
            raise ValueError(f"{owner}: {name} {value} is out of range")
    elif kind == "float":
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{owner}: {name} must be a number, not {type(value).__name__}")
        value = float(value)
        if math.isnan(value):
            raise ValueError(f"{owner}: {name} is NaN")
    if value == 0:
        if field.zero == "literal":
            return ZERO
        if field.zero == "default":
            raise ValueError(f"{owner}: {name} 0 is not allowed (leave it out for the default)")
    elif field.zero == "literal" and value == ZERO:
        raise ValueError(f"{owner}: {name} {value} is out of range")
    return value


def fill(struct, fields, kwargs, owner):
    """Sets struct's fields from kwargs; unknown names raise TypeError naming them."""
    for name, value in kwargs.items():
        field = fields.get(name)
        if field is None:
            raise TypeError(f"{owner}() got an unexpected keyword argument '{name}' (known: "
                            f"{', '.join(sorted(fields))})")
        if value is None:
            continue  # None: the default
        target, cname = struct, field.c or name
        while "." in cname:
            head, cname = cname.split(".", 1)
            target = getattr(target, head)
        setattr(target, cname, convert(field, value, owner, name))


def read(struct, fields):
    """The struct's values as Python values by argument name (enums as their names)."""
    out = {}
    for name, field in fields.items():
        target, cname = struct, field.c or name
        while "." in cname:
            head, cname = cname.split(".", 1)
            target = getattr(target, head)
        v = getattr(target, cname)
        if isinstance(field.kind, tuple):
            v = text(field.kind[1](v))
        elif field.kind == "bool":
            v = bool(v)
        out[name] = v
    return out


def backend_field():
    return Field(("enum", lib.glevo_backend_name, lib.glevo_backend_parse), zero="plain")


def new(ctype):
    return ffi.new(ctype + " *")

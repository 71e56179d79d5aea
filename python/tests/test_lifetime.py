"""Engines own GL objects of the context they were made on: they are freed there (whatever
context is current when they are dropped), and closing a context frees its engines first,
so nothing is ever freed into a dead or foreign context."""
import gc

import pytest

import glevo


def test_close_context_closes_its_engines():
    ctx = glevo.Context()
    ga = glevo.CellularGA("camel", width=8, height=5, context=ctx).step(3)
    kept, holder = [], []
    # A user callback holding the engine makes a reference cycle: freed by the collector later.
    cyc = glevo.CellularGA("camel", width=8, height=5, context=ctx, report_every=1,
                           progress=lambda g, b: kept.append(holder[0].generation))
    holder.append(cyc)
    cyc.step(2)
    assert kept == [1, 2]
    ctx.close()
    with pytest.raises(ValueError, match="CellularGA is closed"):
        ga.step(1)
    with pytest.raises(ValueError, match="closed"):
        ga.generation
    del ga, cyc
    gc.collect()  # nothing left to free into the closed context


def test_engines_freed_on_their_own_context():
    a = glevo.Context()
    b = glevo.Context()  # now current on this thread
    ga_a = glevo.CellularGA("camel", width=10, height=4, seed=2, context=a).step(5)
    ga_b = glevo.CellularGA("camel", width=10, height=4, seed=2, context=b).step(5)
    del ga_a
    gc.collect()
    ga_b.step(5)  # b made current again behind the scenes, its engine intact
    again = glevo.CellularGA("camel", width=10, height=4, seed=2, context=b).step(10)
    assert ga_b.best.fitness == again.best.fitness
    with glevo.CellularGA("camel", width=10, height=4, context=a) as ga:
        ga.step(1)
    with pytest.raises(ValueError, match="closed"):
        ga.step(1)
    b.close()
    a.close()

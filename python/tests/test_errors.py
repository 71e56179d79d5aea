"""Bad input from Python: TypeError/ValueError naming the argument, the C library's own
validation messages, GLSL compile errors with the user's lines, and the thread rule."""
import threading

import pytest

import glevo

FITNESS = """vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z) { return acc + vec4((z - 1.0) * (z - 1.0)); }
float problem_finish(vec4 acc, int D) { return acc.x; }
"""


def test_unknown_keyword_names_it():
    with pytest.raises(TypeError, match="unexpected keyword argument 'generatoins'"):
        glevo.CellularGA("camel", generatoins=5, backend="cpu")


def test_wrong_types_name_the_argument():
    with pytest.raises(TypeError, match="pc must be a number, not str"):
        glevo.CellularGA("camel", pc="high", backend="cpu")
    with pytest.raises(TypeError, match="width must be an int, not float"):
        glevo.CellularGA("camel", width=32.0, backend="cpu")
    with pytest.raises(TypeError, match="problem must be a str or a glevo.Problem"):
        glevo.CellularGA(3, backend="cpu")
    with pytest.raises(ValueError, match="neighbourhood 'hex' is unknown \\(known: moore, von-neumann, moore5\\)"):
        glevo.CellularGA("camel", neighbourhood="hex", backend="cpu")
    with pytest.raises(ValueError, match="pm is NaN"):
        glevo.CellularGA("camel", pm=float("nan"), backend="cpu")
    with pytest.raises(ValueError, match="seed -1 is outside"):
        glevo.DE("sphere", seed=-1, backend="cpu")


def test_c_validation_messages():
    with pytest.raises(glevo.InvalidError, match=r"glevo_cga_params.pc 1.5 is outside \[0, 1\]"):
        glevo.CellularGA("camel", pc=1.5, backend="cpu")
    with pytest.raises(ValueError, match="the width must be even"):
        glevo.CellularGA("camel", width=31, backend="cpu")
    with pytest.raises(ValueError, match="glevo_de_params.pop 3 is below 4"):
        glevo.DE("sphere", pop=3, backend="cpu")
    with pytest.raises(ValueError, match="problem 'nope' is unknown"):
        glevo.Problem("nope")
    assert "nope" in glevo.last_error()


def test_glsl_problem_runs_and_compile_errors_name_user_lines(ctx):
    pr = glevo.Problem.from_glsl(FITNESS, dim=3, lower=-5, upper=5, name="shifted_sphere")
    ga = glevo.CellularGA(pr, width=16, height=12, seed=4, context=ctx).step(30)
    assert abs(ga.best.x - 1).max() < 0.2
    bad = FITNESS.replace("(z - 1.0) * (z - 1.0)", "z * undefined_thing")
    with pytest.raises(glevo.GlslError) as e:
        glevo.CellularGA(glevo.Problem.from_glsl(bad, dim=3, name="mine"), width=16, height=12,
                         context=ctx)
    assert e.value.name == "mine" and e.value.lineno == 2
    assert "undefined_thing" in str(e.value)
    with pytest.raises(ValueError, match="no CPU twin"):
        glevo.CellularGA(pr, backend="cpu")


def test_glsl_same_as_cli_fitness_file(ctx, cli, tmp_path):
    path = tmp_path / "fit.glsl"
    path.write_text(FITNESS)
    j = cli("cga", "--fitness", path, "--dim", 3, "--lower", -5, "--upper", 5, "--grid", "16x12",
            "--seed", 4, "--generations", 30)
    pr = glevo.Problem.from_glsl(FITNESS, dim=3, lower=-5, upper=5)
    ga = glevo.CellularGA(pr, width=16, height=12, seed=4, context=ctx).step(30)
    assert ga.best.fitness == j["best_fitness"] and ga.best.x.tolist() == j["best_x"]


def test_context_refused_on_another_thread(ctx):
    ga = glevo.CellularGA("camel", width=10, height=6, context=ctx)
    caught = []

    def other():
        try:
            ga.step(1)
        except glevo.ThreadError as e:
            caught.append(str(e))

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert caught and "current on thread" in caught[0] and "make_current" in caught[0]
    assert ga.generation == 0
    ga.step(2)  # still fine on its own thread
    assert ga.generation == 2


def test_context_backend_is_the_default(cli):
    with glevo.Context(backend="cpu") as c:
        ga = glevo.CellularGA("camel", width=18, height=11, seed=3).step(25)
        assert c.renderer == "cpu" and ga.params["backend"] == "cpu"
    with pytest.raises(TypeError, match="backend must be a str"):
        glevo.Context(backend=1)
    with pytest.raises(ValueError, match="backend 'gpu' is unknown"):
        glevo.Context(backend="gpu")


def test_devices_and_device_choice(ctx):
    devs = glevo.devices()
    assert devs and all({"index", "renderer", "usable"} <= set(d) for d in devs)
    usable = [d for d in devs if d["usable"]]
    assert usable
    with glevo.Context(device=usable[0]["index"]) as c:
        assert c.renderer == usable[0]["renderer"]
        assert glevo.CellularGA("camel", width=6, height=3).step(2).generation == 2
    with pytest.raises(glevo.GlevoError, match="99"):
        glevo.Context(device=99)
    with pytest.raises(TypeError, match="device must be an int"):
        glevo.Context(device="0")
    # The session's context still works after all that (made current again when used).
    assert glevo.CellularGA("camel", width=6, height=3, context=ctx).step(1).generation == 1


def test_multiprocessors_as_glevo_info_says(ctx, cli):
    """The context's answer is the CLI's `multiprocessors` object (the same default device)."""
    info = cli("info")
    assert ctx.multiprocessors == info["multiprocessors"]
    with glevo.Context(backend="cpu") as c:
        assert c.multiprocessors == {}


def test_compute_backend_same_as_cli(ctx, cli):
    if not ctx.features["compute"]:
        pytest.skip("no compute shaders on this context")
    ga = glevo.CellularGA("camel", width=18, height=11, seed=3, backend="compute",
                          context=ctx).step(25)
    j = cli("cga", "--problem", "camel", "--grid", "18x11", "--generations", 25, "--seed", 3,
            "--backend", "compute")
    assert ga.best.fitness == j["best_fitness"] and ga.best.x.tolist() == j["best_x"]


def test_glsl_with_a_nul_is_refused():
    with pytest.raises(ValueError, match="NUL character on line 2"):
        glevo.Problem.from_glsl(FITNESS.replace("\n", "\n\0", 1), dim=3)

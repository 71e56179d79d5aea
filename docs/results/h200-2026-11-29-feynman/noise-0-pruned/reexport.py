"""(noise-0-pruned: also the printed model, its node count and its errors scored again, and the
time glevo_gp_model takes.)
Re-exports each recorded run's program (runs.csv) with this build's glevo_gp_model on the
run's own training data, and re-runs SRBench's symbolic check where the SymPy string changed."""
import csv, sys, os, signal
sys.path.insert(0, 'scripts/srbench'); sys.path.insert(0, 'python')
import suites, symbolic, run as srrun
from glevo._lib import ffi, lib
src = sys.argv[1]; out = sys.argv[2]
rows = list(csv.DictReader(open(src)))
GLEVO_ZERO = lib.GLEVO_ZERO if hasattr(lib, 'GLEVO_ZERO') else None
changed = newly = lost = 0
import time
T0=time.time(); tmax=0
for r in rows:
    if r['status'] != 'ok' or not r['program']:
        continue
    t = suites.target(r['target'])
    tr, te, data, ref = srrun.prepare(t, int(r['data_seed']), '/tmp/reexp', float(r['noise'] or 0))
    d = ffi.new('glevo_gp_data **')
    assert lib.glevo_gp_data_load_csv(tr.encode(), ffi.NULL, d) == 0, ffi.string(lib.glevo_last_error())
    p = ffi.new('glevo_gp_programs **'); lib.glevo_gp_programs_create(p)
    assert lib.glevo_gp_programs_parse(p[0], r['program'].encode(), b'run', 0) == 0
    prm = ffi.new('glevo_gp_params *'); prm.metric = lib.GLEVO_GP_MSE; prm.linear_scaling = -1
    full = lib.glevo_gp_params_defaults(prm)
    res = ffi.new('glevo_gp_result *')
    t1=time.time(); st = lib.glevo_gp_model(ffi.new('glevo_gp_params *', full), d[0], p[0], 0, res)
    dt=time.time()-t1; tmax=max(tmax,dt)
    r["model_s"]=dt
    assert st == 0, ffi.string(lib.glevo_last_error())
    sym = ffi.string(res.best_sympy).decode()
    r["nodes"] = res.best_nodes
    prog = ffi.string(res.best_sexpr).decode()
    if prog != r["program"]:  # the printed program scored again on the run's own data
        r["program"] = prog
        trm, tem, trr, ter, _ = srrun.score("build/glevo", prog, data, tr, te)
        r.update(train_mse=trm, test_mse=tem, train_r2=trr, test_r2=ter,
                 exact=int(trm < srrun.EXACT_MSE and tem < srrun.EXACT_MSE),
                 accurate=int(ter > srrun.ACCURATE_R2))
    lib.glevo_gp_result_free(res); lib.glevo_gp_programs_destroy(p[0]); lib.glevo_gp_data_destroy(d[0])
    if sym != r['sympy']:
        changed += 1
        old = r['symbolic']
        r['sympy'] = sym
        if srrun._f(r.get('test_r2')) >= srrun.SYMBOLIC_MIN_R2:
            idents = (r.get('identifiers') or '').split() or t.names
            v = symbolic.symbolic_solution(sym, t.formula, t.names, idents, seconds=10)
            r['symbolic'] = '' if v is None else int(v)
        if str(r['symbolic']) == '1' and old != '1': newly += 1
        if str(r['symbolic']) != '1' and old == '1': lost += 1
        print(r['target'], r['run'], old, '->', r['symbolic'], flush=True)
w = csv.DictWriter(open(out, 'w', newline=''), fieldnames=list(rows[0].keys())); w.writeheader(); w.writerows(rows)
sym_n = sum(1 for r in rows if str(r['symbolic']) == '1')
print(f'changed {changed}, newly symbolic {newly}, lost {lost}; symbolic {sym_n} of {len(rows)} = {100*sym_n/len(rows):.1f} %')
tot = sum(float(r.get("model_s", 0)) for r in rows)
print(f"model seconds: max {tmax:.3f}, total {tot:.2f}")
acc = sum(1 for r in rows if str(r['accurate']) == '1'); ex = sum(1 for r in rows if str(r['exact']) == '1')
print(f'accurate {acc}, exact {ex} of {len(rows)}')

# usage: scan_combinations.py [N] -- the best combinations of N helper runs (all N if absent)
# EMU: the directory of the single-family runs NAME_pPOP_sBASE (default /tmp/emu, where the main
# search alone at pop 1500 on seeds 401.. is main_p1500_s400 unless MAIN400 names it);
# COMBO=fam:pop,fam:pop,...: also print that combination's score (2026-11-28: the built four).
import csv, itertools, glob, os, collections
E=os.environ.get('EMU', '/tmp/emu')
def load(p): return {(r["target"], r["run"]): r for r in csv.DictReader(open(p))}
def mse(r):
    try: return float(r["train_mse"])
    except: return float("inf")
mains={200: load('/work/main/docs/results/srbench-2026-11-26-fit-defaults/vm_def1500/runs.csv'),
       400: load(os.environ.get('MAIN400', E+'/main_p1500_s400/runs.csv'))}
runs={}
for d in glob.glob(E+'/*_p*_s*/runs.csv'):
    name=os.path.basename(os.path.dirname(d)); fam,p,s=name.rsplit('_',2)
    if fam=='main': continue
    runs[(fam,int(p[1:]),int(s[1:]))]=load(d)
fams=sorted({k[0] for k in runs})
opts=collections.defaultdict(list)
for (f,p,s) in runs: 
    if s==200 and (f,p,400) in runs: opts[f].append(p)
def score(combo,base):
    M=mains[base]; tot=0; per=collections.Counter()
    for key,rm in M.items():
        rows=[rm]+[runs[(f,p,base)][key] for f,p in combo]
        pick=min(range(len(rows)),key=lambda i:(mse(rows[i]),i))
        if rows[pick]["exact"]=="1": tot+=1; per[key[0]]+=1
    return tot,per
res=[]
for n in (1,2,3,4):
    for fs in itertools.combinations(fams,n):
        for ps in itertools.product(*[sorted(opts[f]) for f in fs]):
            if sum(ps)!=500: continue
            combo=list(zip(fs,ps))
            a,_=score(combo,200); b,_=score(combo,400)
            res.append((a+b,a,b,combo))
res.sort(key=lambda r:-r[0])
import sys
res=[r for r in res if len(r[3])==int(sys.argv[1])] if len(sys.argv)>1 else res
for r in res[:12]: print(r[0], r[1], r[2], ' '.join(f'{f}{p}' for f,p in r[3]))
if os.environ.get('COMBO'):
    combo=[(f,int(p)) for f,p in (c.split(':') for c in os.environ['COMBO'].split(','))]
    a,_=score(combo,200); b,_=score(combo,400); print(combo,a,b,a+b)

#!/usr/bin/env python3
"""Medians (ranges) of a device call's whole runs by variant and cell, with EvoGP's pipeline from
the same call and the ratio EvoGP / glevo, and each run's best error (the runs must match):
    python3 summary.py DIR VARIANT[,VARIANT...]   (DIR holds glevo.jsonl, evogp.jsonl)"""
import json,statistics as st,collections,sys
dirp=sys.argv[1]; variants=sys.argv[2].split(',')
g=collections.defaultdict(list)
for l in open(dirp+'/glevo.jsonl'):
    if not l.startswith('{'): continue
    d=json.loads(l)
    if d['run'] is None: print('null',d['variant'],d['pop'],d['cases'],d['seed']); continue
    g[(d['variant'],d['pop'],d['cases'])].append((d['run']['seconds'],d['run']['best_fitness'],d['seed'],d['wall']))
e=collections.defaultdict(list)
try:
  for l in open(dirp+'/evogp.jsonl'):
    if l.startswith('{'):
        d=json.loads(l); e[(d['pop'],d['cases'])].append(d['seconds'])
except FileNotFoundError: pass
for c in [(1000,100),(10000,1000),(10000,10000),(100000,1000)]:
    ev=st.median(e[c]) if e[c] else float('nan')
    line=f"{c}: evogp {ev:.3f} ({min(e[c],default=0):.3f}-{max(e[c],default=0):.3f}) "
    for v in variants:
        r=g[(v,)+c]
        if not r: continue
        s=st.median([x[0] for x in r])
        line+=f"| {v} {s:.3f} ({min(x[0] for x in r):.3f}-{max(x[0] for x in r):.3f}) {ev/s:.2f}x "
    print(line)
    for v in variants:
        if g[(v,)+c]: print('   ',v,[f"{x[1]:.3g}" for x in g[(v,)+c]])
for k in g:
    if k[0].startswith('cold'): print(k,[(round(x[0],3),round(x[3],3)) for x in g[k]])

#!/usr/bin/env bash
# Every scan of this directory, as run (the VM, 2026-11-28). The prototype switches (GLEVO_*
# below but GLEVO itself) were in builds that are not kept: each copied build/glevo of the
# commit named, with the switch added; only `final_*` ran the built change as it landed.
cd "$(dirname "$0")/../../.." || exit 1
. scripts/srbench/scan.sh

# Restarts: the prototype of 426f4ad's rule behind GLEVO_RESTART=R (the same runs: checked on
# seeds 201-202; GLEVO_RESTART_ALL=1: the main search too).
GLEVO=/tmp/rs/glevo SCAN_OUT=/tmp/rs
scan r10_s200 nguyen 200 20 GLEVO_RESTART=10
scan r20_s200 nguyen 200 20 GLEVO_RESTART=20
scan r5_s200 nguyen 200 20 GLEVO_RESTART=5
scan r10_s400 nguyen 400 20 GLEVO_RESTART=10
scan r10_fr200 friedman1 200 20 GLEVO_RESTART=10
scan r10all_s200 nguyen 200 20 GLEVO_RESTART=10 GLEVO_RESTART_ALL=1

# The built change (426f4ad), other seeds.
GLEVO=/tmp/fin/glevo SCAN_OUT=/tmp/fin
scan nguyen_s300 nguyen 300 30
scan nguyen_s500 nguyen 500 30
scan friedman1_s300 friedman1 300 30
scan keijzer_s200 keijzer 200 30

# Tried on top of it (426f4ad with the switch): exp or pow in a helper's family (GLEVO_FAMILY_EXP,
# GLEVO_FAMILY_POW: the helpers' numbers, 1 the second search), pow in the set, the helpers'
# tournament (GLEVO_HT), restarts keeping the best aside (GLEVO_HOF), relative improvement
# (GLEVO_RS_REL). Each ran with its own build copy in its own directory; the rows are in pow/,
# helper_tournament/, restart_hof_s200/, restart_rel3_s200/.
FS='+,-,*,/,neg,sin,cos,exp,log,sqrt,pow'
GLEVO=/tmp/pw/glevo SCAN_OUT=/tmp/pw
scan p1_s200 nguyen 200 20 GLEVO_FAMILY_POW=1
scan q0_s200 nguyen 200 20 -- --function-set "$FS"
scan q1_s200 nguyen 200 20 GLEVO_FAMILY_POW=1 -- --function-set "$FS"
scan q0_fr200 friedman1 200 20 -- --function-set "$FS"
scan e1_s200 nguyen 200 20 GLEVO_FAMILY_EXP=1
scan e3_s200 nguyen 200 20 GLEVO_FAMILY_EXP=3
GLEVO=/tmp/ht/glevo SCAN_OUT=/tmp/ht
scan t3_s200 nguyen 200 20 GLEVO_HT=3
scan t4_s200 nguyen 200 20 GLEVO_HT=4
scan t3_s400 nguyen 400 20 GLEVO_HT=3
GLEVO=/tmp/hof/glevo SCAN_OUT=/tmp/hof
scan h_s200 nguyen 200 20 GLEVO_HOF=1
GLEVO=/tmp/rel/glevo SCAN_OUT=/tmp/rel
scan rel3_s200 nguyen 200 20 GLEVO_RS_REL=1e-3

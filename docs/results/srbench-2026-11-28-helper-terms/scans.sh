# The srbench scans of 2026-11-28's helper terms, as run, with scripts/srbench/scan.sh:
#   GLEVO=... SCAN_OUT=... . scripts/srbench/scan.sh
# Prototypes: GLEVO was a build of 68bf9f3's parent with switches in gp_portfolio_search (not
# kept): GLEVO_PROTO_HELPER_LS=MASK (linear scaling in the searches beside the main one whose
# bit is set: bit 0 the second), GLEVO_PROTO_HELPER_ONE=P (the constant 1 for a share P of
# their terminals) in the searches of GLEVO_PROTO_HELPER_ONE_MASK (all without it). The
# built change (cb30e7f) gives ls0_one23's runs (checked run for run on Nguyen-5, -7, -9).
# (hls, one25 and one10 ran an earlier build of the switches: LS set = every search, as 15)
scan hls_s200 nguyen 200 20 GLEVO_PROTO_HELPER_LS=15
scan one25_s200 nguyen 200 20 GLEVO_PROTO_HELPER_ONE=0.25
scan one10_s200 nguyen 200 20 GLEVO_PROTO_HELPER_ONE=0.1
scan lstrig_s200 nguyen 200 20 GLEVO_PROTO_HELPER_LS=2
scan lstrig_one_s200 nguyen 200 20 GLEVO_PROTO_HELPER_LS=2 GLEVO_PROTO_HELPER_ONE=0.25 GLEVO_PROTO_HELPER_ONE_MASK=13
scan lstrig_one_s400 nguyen 400 20 GLEVO_PROTO_HELPER_LS=2 GLEVO_PROTO_HELPER_ONE=0.25 GLEVO_PROTO_HELPER_ONE_MASK=13
scan ls0_one23_s200 nguyen 200 20 GLEVO_PROTO_HELPER_LS=1 GLEVO_PROTO_HELPER_ONE=0.25 GLEVO_PROTO_HELPER_ONE_MASK=12
scan ls0_one23_s400 nguyen 400 20 GLEVO_PROTO_HELPER_LS=1 GLEVO_PROTO_HELPER_ONE=0.25 GLEVO_PROTO_HELPER_ONE_MASK=12
# The built change (cb30e7f), GLEVO its build:
scan final_nguyen_s300 nguyen 300 30
scan final_nguyen_s500 nguyen 500 30
scan final_friedman1_s300 friedman1 300 30
scan final_keijzer_s200 keijzer 200 30

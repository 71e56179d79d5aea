# The srbench scans of 2026-11-28's enumeration of short programs, as run, with scripts/srbench/scan.sh:
#   GLEVO=... SCAN_OUT=... . scripts/srbench/scan.sh
# Prototypes (not kept): GLEVO_PROTO_ENUM=N enumerated N candidates in a build made before
# a0ed54b, its enumeration called from the first generation by the switch (the best 16
# seeded, whatever their error); GLEVO_PROTO_SEEDS=K seeded the best K instead (a build
# between a0ed54b and 0909da8: 3 x 10^5 candidates by default, computed on the run's threads).
scan enum300k_s200 nguyen 200 20 GLEVO_PROTO_ENUM=300000
scan enum300k_s400 nguyen 400 20 GLEVO_PROTO_ENUM=300000
scan enum300k_fried_s300 friedman1 300 30 GLEVO_PROTO_ENUM=300000
scan enum50k_s200 nguyen 200 20 GLEVO_PROTO_ENUM=50000
scan seeds1_fried_s300 friedman1 300 30 GLEVO_PROTO_SEEDS=1
scan seeds1_s200 nguyen 200 20 GLEVO_PROTO_SEEDS=1
scan seeds4_fried_s300 friedman1 300 30 GLEVO_PROTO_SEEDS=4
# 3a00dc6 (10^5 candidates, the best 16 seeded whatever their error; scanned as final_*,
# renamed b16_* when the rule changed):
scan b16_nguyen_s300 nguyen 300 30
scan b16_nguyen_s500 nguyen 500 30
scan b16_friedman1_s300 friedman1 300 30
# 6e4310c (the built rule: only the programs that fit the sampled cases to rounding seeded):
scan final_nguyen_s300 nguyen 300 30
scan final_nguyen_s500 nguyen 500 30
scan final_friedman1_s300 friedman1 300 30
scan final_keijzer_s200 keijzer 200 30

#!/bin/bash
cd /work/main
O=/tmp/sr28/sr
mkdir -p $O
sr() { local name=$1 suites=$2 base=$3; shift 3
  /usr/bin/python3 scripts/srbench/run.py --glevo /tmp/sr28/glevo --suite $suites --seeds 30 --seed $base --data-seed $base \
    --jobs 2 --timeout 600 --label $name --out $O/$name -- --backend cpu --threads 1 "$@" > $O/$name.log 2>&1
  rm -rf $O/$name/data
  echo "$name $(grep '\*\*all' $O/$name/summary.md)" >> /tmp/sr28/results.txt
}
sr nguyen_portfolio_s300 nguyen 300
sr nguyen_portfolio_s500 nguyen 500
sr friedman1_portfolio_s300 friedman1 300
sr keijzer_portfolio_s200 keijzer 200
#!/bin/bash
cd /work/main
O=/tmp/sr28/sr
rm -rf $O/keijzer_portfolio_s200
/usr/bin/python3 scripts/srbench/run.py --glevo /tmp/sr28/glevo --suite keijzer --seeds 30 --seed 200 --data-seed 200 \
    --jobs 2 --timeout 600 --label keijzer_portfolio_s200 --out $O/keijzer_portfolio_s200 -- --backend cpu --threads 1 > $O/keijzer_portfolio_s200.log 2>&1
rm -rf $O/keijzer_portfolio_s200/data
echo "keijzer $(grep '\*\*all' $O/keijzer_portfolio_s200/summary.md)" >> /tmp/sr28/results.txt

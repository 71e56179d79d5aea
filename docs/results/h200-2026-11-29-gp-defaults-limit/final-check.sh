g=.prof/glevo; mkdir -p $OUT/d
python3 scripts/device/gp_sr_data.py $OUT/d 100 1000 10000 > /dev/null
for t in .prof/tests/test_*; do GLEVO_TEST_DATA=$PWD/data GLEVO_CLI=$g $t > $OUT/t.txt 2>&1; echo "$(basename $t) rc=$? $(tail -1 $OUT/t.txt)"; done
for c in 1000:100 10000:1000 10000:10000 100000:1000; do pop=${c%:*}; cases=${c#*:}
  $g gp --data $OUT/d/sr_$cases.csv --pop $pop --generations 50 --max-size 64 --quiet --backend compute > /dev/null 2>&1
  for s in 1 2 3; do
    echo "$c seed $s $($g gp --data $OUT/d/sr_$cases.csv --pop $pop --generations 50 --max-size 64 --seed $s --quiet --json --backend compute | grep -o '"best_fitness":[-0-9.e]*\|"seconds":[0-9.]*' | tr '\n' ' ')"
  done
done
rm -rf $OUT/d

set -u
g=.prof/glevo; mkdir -p $OUT/d $OUT/p
python3 scripts/device/gp_sr_data.py $OUT/d 100 1000 > /dev/null
# compile once (both variants), then measure warm
for v in default inline; do
  e=X=1; [ $v = inline ] && e=GLEVO_SHADER_DIR=$PWD/.prof/sh-inline
  t0=$(date +%s.%N); env $e $g gp --data $OUT/d/sr_100.csv --pop 1000 --generations 2 --quiet --backend compute > /dev/null 2>&1; echo "$v first $(awk "BEGIN{print $(date +%s.%N) - $t0}")"
  mkdir -p $OUT/p-$v; env $e GLEVO_DUMP_PROGRAMS=$OUT/p-$v $g gp --data $OUT/d/sr_100.csv --pop 1000 --generations 1 --quiet --backend compute > /dev/null 2>&1
done

for c in 1000:100 10000:1000 100000:1000; do pop=${c%:*}; cases=${c#*:}
 for v in default inline default inline; do
  e=X=1; [ $v = inline ] && e=GLEVO_SHADER_DIR=$PWD/.prof/sh-inline
  r=$(env $e $g gp --data $OUT/d/sr_$cases.csv --pop $pop --generations 50 --max-size 64 --quiet --json --profile --backend compute 2>$OUT/err.txt | grep -o '"best_fitness":[-0-9.e]*\|"seconds":[0-9.]*' | tr '\n' ' ')
  echo "$c $v $r $(grep const_fit $OUT/err.txt)"
 done; done
for f in $OUT/p-*/gp.const_fit*.bin; do echo "$f: $(strings $f | grep -i -E 'lmem|SHARED_MEMORY' | head -3 | tr '\n' ' ')"; done
rm -rf $OUT/d $OUT/p-*

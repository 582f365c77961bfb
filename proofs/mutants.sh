#!/bin/bash
# make check-proof-mutants: the proofs must have teeth.
#
# Each mutant is one deliberate bug applied (with sed) to a copy of the
# tree under $BUILD/mutants/<name>/.  A mutant is *caught* when
#   - proofs/run.sh reports at least one unproved goal for its module, and
#   - the unit tests built from the mutated sources fail.
# Unchanged goals replay from the committed cache, so only the goals the
# bug touches reach the provers (timeout ${WP_TIMEOUT:-10} s).  Prints one
# TAP line per mutant and exits non-zero if any mutant survives.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
root=$PWD
out=$root/$BUILD/mutants
rm -rf "$out"
mkdir -p "$out"

# name | module | file | sed expression | what it breaks
mutants=(
"off-by-one-ack|seq|ref/proto/nc_seq.c|s/if (d >= t->count)/if (d > t->count)/|go-back-N accepts an ACK one past the last packet sent"
"flipped-seq-lt|seq|ref/proto/nc_seq.c|s/return d != 0u \&\& d < 0x80000000u;/return d != 0u \&\& d > 0x80000000u;/|sequence comparison points the wrong way"
"wrong-bit-index|barrec|ref/proto/nc_barrec.c|s/case 3u: return 8u;/case 3u: return 16u;/|port 3's barrier bit lands on port 4"
"missing-clear|barrec|ref/proto/nc_barrec.c|/r->unexpected\[node\] = (uint8_t)(r->unexpected\[node\] - mask_of(port));/d|test-and-clear forgets to clear"
"flipped-min|mcack|ref/proto/nc_mcack.c|s/if (t->acked\[i\] < m)/if (t->acked[i] > m)/|multicast window slides by the max, not the min, ack"
"ack-what-it-took|mcgroup|ref/proto/nc_mcgroup.c|s/held = prev_seq(g->mc.base);/held = prev_seq(g->expect);/|an inner member acknowledges up what it took, not what its whole subtree holds"
"off-by-one-N|kbin|ref/tree/nc_kbin.c|s/for (i = 1u; i <= k; i++)/for (i = 1u; i < k; i++)/|N(s,k) sums k-1 subtrees"
"order-check-repeats|order|ref/tree/nc_order.c|s/if (order\[i\] == order\[j\])/if (order[i] == order[j] \&\& j > n)/|the ordering check accepts a member twice"
"concurrent-any-step|contention|ref/tree/nc_contention.c|s/return d % dr == 0u \&\& d \/ dr < m;/return d \/ dr < m;/|edges whose steps differ by less than m lags count as concurrent, multiple of the lag or not"
"off-by-one-fifo|pool|ref/proto/nc_pool.c|s/return s < NC_TOKQ_CAP ? s : s - NC_TOKQ_CAP;/return s <= NC_TOKQ_CAP ? s : s - NC_TOKQ_CAP;/|token ring wraps one slot late"
)

n=0 fail=0
for line in "${mutants[@]}"; do
    IFS='|' read -r name mod file expr what <<< "$line"
    n=$((n + 1))
    dir=$out/$name
    mkdir -p "$dir"
    cp -r ref proofs "$dir/"
    mkdir -p "$dir/tests/unit" && cp -r tests/unit/ref "$dir/tests/unit/"
    sed -i "$expr" "$dir/$file"
    if cmp -s "$file" "$dir/$file"; then
        echo "not ok $n - mutant $name: the sed expression did not change $file"
        fail=1; continue
    fi
    # Proofs: expect at least one unproved goal.
    ( cd "$dir" && BUILD=build WP_TIMEOUT=${WP_TIMEOUT:-10} bash proofs/run.sh "$mod" ) \
        > "$dir/proofs.txt" 2>&1
    prc=$?
    goals=$(awk -v m="$mod" '$1 == m { print $3 "/" $2 }' "$dir/proofs.txt")
    # Tests: expect a failure.
    inc="-I$dir/ref/include -I$dir/ref/proto -I$dir/ref/tree"
    if [ "${file#ref/proto}" != "$file" ]; then t=test_proto; srcs="$dir/ref/proto/"*.c
    else t=test_tree; srcs="$dir/ref/tree/"*.c; fi
    # shellcheck disable=SC2086
    if ! gcc -std=c99 -O2 $inc "$dir/tests/unit/ref/$t.c" $srcs -lcmocka -o "$dir/$t" \
            > "$dir/build.txt" 2>&1; then
        echo "not ok $n - mutant $name: unit tests did not build (see $dir/build.txt)"
        fail=1; continue
    fi
    CMOCKA_MESSAGE_OUTPUT=TAP timeout 300 "$dir/$t" > "$dir/tests.txt" 2>&1
    trc=$?
    tfails=$(grep -c '^not ok [0-9]' "$dir/tests.txt")
    if [ $prc -ne 0 ] && [ $trc -ne 0 ]; then
        echo "ok $n - mutant $name ($what): caught by proofs ($goals goals proved in $mod) and by $tfails failing test(s)"
    else
        echo "not ok $n - mutant $name ($what): proofs $([ $prc -ne 0 ] && echo caught || echo MISSED) ($goals), tests $([ $trc -ne 0 ] && echo caught || echo MISSED)"
        fail=1
    fi
done
echo "1..$n"
exit $fail

#!/bin/bash
# Developer check for the conformance programs (not the suite driver):
#  1. builds each program natively with gcc (UBSan+ASan) and with gcc/clang at
#     -O0..-O3/-Os and checks that every build prints the same thing and exits
#     with the same status;
#  2. compiles each program for LANai at every suite optimisation level and
#     lists the undefined symbols (the libcalls the runtime must provide).
# Usage: tests/isa/progs/check_native.sh [prog.c ...]   (run from the repo root)
set -u
cd "$(dirname "$0")/../../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
progs=("$@")
[ ${#progs[@]} -eq 0 ] && progs=(tests/isa/progs/[0-9]*.c)
fail=0
: > "$tmp/undef"
for p in "${progs[@]}"; do
    n=$(basename "$p" .c)
    ref=""
    refrc=""
    for cfg in "gcc -O2 -fsanitize=undefined,address -fno-sanitize-recover=all" \
               "gcc -O0" "gcc -O1" "gcc -O3" "gcc -Os" \
               "clang -O0" "clang -O1" "clang -O2" "clang -O3" "clang -Oz" \
               "clang -O2 -fsanitize=undefined,integer -fno-sanitize=unsigned-integer-overflow,unsigned-shift-base,implicit-conversion -fno-sanitize-recover=all"; do
        if ! $cfg -std=gnu11 -Wall -Wextra -Werror -I. tests/isa/native_shim.c "$p" -o "$tmp/a" 2>"$tmp/err"; then
            echo "FAIL $n: build '$cfg'"; cat "$tmp/err"; fail=1; continue
        fi
        "$tmp/a" > "$tmp/out" 2>"$tmp/err"; rc=$?
        if [ -s "$tmp/err" ]; then echo "FAIL $n: stderr under '$cfg'"; head -5 "$tmp/err"; fail=1; fi
        if [ -z "$ref" ]; then cp "$tmp/out" "$tmp/ref"; ref=1; refrc=$rc
        elif ! cmp -s "$tmp/out" "$tmp/ref" || [ "$rc" != "$refrc" ]; then
            echo "FAIL $n: '$cfg' differs (rc $rc vs $refrc)"; diff "$tmp/ref" "$tmp/out" | head -5; fail=1
        fi
    done
    for o in -O0 -O1 -O2 -O3 -Os -Oz "-O2 -mcmodel=small"; do
        if ! clang --target=lanai -ffreestanding $o -Wall -Wextra -Werror -I. -c "$p" -o "$tmp/l.o" 2>"$tmp/err"; then
            echo "FAIL $n: lanai build $o"; cat "$tmp/err"; fail=1; continue
        fi
        llvm-nm -u "$tmp/l.o" | awk -v n="$n" -v o="$o" '{print $2, n, o}' >> "$tmp/undef"
    done
    echo "$n: $(tail -1 "$tmp/ref") rc=$refrc lines=$(wc -l < "$tmp/ref")"
done
echo "--- undefined symbols on LANai (symbol: programs)"
awk '{s[$1]=s[$1] " " $2} END {for (k in s) print k ":" s[k]}' "$tmp/undef" |
    awk '{printf "%s", $1; delete seen; for (i=2;i<=NF;i++) if (!seen[$i]++) printf " %s", $i; print ""}' | sort
exit $fail

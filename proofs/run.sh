#!/bin/bash
# Prove the ref/ cores with Frama-C/WP (+RTE) and print one table row per
# module: module, goals, proved, seconds, cache hits.
#
#   proofs/run.sh [--cache MODE] [--tap] [--timeout S] [--par N] [--jobs J] [module...]
#
# MODE is WP's cache mode (default: replay):
#   replay   use proofs/cache/ where it has the goal, run the provers otherwise
#            and do not write the cache (what `make proofs` and CI use)
#   offline  use the cache only, never run a prover (a goal missing from the
#            cache stays unproved: checks that the committed cache is complete)
#   rebuild  run every prover again and rewrite the cache (`make proofs-refresh`)
#   none     ignore the cache (timing a proof from scratch)
# --report rewrites the proof reports beside the code (ref/*/PROOF-REPORT.md).
# --tap prints TAP (one "ok N - proofs: <module> ..." line per module) instead
# of the table, for tests/run.  --jobs J runs J modules at once (default: 2
# when replaying, when nearly every goal is a cache look-up and one WP run
# is mostly Frama-C's own single-threaded work; 1 when the provers run, so
# that a timeout means the same on a loaded machine).  The output is in
# module order whatever finishes first.  The exit status is non-zero if any
# goal of any module is unproved.  Logs go to $BUILD/proofs/<module>.log.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
out=$BUILD/proofs
mkdir -p "$out"

cache=replay tap=0 report=0 timeout=${WP_TIMEOUT:-20} par=${WP_PAR:-} jobs=${WP_JOBS:-}
mods=()
while [ $# -gt 0 ]; do
    case $1 in
        --cache) cache=$2; shift 2 ;;
        --tap) tap=1; shift ;;
        --report) report=1; shift ;;
        --timeout) timeout=$2; shift 2 ;;
        --par) par=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        -*) echo "proofs/run.sh: unknown option '$1'" >&2; exit 2 ;;
        *) mods+=("$1"); shift ;;
    esac
done

# The modules and the sources each one proves (proofs/modules.txt).
declare -A src
order=()
while read -r name files; do
    case $name in ''|\#*) continue ;; esac
    src[$name]=$files; order+=("$name")
done < proofs/modules.txt
[ ${#mods[@]} -eq 0 ] && mods=("${order[@]}")
for m in "${mods[@]}"; do
    [ -n "${src[$m]:-}" ] || { echo "proofs/run.sh: no module '$m' in proofs/modules.txt" >&2; exit 2; }
done

for tool in frama-c why3; do
    command -v $tool >/dev/null || {
        echo "proofs/run.sh: '$tool' not found; run 'make deps' (ci/packages/proofs.txt)" >&2; exit 2; }
done

# Why3 learns the provers from its own configuration.  Write it under build/
# so a fresh machine (or a user's ~/.why3.conf) cannot change the outcome.
export WHY3CONFIG=$PWD/$out/why3.conf
if [ ! -s "$WHY3CONFIG" ]; then
    why3 config detect >"$out/why3-detect.log" 2>&1 || {
        echo "proofs/run.sh: 'why3 config detect' failed, see $out/why3-detect.log" >&2; exit 2; }
fi

# Cache look-ups are scheduled like prover runs and mostly wait; with a
# complete cache many in parallel cost nothing.  Real prover runs share the
# machine's 2 cores, so keep them at 2 (timeouts then mean the same thing).
if [ -z "$par" ]; then
    case $cache in replay|offline) par=8 ;; *) par=2 ;; esac
fi
if [ -z "$jobs" ]; then
    case $cache in replay|offline) jobs=2 ;; *) jobs=1 ;; esac
fi
case $jobs in ''|*[!0-9]*|0) echo "proofs/run.sh: --jobs '$jobs' is not a positive number" >&2; exit 2 ;; esac

cachedir=$PWD/proofs/cache
mkdir -p "$cachedir"
fail=0 n=0
[ $tap -eq 0 ] && printf '%-10s %6s %7s %8s %6s\n' module goals proved seconds cached
tg=0 tp=0 ts=0
# One WP run: its log, exit status and seconds under $out.
prove() {
    local m=$1 start
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    frama-c -no-autoload-plugins -load-module wp,rtegen \
        -machdep x86_32 \
        -cpp-extra-args="-Iref/include -Iref/proto -Iref/tree -DNC_FRAMAC" \
        ${src[$m]} \
        -wp -wp-rte -wp-prover z3,cvc4 -wp-timeout "$timeout" -wp-par "$par" \
        -wp-cache "$cache" -wp-cache-dir "$cachedir" -wp-no-cache-env \
        -wp-session "$out/$m.session" \
        -warn-unsigned-overflow -warn-unsigned-downcast -warn-signed-downcast \
        >"$out/$m.log" 2>&1
    echo $? > "$out/$m.rc"
    echo "$(date +%s.%N) - $start" | bc > "$out/$m.seconds"
}
running=0
for m in "${mods[@]}"; do
    rm -f "$out/$m.rc"
    prove "$m" &
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
for m in "${mods[@]}"; do
    n=$((n + 1))
    log=$out/$m.log
    rc=$(cat "$out/$m.rc" 2>/dev/null || echo 1)
    secs=$(cat "$out/$m.seconds" 2>/dev/null || echo 0)
    line=$(grep 'Proved goals:' "$log" | tail -1)
    goals=$(echo "$line" | sed -n 's/.*Proved goals: *\([0-9]*\) *\/ *\([0-9]*\).*/\2/p')
    proved=$(echo "$line" | sed -n 's/.*Proved goals: *\([0-9]*\) *\/ *\([0-9]*\).*/\1/p')
    cached=$(grep -c 'Goal .*(cached)$' "$log")
    goals=${goals:-0} proved=${proved:-0}
    ok=1
    if [ $rc -ne 0 ] || [ "$goals" -eq 0 ] || [ "$proved" -ne "$goals" ] \
        || grep -q '\[kernel\].*[Ee]rror\|User Error' "$log"; then
        ok=0 fail=1
    fi
    tg=$((tg + goals)) tp=$((tp + proved)); ts=$(echo "$ts + $secs" | bc)
    if [ $tap -eq 1 ]; then
        if [ $ok -eq 1 ]; then
            echo "ok $n - proofs: $m: $proved/$goals goals proved"
        else
            echo "not ok $n - proofs: $m: $proved/$goals goals proved (see $log)"
            grep -A2 '\[Failed\]\|Timeout\|Unknown' "$log" | head -20 | sed 's/^/# /'
        fi
    else
        printf '%-10s %6d %7d %8.1f %6d%s\n' "$m" "$goals" "$proved" "$secs" "$cached" \
            "$([ $ok -eq 1 ] || echo "   <-- UNPROVED, see $log")"
    fi
done
if [ $report -eq 1 ]; then
    bash proofs/report.sh "$out" "${mods[@]}"
fi
if [ $tap -eq 1 ]; then
    echo "1..$n"
else
    printf '%-10s %6d %7d %8.1f\n' total "$tg" "$tp" "$ts"
fi
exit $fail

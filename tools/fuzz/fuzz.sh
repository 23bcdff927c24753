#!/usr/bin/env bash
# fuzz.sh -- runs the libFuzzer targets (tools/fuzz/build.sh builds them) and prints their figures.
#
#   tools/fuzz/fuzz.sh [--seconds N | --runs N] [TARGET...]
#
#   --seconds N   fuzz each target for N seconds (make fuzz: 600), growing its corpus in
#                 .build/fuzz/corpus/TARGET
#   --runs N      each target on exactly N inputs from its seeds, seed 1 (make test's short run)
#   TARGET        import-xml, import-csv, import-file, configuration, http-body, mqtt-payload,
#                 control-request (default: all seven)
#
# First every regression input (tools/fuzz/regressions/TARGET/, inputs that once crashed) is run
# once. Then each target fuzzes from its seeds: tools/fuzz/seeds/TARGET, the real exports in
# ../shared/data/apple-health when that folder is there, and the shipped configurations in
# device/. Per target it prints one line:
#   fuzz TARGET: runs=N seconds=S exec_per_s=E cov=C features=F corpus=K crashes=0
# A crash, a timeout (10 s on one input) or a leak of memory past 512 MB stops the target: its
# input is copied into tools/fuzz/regressions/TARGET/ (commit it with the fix) and the status is 1.
# A target that ran fewer inputs than asked (--runs), ran none, or reached no coverage fails too:
# a fuzzer that did not fuzz is not a pass.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=$ROOT/.build/fuzz
MODE=seconds
AMOUNT=600
TARGETS=()
while [ $# -gt 0 ]; do
	case "$1" in
	--seconds) MODE=seconds; AMOUNT=$2; shift 2 ;;
	--runs) MODE=runs; AMOUNT=$2; shift 2 ;;
	-h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) TARGETS+=("$1"); shift ;;
	esac
done
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(import-xml import-csv import-file configuration http-body mqtt-payload control-request)

"$HERE/build.sh" 2> >(grep -v "Cannot export local symbol" >&2)

export LSAN_OPTIONS="suppressions=$HERE/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
SHARED=$ROOT/../shared/data/apple-health
[ -d "$SHARED" ] || echo "fuzz: $SHARED is absent: fuzzing from the repository's seeds only" >&2
status=0
for target in "${TARGETS[@]}"; do
	binary=$OUT/bin/$target
	[ -x "$binary" ] || { echo "fuzz: no target $target" >&2; exit 2; }
	seeds=$OUT/seeds/$target
	rm -rf "$seeds"
	mkdir -p "$seeds" "$OUT/corpus/$target" "$OUT/artifacts/$target" "$OUT/logs"
	cp "$HERE/seeds/$target/"* "$seeds/"
	case "$target" in
	import-xml) [ -d "$SHARED" ] && cp "$SHARED"/*.xml "$seeds/" ;;
	import-csv) [ -d "$SHARED" ] && cp "$SHARED"/*.csv "$seeds/"; cp "$ROOT/Sources/Store/Resources/"*.csv "$seeds/" ;;
	import-file) [ -d "$SHARED" ] && cp "$SHARED"/*.xml "$SHARED"/*.csv "$seeds/" ;;
	configuration) cp "$ROOT/device/config.json" "$ROOT/device/config.example.json" "$seeds/" ;;
	esac
	dict=()
	case "$target" in import-xml | import-file) dict=(-dict="$HERE/xml.dict") ;; esac
	common=(-max_len=65536 -rss_limit_mb=512 -timeout=10 -artifact_prefix="$OUT/artifacts/$target/" "${dict[@]}")

	regressions=("$HERE/regressions/$target/"*)
	if [ -e "${regressions[0]}" ]; then
		if ! "$binary" "${common[@]}" "${regressions[@]}" >"$OUT/logs/$target-regressions.log" 2>&1; then
			echo "fuzz $target: a regression input fails again (see $OUT/logs/$target-regressions.log)"
			status=1
			continue
		fi
	fi

	log=$OUT/logs/$target.log
	rm -f "$OUT/artifacts/$target/"*
	if [ "$MODE" = runs ]; then
		run=(-runs="$AMOUNT" -seed=1 "$OUT/corpus/$target.smoke" "$seeds")
		rm -rf "$OUT/corpus/$target.smoke"
		mkdir -p "$OUT/corpus/$target.smoke"
	else
		run=(-max_total_time="$AMOUNT" "$OUT/corpus/$target" "$seeds")
	fi
	started=$(date +%s)
	rc=0
	"$binary" "${common[@]}" "${run[@]}" >"$log" 2>&1 || rc=$?
	seconds=$(($(date +%s) - started))
	last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
	runs=$(echo "$last" | sed -nE 's/^#([0-9]+).*/\1/p')
	cov=$(echo "$last" | sed -nE 's/.* cov: ([0-9]+).*/\1/p')
	ft=$(echo "$last" | sed -nE 's/.* ft: ([0-9]+).*/\1/p')
	corp=$(echo "$last" | sed -nE 's/.* corp: ([0-9]+).*/\1/p')
	rate=$(grep -oE 'exec/s: [0-9]+' "$log" | tail -1 | sed 's/exec\/s: //' || true)
	crashes=$(find "$OUT/artifacts/$target" -type f | wc -l)
	echo "fuzz $target: runs=${runs:-0} seconds=$seconds exec_per_s=${rate:-0} cov=${cov:-0} features=${ft:-0} corpus=${corp:-0} crashes=$crashes"
	short=""
	if [ "${runs:-0}" -eq 0 ]; then short="it ran no input"
	elif [ "$MODE" = runs ] && [ "$runs" -lt "$AMOUNT" ]; then short="it ran $runs inputs of the $AMOUNT asked"
	elif [ "${cov:-0}" -eq 0 ]; then short="it reached no coverage (is the target instrumented?)"
	fi
	if [ -n "$short" ]; then
		echo "fuzz $target: failed: $short (the whole log is $log)"
		status=1
	fi
	if [ "$rc" -ne 0 ] || [ "$crashes" -gt 0 ]; then
		mkdir -p "$HERE/regressions/$target"
		for artifact in "$OUT/artifacts/$target/"*; do
			[ -e "$artifact" ] || continue
			cp "$artifact" "$HERE/regressions/$target/"
			echo "fuzz $target: $(basename "$artifact") kept as tools/fuzz/regressions/$target/$(basename "$artifact")"
		done
		grep -E 'ERROR: |SUMMARY: |Fatal error|==[0-9]+==' "$log" | head -5 | sed "s/^/fuzz $target: /"
		echo "fuzz $target: the whole log is $log"
		status=1
	fi
done
exit $status

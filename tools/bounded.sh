#!/usr/bin/env bash
# bounded.sh SECONDS COMMAND [ARGS...] -- runs COMMAND in a session of its own and ends the whole
# session (the command and everything it started, whatever process groups they made) when it
# runs past SECONDS: make test's backstop for a test blocked where no wait of its own is bounded
# (swift-testing records a time limit for such a test but cannot stop it, and `timeout` alone
# leaves the test bundle, which runs in a process group of its own). Says what was still running,
# then exits 124 (as timeout(1) does); otherwise exits with the command's status.
set -uo pipefail
[ $# -ge 2 ] || {
	echo "usage: tools/bounded.sh SECONDS COMMAND [ARGS...]" >&2
	exit 64
}
LIMIT=$1
shift
case "$LIMIT" in '' | *[!0-9]*) echo "bounded.sh: $LIMIT is not a number of seconds" >&2; exit 64 ;; esac

setsid "$@" &
pid=$!
# setsid(1) forks when it is a process group leader (not here: a script's background job is in the
# script's group); the session is found by the session id of what runs under that pid.
session() {
	local sid
	sid=$(ps -o sid= -p "$pid" 2>/dev/null | tr -d ' ')
	echo "${sid:-$pid}"
}
# Interrupted (Ctrl-C on make test, or the run stopped): the session goes too, not left orphaned.
trap 'sid=$(session); pkill -TERM -s "$sid" 2>/dev/null; sleep 2; pkill -KILL -s "$sid" 2>/dev/null; exit 130' INT TERM HUP
end=$(($(date +%s) + LIMIT))
while kill -0 "$pid" 2>/dev/null; do
	if [ "$(date +%s)" -ge "$end" ]; then
		sid=$(session)
		echo "bounded.sh: '$*' ran past ${LIMIT} s; still running, now killed:" >&2
		ps -o pid=,etimes=,args= -s "$sid" 2>/dev/null | sed 's/^/  /' | cut -c1-200 >&2
		pkill -TERM -s "$sid" 2>/dev/null
		sleep 5
		pkill -KILL -s "$sid" 2>/dev/null
		wait "$pid" 2>/dev/null
		exit 124
	fi
	sleep 2
done
wait "$pid"

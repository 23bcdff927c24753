# guest-lib.sh -- helpers for the end-to-end steps that run inside the VM (busybox sh).
# Sourced by the steps script Tests/VMTests generates; every result is a "STEP ..." line on
# the console log, which the host test reads. The host answers "waiting" steps over the
# control port (ttyS2) once it has taken its screendump.

G=/app/glance
exec 3<>/dev/ttyS2
stty -F /dev/ttyS2 raw -echo 2>/dev/null

step() { echo "STEP $*"; }

# an unprivileged user (uid/gid 1000, not in group video) for the permission test
grep -q '^app:' /etc/passwd 2>/dev/null || {
	echo 'root:x:0:0::/tmp:/bin/sh' >/etc/passwd
	echo 'app:x:1000:1000::/tmp:/bin/sh' >>/etc/passwd
	printf 'root:x:0:\napp:x:1000:\n' >/etc/group
}

# wait_host NAME: say we are waiting, then block until the host sends a line
wait_host() {
	step "$1 waiting"
	read -r _ <&3
}

# console_text: known text on the console (tty1), so "the console came back" is visible
console_text() {
	printf '\033[2J\033[H\n  GLANCE VM CONSOLE\n\n  This text is the console before the app.\n' >/dev/tty1
	sleep 0.3
}

# expect NAME COMMAND...: run it, print its output prefixed with [NAME], then "STEP NAME rc=N"
expect() {
	local name=$1 rc
	shift
	"$@" >/tmp/"$name".log 2>&1
	rc=$?
	sed "s/^/[$name] /" /tmp/"$name".log
	step "$name rc=$rc"
}

# wait_log FILE TEXT: until a line of FILE contains TEXT (at most 20 s)
wait_log() {
	local i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 400 ] && return 1
		sleep 0.05
	done
}

# show NAME ARGS...: `glance run ARGS` until the first frame is on screen (and, with
# SHOW_UNTIL set, until a log line matching it), let the host look (NAME shown waiting),
# optionally run SHOW_ALSO meanwhile, then send it SHOW_SIGNAL (default TERM), report its
# exit code and let the host look again (NAME exited rc=N waiting). With SHOW_STDIN set the
# app's standard input is that file (a VT such as /dev/tty1), else /dev/null as for any
# command in the background: then the app uses the VT in front through /dev/tty0.
show() {
	local name=$1 log pid until i lines rc
	shift
	log=/tmp/"$name".log
	if [ -n "$SHOW_STDIN" ]; then
		$G run --report-startup "$@" <"$SHOW_STDIN" >"$log" 2>&1 &
	else
		$G run --report-startup "$@" >"$log" 2>&1 &
	fi
	pid=$!
	until=${SHOW_UNTIL:-first frame on screen}
	i=0
	while ! grep -q "$until" "$log" 2>/dev/null; do
		kill -0 $pid 2>/dev/null || break
		i=$((i + 1))
		[ $i -gt 400 ] && break # 20 s
		sleep 0.05
	done
	sleep 0.2 # let a deferred flush (virtio-gpu) reach the host
	sed "s/^/[$name] /" "$log"
	lines=$(wc -l <"$log")
	[ -n "$SHOW_ALSO" ] && eval "$SHOW_ALSO"
	# Keep the card open past the app's exit: then the kernel's own console restore (which
	# runs when the last descriptor closes) cannot hide a missing restore by the app.
	exec 4<>/dev/dri/card0
	wait_host "$name shown"
	kill -"${SHOW_SIGNAL:-TERM}" $pid 2>/dev/null
	wait $pid
	rc=$?
	sleep 0.3 # the console redraws itself after KD_TEXT (the host waits more if needed)
	sed -n "$((lines + 1)),\$p" "$log" | sed "s/^/[$name] /"
	wait_host "$name exited rc=$rc"
	exec 4>&-
}

# cpu_ms PID: the process's CPU time so far (user + system), in milliseconds
cpu_ms() {
	local f ticks
	f=$(sed 's/^.*) //' /proc/"$1"/stat)
	# after the command name: field 14 utime and 15 stime are words 12 and 13
	ticks=$(echo "$f" | awk '{ print $12 + $13 }')
	echo $((ticks * 1000 / $(getconf CLK_TCK 2>/dev/null || echo 100)))
}

# interact NAME ARGS...: `glance run ARGS`, its log on the console as it comes ("[NAME] ..."),
# then "STEP NAME ready" once the first frame is up; afterwards it obeys the host, one line at
# a time on the control port:
#   stop            SIGTERM, then "STEP NAME exited rc=N"
#   idle SECONDS    "STEP NAME idle cpu_ms=N" after that many seconds without input
#   sh COMMAND      run it (its output on the console), then "STEP NAME sh done rc=N"
interact() {
	local name=$1 pid tailer cmd arg before rc
	shift
	: >/tmp/"$name".log
	tail -f /tmp/"$name".log | while IFS= read -r line; do echo "[$name] $line"; done &
	tailer=$!
	$G run "$@" >>/tmp/"$name".log 2>&1 &
	pid=$!
	i=0
	while ! grep -q "first frame on screen" /tmp/"$name".log; do
		kill -0 $pid 2>/dev/null || break
		i=$((i + 1)); [ $i -gt 600 ] && break
		sleep 0.05
	done
	sleep 0.2
	step "$name ready"
	while read -r cmd arg <&3; do
		case "$cmd" in
		stop)
			kill -TERM $pid; wait $pid; rc=$?
			# busybox tail -f looks for new lines once a second: let it show the last ones
			sleep 1.2; kill $tailer 2>/dev/null
			step "$name exited rc=$rc"
			return
			;;
		idle)
			before=$(cpu_ms $pid); sleep "$arg"
			step "$name idle cpu_ms=$(( $(cpu_ms $pid) - before )) over ${arg}s"
			;;
		sh)
			sh -c "$arg"; rc=$?
			step "$name sh done rc=$rc"
			;;
		esac
	done
}

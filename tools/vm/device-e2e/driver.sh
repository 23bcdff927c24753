#!/bin/bash
# driver.sh -- the guest side of the boot test (Tests/VMTests/DeviceBootTests.swift): runs as
# a service of its own in the booted Debian image beside glance.service, watches the unit
# through systemctl, hurts the app (SIGSEGV, SIGABRT, SIGKILL, a hang for the watchdog, then
# crashes until systemd gives up), lets the host feed it through glance serve and a user of
# group glance feed it with glance metric, sends Home Assistant's screen select through the
# guest's broker and glance mqtt, sets the clock to just before a window of the schedule that
# turns the panel off, lists the libraries glance run has mapped, and lets the host take a
# screendump at each stage. Every result is a "STEP ..." line on ttyS1 (console.log); the host
# answers "waiting" steps on ttyS2.
# The harness's lines: ttyS1 and ttyS2, or on an arm64 guest (one UART, the kernel's) the virtio
# consoles hvc0 and hvc1 (tools/vm/run-in-vm.sh --arch arm64).
OUT_TTY=/dev/ttyS1 CTL_TTY=/dev/ttyS2
if [ "$(uname -m)" = aarch64 ]; then OUT_TTY=/dev/hvc0 CTL_TTY=/dev/hvc1; fi
exec >$OUT_TTY 2>&1
exec 3<>$CTL_TTY
stty -F $OUT_TTY -onlcr 2>/dev/null
stty -F $CTL_TTY raw -echo 2>/dev/null
# The short run (/etc/glance-vmtest/mode "short", the arm64 boot): the first frame, a key, then
# SIGTERM (systemctl stop) and the console back.
MODE=$(cat /etc/glance-vmtest/mode 2>/dev/null || echo full)

step() { echo "STEP $*"; }
wait_host() { step "$1 waiting"; read -r _ <&3; }
prop() { systemctl show glance.service -p "$1" --value; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
finish() {
	step "end uptime=$(uptime_s)"
	echo "RUN-IN-VM: program-exit rc=$1 uptime=$(uptime_s)"
	sync
	systemctl poweroff --force --force
}
# wait_active OLDPID: the pid of glance once it is active (READY=1 received) with a main
# process other than OLDPID; fails after 90 s or when the unit has failed.
wait_active() {
	local i=0 pid
	while [ $i -lt 900 ]; do
		pid=$(prop MainPID)
		if [ "$(systemctl is-active glance.service)" = active ] && [ "$pid" != 0 ] && [ "$pid" != "$1" ]; then
			echo "$pid"
			return 0
		fi
		systemctl is-failed -q glance.service && return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# wait_gone PID: until the process has ended and been reaped
wait_gone() { while kill -0 "$1" 2>/dev/null; do sleep 0.02; done; }
describe() { # PID: what the app runs as, and its memory
	echo "user=$(ps -o user= -p "$1") groups=$(ps -o supgrp= -p "$1" | tr -d ' ')" \
		"$(grep -E '^(VmRSS|VmHWM)' /proc/"$1"/status | tr -s ' \t' ' ' | tr '\n' ' ')"
}
give_up() { step "$1 FAILED: $(systemctl status glance.service --no-pager -n 20 2>&1 | tr '\n' '|')"; finish 1; }

# The app's own lines and systemd's about the unit and tty1's getty, as they come.
journalctl -b -f -o short-monotonic --no-pager -u glance.service -u getty@tty1.service | sed -u 's/^/[journal] /' &

step "boot uptime=$(uptime_s) date=$(date +%F) arch=$(uname -m) mode=$MODE"
step "version $(glance --version 2>&1)"
pid=$(wait_active 0) || give_up ready
step "ready pid=$pid uptime=$(uptime_s) active_at_us=$(prop ActiveEnterTimestampMonotonic)" \
	"watchdog_us=$(prop WatchdogUSec) restarts=$(prop NRestarts) $(describe "$pid")"
journalctl -b -u glance.service -o cat --no-pager | grep '^startup: first' | sed 's/^/[startup] /'
systemd-analyze 2>/dev/null | head -1 | sed 's/^/[systemd-analyze] /'
wait_host first

if [ "$MODE" = short ]; then
	# The host presses Left (yesterday) meanwhile.
	wait_host input
	# SIGTERM, as systemd stops the unit: the app exits 0 and the console comes back.
	systemctl stop glance.service
	wait_gone "$pid"
	# The unit resets tty1 when it stops (TTYReset): known text written now shows on the panel
	# only if the app gave the display back to the console.
	printf '\033[2J\033[H\n  GLANCE VM CONSOLE\n\n  tty1 after SIGTERM.\n' >/dev/tty1
	sleep 0.5
	step "stopped status=$(prop ExecMainStatus) code=$(prop ExecMainCode) result=$(prop Result)" \
		"glance=$(systemctl is-active glance.service)"
	wait_host stopped
	finish 0
fi

# Root feeds the store (/var/lib/glance/glance.db, root's default): the running app redraws.
glance log --move 300 >/tmp/log.out 2>&1
step "logged rc=$? $(tr '\n' ' ' </tmp/log.out)"
sleep 1.5
wait_host logged
# The host presses keys and unplugs and plugs a keyboard meanwhile (input through the sandbox).
wait_host input

# systemctl reload: SIGHUP through ExecReload, the configuration read again and applied in
# place: the same process, still active (READY=1 again), no restart. Then root's glance
# screenshot, through the socket in the unit's runtime directory.
rpid=$(prop MainPID)
systemctl reload glance.service >/tmp/reload.out 2>&1
rc=$?
reloaded() { journalctl -b -u glance.service -o cat --no-pager | grep -c 'configuration reloaded'; }
i=0
while [ "$(reloaded)" -lt 1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
step "reload rc=$rc pid=$(prop MainPID) was=$rpid active=$(systemctl is-active glance.service)" \
	"restarts=$(prop NRestarts) reloaded=$(reloaded) $(tr '\n' ' ' </tmp/reload.out)"
glance screenshot --output /tmp/panel.png >/tmp/shot.out 2>&1
rc=$?
step "screenshot rc=$rc $(tr '\n' ' ' </tmp/shot.out) socket=$(stat -c '%a:%U:%G' /run/glance/glance.sock 2>&1)"
wait_host reloaded

# The watchdog: alive past WatchdogSec (its pings arrive), the same process, no restart.
# Waits until the app has been active longer than WatchdogSec, and in any case for more than
# one ping interval (WatchdogSec / 2) after the first reading, so that a new ping must have
# come: the earlier steps may already have taken longer than WatchdogSec.
ping1=$(prop WatchdogTimestampMonotonic)
active=$(prop ActiveEnterTimestampMonotonic)
wd=$(systemctl show glance.service -p WatchdogUSec --value)
wd_us=$(systemd-analyze timespan "$wd" 2>/dev/null | awk '/μs:|us:/ {print $2}')
wd_us=${wd_us:-10000000}
now_us=$(awk '{printf "%d", $1 * 1000000}' /proc/uptime)
wait_us=$((active + wd_us + 1500000 - now_us))
min_us=$((wd_us / 2 + 1500000))
[ $wait_us -lt $min_us ] && wait_us=$min_us
sleep "$(awk -v u=$wait_us 'BEGIN {printf "%.2f", u / 1e6}')"
ping2=$(prop WatchdogTimestampMonotonic)
alive_for=$(($(awk '{printf "%d", $1 * 1000000}' /proc/uptime) - active))
step "watchdog-alive pid=$(prop MainPID) was=$pid restarts=$(prop NRestarts) alive_us=$alive_for" \
	"pings_advanced=$([ "$ping2" -gt "$ping1" ] && echo yes || echo no) ping1=$ping1 ping2=$ping2"

# Crashes: the panel shows the console once the app is gone, then the restarted app.
for sig in SEGV ABRT KILL; do
	name=$(echo $sig | tr A-Z a-z)
	kill -$sig "$pid"
	wait_gone "$pid"
	sleep 0.5 # the console redraws itself after KD_TEXT
	wait_host "$name"
	pid=$(wait_active "$pid") || give_up "$name-restart"
	step "$name-restarted pid=$pid restarts=$(prop NRestarts) owners=$(stat -c %U /var/lib/glance/* | sort -u | tr '\n' ' ')"
	sleep 0.3
	wait_host "$name-back"
done

# A hung loop: no more watchdog pings; systemd aborts it (SIGABRT) and restarts it.
kill -STOP "$pid"
step "hang pid=$pid uptime=$(uptime_s)"
wait_gone "$pid"
step "hang-ended uptime=$(uptime_s) result=$(prop Result)"
sleep 0.5
wait_host watchdog
pid=$(wait_active "$pid") || give_up watchdog-restart
step "watchdog-restarted pid=$pid restarts=$(prop NRestarts)"
sleep 0.3
wait_host watchdog-back

# Started again while another console is in front (someone at work on tty2): the app brings
# its own tty1 to the front instead of drawing over tty2. reset-failed first: this start must
# not use up the start limit the next stage runs into.
systemctl reset-failed glance.service
printf '\033[2J\033[H\n  SECOND CONSOLE (tty2)\n' >/dev/tty2
# chvt 2 (the image has no kbd package; perl-base has ioctl): VT_ACTIVATE, VT_WAITACTIVE
perl -e 'open(my $t, "+<", "/dev/tty0") or die "tty0: $!"; ioctl($t, 0x5606, 2) or die "VT_ACTIVATE: $!";
	ioctl($t, 0x5607, 2) or die "VT_WAITACTIVE: $!"'
step "front-away front=$(cat /sys/class/tty/tty0/active)"
sleep 0.5
kill -TERM "$pid"
wait_gone "$pid"
pid=$(wait_active "$pid") || give_up front-restart
step "front-restarted pid=$pid restarts=$(prop NRestarts) front=$(cat /sys/class/tty/tty0/active)"
sleep 0.3
wait_host front

# glance serve, enabled in this image and listening on the network (the test's configuration)
# that qemu's user network gives by DHCP (systemd-networkd): once it is up, the host posts
# today's figures through a port qemu forwards, and the running app redraws.
serve() { systemctl show glance-serve.service -p "$1" --value; }
addresses() { hostname -I 2>/dev/null | tr ' ' '\n' | grep -v '^127\.' | grep -v '^$' | tr '\n' ',' | sed 's/,$//'; }
i=0
until { systemctl is-active -q glance-serve.service && [ -n "$(addresses)" ]; } || [ $i -gt 900 ]; do
	sleep 0.1
	i=$((i + 1))
done
spid=$(serve MainPID)
step "serve active=$(systemctl is-active glance-serve.service) user=$(ps -o user= -p "$spid" 2>/dev/null)" \
	"addresses=$(addresses) restarts=$(serve NRestarts) uptime=$(uptime_s)"
# The units that reach the network (and the panel's), rated by systemd-analyze security as the
# booted system loads them: "security glance=0.4 glance-serve=1.1 glance-mqtt=1.1".
rating() { systemd-analyze security --no-pager "$1.service" 2>/dev/null | sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p'; }
step "security glance=$(rating glance) glance-serve=$(rating glance-serve) glance-mqtt=$(rating glance-mqtt)"
wait_host serve
# glance serve's own lines (one a request), and the store's files as they are now
step "serve-log $(journalctl -b -u glance-serve.service -o cat --no-pager | tail -n 6 | tr '\n' '|')"
step "store $(stat -c '%n=%a:%U:%G' /var/lib/glance/* | tr '\n' ' ')"

# Anyone in group glance may feed the panel: pi (made in the image: not root, a member of
# glance) sets a metric in the system store, the default for such a user, and the gauge screen
# redraws. First the host brings the gauge screen (the metric not set yet: no value).
wait_host gauges
runuser -l pi -c 'glance metric set shed 21.5' >/tmp/metric.out 2>&1
rc=$?
step "metric rc=$rc uid=$(id -u pi) groups=$(id -nG pi | tr ' ' ',') $(tr '\n' ' ' </tmp/metric.out)" \
	"personal=$([ -e /home/pi/.local/share/glance/glance.db ] && echo yes || echo no)"
wait_host metric

# Home Assistant through glance mqtt: glance-mqtt.service (enabled in this image) bridges the
# guest's own broker (Debian's mosquitto, local only: 127.0.0.1:1883, the test's configuration)
# and the panel's control socket. As Home Assistant would, the screen select's topics are taken
# from its retained discovery message; once the bridge shows the panel on the gauge screen (the
# state of the panel running now), "rings" is published on the command topic, not retained.
began=$(uptime_s)
mqtt_get() { mosquitto_sub -h 127.0.0.1 -C 1 "$@" 2>/dev/null; }
json_field() { printf '%s' "$1" | sed -n "s/.*\"$2\": *\"\([^\"]*\)\".*/\1/p"; }
discovery=$(mqtt_get -W 150 -t 'homeassistant/select/+/screen/config')
command=$(json_field "$discovery" command_topic)
state=$(json_field "$discovery" state_topic)
# until_shown SCREEN: polls the retained screen state until it is SCREEN (at most 30 s)
until_shown() {
	local i=0
	shown=""
	while [ -n "$state" ] && [ $i -lt 60 ]; do
		shown=$(mqtt_get -W 2 -t "$state")
		[ "$shown" = "$1" ] && return 0
		sleep 0.5
		i=$((i + 1))
	done
	return 1
}
until_shown gauges
before=$shown
published=none
if [ -n "$command" ]; then
	mosquitto_pub -h 127.0.0.1 -t "$command" -m rings
	published=$?
fi
until_shown rings
step "mqtt published=$published command=$command state=$state before=$before shown=$shown" \
	"bridge=$(systemctl is-active glance-mqtt.service) user=$(ps -o user= -p "$(systemctl show glance-mqtt.service -p MainPID --value)" 2>/dev/null)" \
	"broker=$(systemctl is-active mosquitto.service) pid=$(prop MainPID) began=$began uptime=$(uptime_s)"
step "mqtt-discovery $discovery"
step "mqtt-log $(journalctl -b -u glance-mqtt.service -o cat --no-pager | tail -n 8 | tr '\n' '|')"
wait_host mqtt

# Home Assistant's notify: a message published on the Message entity's command topic (from its
# retained discovery message, as Home Assistant reads it) shows on the panel; the host compares the
# monitor with glance render --message, then presses Left, which only dismisses it; the dismissal
# comes back on the Message dismissed event's topic (from its discovery message too).
notify=$(mqtt_get -W 30 -t 'homeassistant/notify/+/message/config')
message_topic=$(json_field "$notify" command_topic)
dismissed_config=$(mqtt_get -W 30 -t 'homeassistant/event/+/message_dismissed/config')
dismissed_topic=$(json_field "$dismissed_config" state_topic)
: >/tmp/dismissed
if [ -n "$dismissed_topic" ]; then
	mosquitto_sub -h 127.0.0.1 -C 1 -W 120 -t "$dismissed_topic" >/tmp/dismissed 2>&1 &
	listener=$!
	sleep 1
fi
sent=none
if [ -n "$message_topic" ]; then
	mosquitto_pub -h 127.0.0.1 -t "$message_topic" -m 'Washing done'
	sent=$?
fi
step "notify published=$sent topic=$message_topic event=$dismissed_topic"
wait_host notify
[ -n "${listener:-}" ] && wait "$listener"
step "notify-dismissed $(tr '\n' ' ' </tmp/dismissed)"
wait_host notify-dismissed

# The schedule: the configuration's window with brightness 0 starts at the boundary
# /etc/glance-vmtest/boundary (HH:MM, which the host chose hours away from the real time, on the
# same day). The clock is set to 20 s before it (the app's timerfd, cancelled on a set, tells it);
# the panel must stay on until then and go dark at it. DPMS of the connector (sysfs) is sampled
# all along, the host's screendumps say what the monitor shows, the journal when the app acted.
dpms() { cat /sys/class/drm/card*-*/dpms 2>/dev/null | head -1; }
now_s() { date +%s.%N | cut -c1-14; }
boundary=$(date -d "$(date +%F) $(cat /etc/glance-vmtest/boundary)" +%s)
real=$(date +%s)
up0=$(cut -d. -f1 /proc/uptime)
date -s "@$((boundary - 20))" >/dev/null
step "schedule-set boundary=$boundary set=$(now_s) dpms=$(dpms) pid=$(prop MainPID)"
# early: the first sample before the boundary at which the panel was not on; off: the first
# after it at which DPMS said off. A sample's time is taken after its read: one that ended
# before the boundary was read before it.
early=none
off=never
sample_until() { # EPOCH: samples DPMS until then (or until off after the boundary)
	local d t
	while [ "$(date +%s)" -lt "$1" ]; do
		d=$(dpms)
		t=$(date +%s%N)
		if [ "$t" -lt "${boundary}000000000" ]; then
			[ "$d" != On ] && [ "$early" = none ] && early="$(seconds "$t"):$d"
		elif [ "$d" = Off ]; then
			off=$(seconds "$t")
			return
		fi
		sleep 0.05
	done
}
seconds() { echo "${1%?????????}.$(echo "$1" | tail -c 10 | cut -c1-3)"; }
sample_until $((boundary - 8))
asked=$(now_s)
wait_host schedule-before
answered=$(now_s)
sample_until "$boundary"
# Past the boundary: until DPMS says off (at most 30 s)
[ "$off" = never ] && sample_until $((boundary + 30))
step "schedule-off boundary=$boundary early=$early asked=$asked answered=$answered off=$off dpms=$(dpms)" \
	"pid=$(prop MainPID) restarts=$(prop NRestarts)"
wait_host schedule-dark
# What the app said, with the time of each line (the journal's clock is the one set)
step "schedule-log $(journalctl -b -u glance.service -o short-unix --no-pager | grep -E 'the clock was set|schedule|no power control|a change of the clock' | tail -n 6 | tr '\n' '|')"
# The clock back to the real time, out of the window: the panel lights again.
date -s "@$((real + $(cut -d. -f1 /proc/uptime) - up0))" >/dev/null
i=0
until [ "$(dpms)" = On ] || [ $i -gt 300 ]; do sleep 0.1; i=$((i + 1)); done
step "schedule-back date=$(date +%FT%T) dpms=$(dpms) pid=$(prop MainPID)"
wait_host schedule-back

# An Android phone's Health Connect push from the host (through glance serve): the host checks
# the rings as pushed on the monitor.
wait_host health-connect

# A band's Gadgetbridge export delivered into the watched folder as Syncthing does (a temporary
# name, then renamed onto its own): glance-import-watch.service imports it; the host checks the
# monitor.
wpid=$(systemctl show -p MainPID --value glance-import-watch.service)
cp /var/lib/glance-vmtest/Gadgetbridge.db /srv/gadgetbridge/.syncthing.Gadgetbridge.db.tmp
mv /srv/gadgetbridge/.syncthing.Gadgetbridge.db.tmp /srv/gadgetbridge/Gadgetbridge.db
step "gadgetbridge watch=$(systemctl is-active glance-import-watch.service) user=$(ps -o user= -p "$wpid" 2>/dev/null)"
wait_host gadgetbridge
step "gadgetbridge-log $(journalctl -b -u glance-import-watch.service -o cat --no-pager | tail -n 6 | tr '\n' '|')"

# The household: Ann's phone pushes from the host with her own token (glance people made it);
# then Home Assistant's select shows the family screen, both people's rings.
wait_host household
published=none
if [ -n "$command" ]; then
	mosquitto_pub -h 127.0.0.1 -t "$command" -m family
	published=$?
fi
until_shown family
step "household-shown shown=$shown published=$published pid=$(prop MainPID)"
wait_host household-shown

# The panel's own page (glance-web.service, enabled in this image, on the network): a one-time
# link made by root as an administrator would (its secret for the host's browser, which signs in
# through the port qemu forwards), then the host saves a setting from the page and shows the ring
# screen with its controls; the monitor shows the new setting.
i=0
until systemctl is-active -q glance-web.service || [ $i -gt 600 ]; do sleep 0.1; i=$((i + 1)); done
wpid=$(systemctl show -p MainPID --value glance-web.service)
link=$(glance web link --url http://vmtest.invalid 2>&1 | head -n 1)
step "web active=$(systemctl is-active glance-web.service) user=$(ps -o user= -p "$wpid" 2>/dev/null)" \
	"groups=$(ps -o supgrp= -p "$wpid" 2>/dev/null | tr -d ' ') link=$link security=$(rating glance-web)"
wait_host web
step "web-log $(journalctl -b -u glance-web.service -o cat --no-pager | tail -n 8 | tr '\n' '|')"
step "web-config $(stat -c '%a:%U:%G' /etc/glance/config.json /etc/glance/config.json.previous 2>&1 | tr '\n' ' ')" \
	"name=$(grep -o '"name": *"[^"]*"' /etc/glance/config.json)"

# The libraries mapped into the running glance run (the panel's process, after the bridge's
# command, the schedule and glance serve's post): none of the network's or the import's.
mpid=$(prop MainPID)
step "maps pid=$mpid uptime=$(uptime_s) command=$(tr '\0' ' ' </proc/"$mpid"/cmdline | tr -s ' ' | sed 's/ $//; s/ /_/g')" \
	"libraries=$(awk '$6 ~ /\.so/ {print $6}' /proc/"$mpid"/maps | sort -u | tr '\n' ',' | sed 's/,$//')"

# Crashing again and again: after StartLimitBurst starts systemd gives up and tty1 gets a
# login prompt (OnFailure=getty@tty1.service).
crashes=0
while :; do
	kill -SEGV "$pid"
	wait_gone "$pid"
	crashes=$((crashes + 1))
	new=$(wait_active "$pid") || break
	pid=$new
	[ $crashes -gt 10 ] && give_up fallback
done
i=0
until systemctl is-active -q getty@tty1.service || [ $i -gt 200 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1.5 # agetty prints the prompt
step "fallback crashes=$crashes restarts=$(prop NRestarts) result=$(prop Result)" \
	"glance=$(systemctl is-active glance.service) getty=$(systemctl is-active getty@tty1.service)"
wait_host fallback

# A bad configuration (exit 78, here a connector that does not exist): no restart at all, and
# tty1 goes straight back to the login prompt.
mkdir -p /run/systemd/system/glance.service.d
printf '[Service]\nExecStart=\nExecStart=/usr/bin/glance run --connector NONE-1\n' \
	>/run/systemd/system/glance.service.d/bad-configuration.conf
systemctl daemon-reload
systemctl reset-failed glance.service
systemctl start glance.service 2>/dev/null
i=0
until systemctl is-active -q getty@tty1.service || [ $i -gt 100 ]; do sleep 0.1; i=$((i + 1)); done
step "badconfig status=$(prop ExecMainStatus) restarts=$(prop NRestarts) result=$(prop Result)" \
	"glance=$(systemctl is-active glance.service) getty=$(systemctl is-active getty@tty1.service)"
finish 0

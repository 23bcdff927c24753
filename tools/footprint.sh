#!/usr/bin/env bash
# footprint.sh -- what Glance costs a board: the package's installed size, each executable's
# stripped size (glance, and the helpers in /usr/lib/glance with the libraries they need), the
# binary's shared libraries (and the Debian packages they come from), and the resident memory of
# `glance run` showing the ring screen in the VM (Debian's kernel, virtio-gpu) at 480x480 and
# 720x1280.
#
#   tools/footprint.sh [--deb FILE] [--no-vm]   (default: build the package with tools/build-deb.sh;
#                                                --no-vm: the sizes and libraries only)
#
# Resident memory is VmRSS (and its peak, VmHWM) of the app once its first frame is on screen,
# with the fonts of the package's Depends, as /proc/PID/status reports them; the target is
# under 30 MB. (The VM runs the binary from its initramfs, whose files are shared memory: the
# program's and libraries' pages count as RssShmem there, as RssFile on a board's disk.) The
# VM boots take about 10 s each (tools/vm/run-in-vm.sh).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEB=""
VM=1
while [ $# -gt 0 ]; do
	case "$1" in
	--deb) DEB=$2; shift 2 ;;
	--no-vm) VM=0; shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "footprint: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
[ -n "$DEB" ] || DEB=$("$HERE/build-deb.sh" | tail -1)
[ -f "$DEB" ] || { echo "footprint: no package $DEB" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/glance-footprint.XXXXXX")
# Kept when a VM run failed: its log and console are what the message points at.
trap 'if [ "${status:-0}" = 0 ]; then rm -rf "$WORK"; else echo "footprint: kept $WORK" >&2; fi' EXIT
dpkg-deb -x "$DEB" "$WORK/pkg"
BIN=$WORK/pkg/usr/bin/glance

echo "package: $(basename "$DEB")"
mib() { awk -v b="$1" 'BEGIN {printf "%.1f MiB", b / 1048576}'; }
installed=$(dpkg-deb -f "$DEB" Installed-Size)
echo "  installed size: $installed KiB ($(mib $((installed * 1024)))); glance $(($(stat -c %s "$BIN") / 1024)) KiB stripped ($(mib "$(stat -c %s "$BIN")")); .deb $(($(stat -c %s "$DEB") / 1024)) KiB"
echo "  depends: $(dpkg-deb -f "$DEB" Depends)"
# The helpers glance runs git-style: their size, and the libraries they need (none of the panel's:
# no libdrm, libevdev, FreeType, HarfBuzz or fontconfig; one of those is a failure).
status=0
for helper in glance-import glance-serve glance-mqtt; do
	path=$WORK/pkg/usr/lib/glance/$helper
	needed=$(objdump -p "$path" 2>/dev/null | awk '/NEEDED/ {printf "%s ", $2}')
	printf '  %-13s %6d KiB stripped (%s); NEEDED: %s\n' "$helper" $(($(stat -c %s "$path") / 1024)) "$(mib "$(stat -c %s "$path")")" "$needed"
	case "$needed" in
	*libdrm* | *libevdev* | *libfreetype* | *libharfbuzz* | *libfontconfig* | *libunibreak* | *libpng*)
		echo "footprint: $helper links a library of the panel's: $needed" >&2
		status=1
		;;
	esac
done
echo "shared libraries (ldd /usr/bin/glance; package):"
ldd "$BIN" | awk '/=> \// {print $1, $3}' | while read -r name path; do
	# (usrmerge: dpkg knows a library by one of its two paths)
	pkg=$({ dpkg -S "$path" || dpkg -S "$(readlink -f "$path")"; } 2>/dev/null | head -1 | cut -d: -f1 || true)
	printf '  %-28s %s\n' "$name" "${pkg:-?}"
done
echo "  ($(ldd "$BIN" | grep -c '=> /') libraries; NEEDED directly: $(objdump -p "$BIN" 2>/dev/null | awk '/NEEDED/ {printf "%s ", $2}'))"
[ "$VM" = 1 ] || exit $status

# Resident memory in the VM: the app up with its first frame, then its /proc status.
CMD='/app/glance run >/tmp/run.log 2>&1 & pid=$!
i=0; until grep -q "first frame on screen" /tmp/run.log 2>/dev/null; do kill -0 $pid 2>/dev/null || break; i=$((i+1)); [ $i -gt 600 ] && break; sleep 0.05; done
sleep 1
echo "FOOTPRINT $(grep -E "^(VmRSS|VmHWM|RssAnon|RssFile|RssShmem)" /proc/$pid/status | tr -s " \t" " " | tr "\n" " ")"
kill -TERM $pid; wait $pid; cat /tmp/run.log'
for res in 480x480 720x1280; do
	out=$WORK/vm-$res
	if "$HERE/vm/run-in-vm.sh" --gpu virtio --res "$res" --binary "$BIN" --fonts "fonts-inter fonts-wqy-microhei" \
		--cmd "$CMD" --out "$out" --timeout 120 >"$WORK/vm-$res.log" 2>&1 && grep -q '^FOOTPRINT' "$out/console.log"; then
		line=$(grep '^FOOTPRINT' "$out/console.log" | sed 's/^FOOTPRINT //')
		rss=$(echo "$line" | awk '{for (i = 1; i < NF; i++) if ($i == "VmRSS:") print $(i + 1)}')
		printf 'glance run %-9s resident %5.1f MB (%s)\n' "$res" "$(awk -v k="$rss" 'BEGIN {print k / 1024}')" "$line"
	else
		echo "glance run $res: the VM run failed: $(tail -1 "$WORK/vm-$res.log") (log $WORK/vm-$res.log, console $out/console.log)" >&2
		status=1
	fi
done
exit $status

#!/usr/bin/env bash
# run-in-vm.sh -- Glance's VM harness, adapted from the team's shared recipe: run one Linux
# program inside a throw-away qemu VM that has a
# REAL kernel DRM/KMS driver (virtio-gpu or bochs) and REAL evdev input devices,
# drive it from the host over QMP (keys, pointer/touch, screendumps) and collect
# the guest console log, screenshots and timings.
#
# Usage:
#   run-in-vm.sh --binary PATH [options] [-- PROGRAM ARGS...]
#   run-in-vm.sh --cmd 'SHELL CMD' [options]
#
# Options:
#   --binary PATH        program to run as the guest's payload (copied to /app/,
#                        together with every shared library `ldd` lists for it
#                        and the dynamic loader; a static binary is copied as
#                        is).  Its stdout/stderr go to OUT/console.log.
#   --cmd 'SHELL CMD'    run this busybox-sh command line in the guest instead
#                        of --binary (e.g. 'modetest -M virtio_gpu -c'); with
#                        --binary too, the binary is copied in but not started
#                        (the command can: 'sleep 1; /app/NAME --flag').
#   --arg ARG            one more program argument (repeatable); arguments
#                        after `--` (or after `--args`) are appended too.
#   --env K=V            environment variable for the program (repeatable).
#   --add SRC[:DEST]     extra file or directory for the initramfs (default
#                        DEST /app/NAME); ELF files get their libraries too.
#   --fonts 'PKG ...'    copy fontconfig's configuration (/etc/fonts,
#                        /usr/share/fontconfig) and every font file of these
#                        installed Debian packages into the guest, at the same
#                        paths, so fontconfig finds the same fonts as on the host.
#                        With GLANCE_FONT_ROOT set (a folder of unpacked font
#                        packages: the tests' pinned fonts, tools/test-fonts.sh),
#                        the font files under it instead, at their paths there,
#                        so the guest draws with what the host's glance does.
#   --tools              also copy modetest (libdrm-tests) and evtest into
#                        the guest's /usr/bin for debugging.
#   --gpu virtio|std|cirrus|none
#                        virtio: -device virtio-gpu-pci  -> guest driver virtio_gpu
#                        std:    -device VGA (= -vga std) -> guest driver bochs
#                        cirrus: -device cirrus-vga       -> guest driver cirrus (takes
#                                RGB565 framebuffers; no EDID, so --res only sets the
#                                pointer scale and its modes are the standard ones)
#                        none:   no display device   (default virtio)
#   --res WxH            preferred mode the virtual monitor advertises (EDID)
#                        and screen size for pointer coordinates (default 640x480)
#   --input virtio|usb|ps2|none
#                        virtio: virtio-keyboard-pci + virtio-tablet-pci
#                        usb:    qemu-xhci + usb-kbd + usb-tablet
#                        ps2:    only the board's i8042 keyboard (no abs pointer)
#                        (default virtio; the i8042 AT keyboard is always there)
#   --modules 'M1 M2'    extra kernel modules to load (deps resolved).
#   --qemu-opt ARG       one more raw qemu argument (repeatable), e.g.
#                        --qemu-opt -device --qemu-opt usb-ehci
#   --qmp-script FILE    host-side action script run while the guest is up; the
#                        actions are documented in vmctl.py (wait-console,
#                        sleep, key, type, touch, drag, screendump,
#                        expect-pixel, send, quit, ...).  `send TEXT` writes a
#                        line to the guest's /dev/ttyS2, which guest scripts
#                        read to go on in step with the host (tools/vm/e2e).
#   --out DIR            results (created; old results there are replaced):
#                        console.log (program + init output), kernel.log,
#                        qemu.log, qemu-cmd.txt, result.json (rc, timings,
#                        failed actions), NAME.ppm/.png screendumps. Required.
#   --timeout SEC        hard wall-clock limit for the VM (default 120).
#   --accel auto|kvm|tcg auto = kvm when /dev/kvm is backed by kvm_intel or
#                        kvm_amd, else tcg (default auto).
#   --arch amd64|arm64   the guest's architecture (default: this machine's). arm64: qemu's
#                        `virt` machine with a Cortex-A72 (TCG on an x86-64 machine, KVM on
#                        an arm64 one where it works), Debian's arm64 kernel, virtio consoles
#                        for the program's output and the control line (hvc0, hvc1) and the
#                        kernel console on ttyAMA0. On an x86-64 machine the arm64 kernel
#                        (Debian 13's, the Raspberry Pi OS base) and busybox are fetched
#                        through the trixie build root (tools/arm64), and only --root-image
#                        or --cmd boots are possible (no host binary can run in the guest).
#   --root-image FILE    boot this ext4 image (virtio-blk, /dev/vda) as the root file
#                        system: the initramfs loads the modules, then switch_root runs
#                        its /sbin/init (systemd) as PID 1 instead of a program; the
#                        guest reports "RUN-IN-VM: program-exit rc=N" on ttyS1 itself
#                        (tools/vm/device-image.sh builds such an image).
#   --mem MB / --smp N   guest RAM (default 512) / CPUs (default 1).
#   --loglevel N         kernel console loglevel (default 4; 7 = everything).
#   --append 'ARGS'      extra kernel command line (e.g. 'video=480x480').
#   --kernel-pkg NAME    Debian kernel package (default: the one
#                        linux-image-amd64 depends on, remembered in the cache).
#   --cache DIR          kernel cache (default $RUN_IN_VM_CACHE or
#                        ~/.cache/run-in-vm).
#   --compress none|gzip initramfs compression (default none: under TCG the
#                        guest unpacks gzip slowly, ~2.5 s for a 70 MB payload).
#   --boot pvh|bzimage   pvh (default): boot the uncompressed vmlinux that is
#                        extracted once into the cache, via qemu's PVH entry;
#                        bzimage: the packaged vmlinuz (xz, ~5 s slower on TCG).
#   --no-install         never call apt-get; fail if something is missing.
#   --keep               keep the temporary work dir (initramfs tree).
#   --display none|window|vnc
#                        none (default): headless.  window: a qemu window (GTK, else SDL)
#                        showing the monitor, with keyboard and mouse going to the guest's
#                        virtio keyboard and tablet.  vnc: the same over VNC on
#                        127.0.0.1:5900+N (--vnc N, default 0).  For `make sim`.
#   --vnc N              VNC display number for --display vnc (default 0 -> port 5900).
#
# Exit status: the guest program's exit code; 124 = hard timeout; 3 = a
# QMP-script action failed (e.g. expect-pixel mismatch); 125 = the guest died
# without reporting an exit code (kernel panic, ...); 2 = usage/setup error.
#
# Example:
#   run-in-vm.sh --gpu virtio --res 480x480 --binary .build/debug/glance \
#       --out /tmp/vmrun --timeout 60 -- devices
#
# How it works: the kernel + modules come from Debian's linux-image package
# (apt-get download + dpkg -x into the cache, depmod run there).  An initramfs
# is built from busybox-static, the needed .ko files (insmod order computed on
# the host with `modprobe --show-depends`), the payload and its libraries and a
# generated /init.  qemu boots it headless: ttyS0 = kernel console
# (kernel.log), ttyS1 = /init + program stdout/stderr (console.log), ttyS2 =
# control lines from the host (vmctl `send`).  /init
# prints "RUN-IN-VM: <step> uptime=<s>" markers, runs the program, prints
# "RUN-IN-VM: program-exit rc=N" and powers the VM off.  vmctl.py starts qemu,
# runs the QMP script and enforces the timeout.
#
# Debian 12 packages it installs when missing: qemu-system-x86 (brings seabios,
# ipxe-qemu, qemu-system-data), busybox-static, kmod, cpio, xz-utils, zstd,
# python3; with --tools also libdrm-tests, evtest.  The kernel package
# (linux-image-6.1.0-NN-amd64, ~70 MB) is only downloaded, never installed.
#
# What was seen on Debian 12 / qemu 7.2 / kernel 6.1 (TCG, 2 host cores):
#  * boot to program start ~5-6 s (usb input ~7 s; bzImage boot ~11.5 s);
#    a first run adds ~12-20 s to fetch and unpack the kernel into the cache.
#  * virtio-gpu (driver virtio_gpu) and -vga std (driver bochs-drm) both do
#    dumb-buffer modesets, AddFB2 XRGB8888, SetCrtc and page flips; the
#    screendump shows exactly the scanned-out (flipped) buffer, pixel-exact.
#    The --res mode is the connector's preferred mode (tried 320x240,
#    480x480); the other EDID modes are listed too.
#  * Neither driver has a vblank interrupt: drmWaitVBlank fails with
#    EOPNOTSUPP, page-flip events arrive 0.2-7 ms after the request (modetest
#    -v reports ~4000 "Hz").  Pace frames with a timer, not with vblank.
#  * virtio-gpu needs drmModeDirtyFB (or a flip) after drawing into the
#    buffer on screen, else the host never sees it; bochs scans VRAM
#    directly and DirtyFB returns ENOSYS there (ignore that error).
#  * The program is DRM master on open (no other master; fbcon yields).
#  * Input: virtio-keyboard/usb-kbd/AT keyboard give EV_KEY; virtio-tablet and
#    usb-tablet give EV_ABS ABS_X/ABS_Y 0..32767 + BTN_LEFT (no BTN_TOUCH, no
#    INPUT_PROP_DIRECT, no multitouch: qemu 7.2 has no touchscreen device).
#    QMP keys also reach the kernel VT: ctrl+alt+delete reboots the guest.
#  * /dev/kvm here is kvm_pvm (nested, software): a stock kernel crawls under
#    it (no console output after minutes), hence --accel auto picks TCG.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { echo "run-in-vm: $*" >&2; exit 2; }
is_elf() { [ -f "$1" ] && [ "$(head -c4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }
say() { echo "run-in-vm: $*" >&2; }

# ---------------------------------------------------------------- arguments
GPU=virtio RES=640x480 INPUT=virtio BINARY="" CMD="" QMP_SCRIPT="" OUT=""
TIMEOUT=120 ACCEL=auto MEM=512 SMP=1 LOGLEVEL=4 APPEND_EXTRA="" KERNEL_PKG="" DISPLAY_MODE=none VNC=0
CACHE=${RUN_IN_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/run-in-vm}
COMPRESS=none INSTALL=1 KEEP=0 TOOLS=0 BOOT=pvh ROOT_IMAGE= ARCH=""
PROG_ARGS=() ENVS=() ADDS=() EXTRA_MODULES=() QEMU_OPTS=() FONT_PKGS=()
while [ $# -gt 0 ]; do
	case "$1" in
	--binary) BINARY=$2; shift 2 ;;
	--cmd) CMD=$2; shift 2 ;;
	--arg) PROG_ARGS+=("$2"); shift 2 ;;
	--args) shift; PROG_ARGS+=("$@"); break ;;
	--env) ENVS+=("$2"); shift 2 ;;
	--add) ADDS+=("$2"); shift 2 ;;
	--tools) TOOLS=1; shift ;;
	--fonts) read -ra f <<<"$2"; FONT_PKGS+=("${f[@]}"); shift 2 ;;
	--gpu) GPU=$2; shift 2 ;;
	--res) RES=$2; shift 2 ;;
	--input) INPUT=$2; shift 2 ;;
	--modules) read -ra m <<<"$2"; EXTRA_MODULES+=("${m[@]}"); shift 2 ;;
	--qemu-opt) QEMU_OPTS+=("$2"); shift 2 ;;
	--qmp-script) QMP_SCRIPT=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--accel) ACCEL=$2; shift 2 ;;
	--mem) MEM=$2; shift 2 ;;
	--smp) SMP=$2; shift 2 ;;
	--loglevel) LOGLEVEL=$2; shift 2 ;;
	--append) APPEND_EXTRA=$2; shift 2 ;;
	--kernel-pkg) KERNEL_PKG=$2; shift 2 ;;
	--cache) CACHE=$2; shift 2 ;;
	--compress) COMPRESS=$2; shift 2 ;;
	--boot) BOOT=$2; shift 2 ;;
	--no-install) INSTALL=0; shift ;;
	--keep) KEEP=1; shift ;;
	--display) DISPLAY_MODE=$2; shift 2 ;;
	--vnc) VNC=$2; shift 2 ;;
	--root-image) ROOT_IMAGE=$2; shift 2 ;;
	--arch) ARCH=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; PROG_ARGS+=("$@"); break ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
[ -n "$OUT" ] || die "--out DIR is required"
[ -n "$BINARY" ] || [ -n "$CMD" ] || [ -n "$ROOT_IMAGE" ] || die "--binary PATH, --cmd 'CMD' or --root-image FILE is required"
[ -z "$ROOT_IMAGE" ] || [ -f "$ROOT_IMAGE" ] || die "no such root image: $ROOT_IMAGE"
[ -z "$BINARY" ] || [ -f "$BINARY" ] || die "no such binary: $BINARY"
[[ "$RES" =~ ^([0-9]+)x([0-9]+)$ ]] || die "--res must be WxH"
RES_W=${BASH_REMATCH[1]} RES_H=${BASH_REMATCH[2]}
case "$GPU" in virtio | std | cirrus | none) ;; *) die "--gpu virtio|std|cirrus|none" ;; esac
case "$INPUT" in virtio | usb | ps2 | none) ;; *) die "--input virtio|usb|ps2|none" ;; esac
case "$DISPLAY_MODE" in none | window | vnc) ;; *) die "--display none|window|vnc" ;; esac
[ -z "$QMP_SCRIPT" ] || [ -f "$QMP_SCRIPT" ] || die "no such QMP script: $QMP_SCRIPT"
HOST_ARCH=$(dpkg --print-architecture)
ARCH=${ARCH:-$HOST_ARCH}
case "$ARCH" in amd64 | arm64) ;; *) die "--arch amd64|arm64" ;; esac
FOREIGN=0
if [ "$ARCH" != "$HOST_ARCH" ]; then
	[ "$ARCH" = arm64 ] && [ "$HOST_ARCH" = amd64 ] || die "--arch $ARCH on $HOST_ARCH: only arm64 guests on amd64"
	[ -z "$BINARY" ] && [ ${#FONT_PKGS[@]} = 0 ] && [ "$TOOLS" = 0 ] ||
		die "--arch arm64 on $HOST_ARCH boots --root-image or --cmd only: host programs and fonts cannot run in it"
	FOREIGN=1
fi
if [ "$ARCH" = arm64 ]; then
	QEMU_BIN=qemu-system-aarch64 QEMU_PKG=qemu-system-arm
	# the program's output and the control line: virtio consoles (virt has one UART, the kernel's)
	OUT_TTY=hvc0 CTL_TTY=hvc1 KERNEL_TTY=ttyAMA0
	[ "$GPU" = virtio ] || [ "$GPU" = none ] || die "--arch arm64: --gpu virtio or none"
	[ "$INPUT" = virtio ] || [ "$INPUT" = usb ] || [ "$INPUT" = none ] || die "--arch arm64: --input virtio, usb or none"
else
	QEMU_BIN=qemu-system-x86_64 QEMU_PKG=qemu-system-x86
	OUT_TTY=ttyS1 CTL_TTY=ttyS2 KERNEL_TTY=ttyS0
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
case "$OUT" in *,* | *:*) die "--out path must not contain ',' or ':' (qemu option syntax)" ;; esac
T_START=$(date +%s.%N)

# ---------------------------------------------------------------- packages
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
# apt's download sandbox user cannot write into a root-owned cache; as root download as root.
APT_DL=(apt-get)
[ "$(id -u)" = 0 ] && APT_DL+=(-o APT::Sandbox::User=root)
# command -> Debian package that provides it
need_pkgs=()
command -v $QEMU_BIN >/dev/null || need_pkgs+=($QEMU_PKG)
# busybox must be the static build: the initramfs has no libc for it (a foreign guest gets the
# arm64 one, fetched with its kernel)
if [ $FOREIGN = 0 ] && { [ ! -x /bin/busybox ] || ldd /bin/busybox >/dev/null 2>&1; }; then need_pkgs+=(busybox-static); fi
command -v depmod >/dev/null || need_pkgs+=(kmod)
command -v cpio >/dev/null || need_pkgs+=(cpio)
command -v xz >/dev/null || need_pkgs+=(xz-utils)
command -v zstd >/dev/null || need_pkgs+=(zstd)
command -v python3 >/dev/null || need_pkgs+=(python3)
if [ "$TOOLS" = 1 ]; then
	command -v modetest >/dev/null || need_pkgs+=(libdrm-tests)
	command -v evtest >/dev/null || need_pkgs+=(evtest)
fi
if [ ${#need_pkgs[@]} -gt 0 ]; then
	[ "$INSTALL" = 1 ] || die "missing packages: ${need_pkgs[*]} (and --no-install given)"
	say "installing ${need_pkgs[*]}"
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get install -y --no-install-recommends "${need_pkgs[@]}" >/dev/null ||
		{ $SUDO apt-get update >/dev/null && $SUDO apt-get install -y --no-install-recommends "${need_pkgs[@]}" >/dev/null; } ||
		die "apt-get install ${need_pkgs[*]} failed"
fi

# ---------------------------------------------------------------- kernel
# Debian's generic amd64 kernel: DRM drivers virtio-gpu/bochs/cirrus/qxl and
# virtio_input/evdev/usbhid are modules (vkms is NOT built in Debian 6.1).
mkdir -p "$CACHE"
# A foreign (arm64) guest: Debian 13's arm64 kernel and busybox, through the trixie build root's
# apt (arm64 is one of its architectures); nothing is installed on the host.
DEFAULT_PKG_FILE=$CACHE/default-kernel-pkg
[ $FOREIGN = 1 ] && DEFAULT_PKG_FILE=$CACHE/default-kernel-pkg-trixie-$ARCH
in_build_root() { "$HERE/../arm64/in-root.sh" "$@"; }
if [ -z "$KERNEL_PKG" ] && [ -f "$DEFAULT_PKG_FILE" ]; then
	KERNEL_PKG=$(cat "$DEFAULT_PKG_FILE")
fi
if [ -z "$KERNEL_PKG" ] && [ $FOREIGN = 1 ]; then
	say "looking up Debian 13's linux-image-$ARCH (apt-get update in the trixie build root)"
	KERNEL_PKG=$(in_build_root sh -c "apt-get update >/dev/null 2>&1; apt-cache depends linux-image-$ARCH:$ARCH" |
		awk '/Depends: linux-image-[0-9]/ && !found {print $2; found = 1}')
	KERNEL_PKG=${KERNEL_PKG%:*}
	[ -n "$KERNEL_PKG" ] || die "cannot resolve trixie's linux-image-$ARCH in the build root"
	echo "$KERNEL_PKG" >"$DEFAULT_PKG_FILE"
fi
if [ -z "$KERNEL_PKG" ]; then
	resolve() { apt-cache depends linux-image-$ARCH 2>/dev/null | awk '/Depends: linux-image-[0-9]/ && !found {print $2; found = 1}'; }
	KERNEL_PKG=$(resolve)
	if [ -z "$KERNEL_PKG" ] && [ "$INSTALL" = 1 ]; then $SUDO apt-get update >/dev/null; KERNEL_PKG=$(resolve); fi
	[ -n "$KERNEL_PKG" ] || die "cannot resolve linux-image-$ARCH (run apt-get update)"
	# written whole, then renamed: a parallel run reads the old name, the new one or none,
	# never an empty file
	kpkg_tmp=$(mktemp "$CACHE/.default-kernel-pkg.XXXXXX")
	echo "$KERNEL_PKG" >"$kpkg_tmp"
	chmod 644 "$kpkg_tmp"
	mv -f "$kpkg_tmp" "$DEFAULT_PKG_FILE"
fi
KDIR=$CACHE/$KERNEL_PKG
# one fetch at a time per cache (parallel test runs share it)
exec 9>"$CACHE/.lock"
flock 9
if [ ! -f "$KDIR/.ready" ]; then
	say "fetching kernel package $KERNEL_PKG into $KDIR"
	rm -rf "$KDIR" && mkdir -p "$KDIR/deb"
	if [ $FOREIGN = 1 ]; then
		in_build_root --bind "$KDIR/deb" sh -c "cd '$KDIR/deb' && { apt-get download $KERNEL_PKG:$ARCH busybox-static:$ARCH ||
			{ apt-get update && apt-get download $KERNEL_PKG:$ARCH busybox-static:$ARCH; }; } >/dev/null 2>&1" ||
			die "apt-get download $KERNEL_PKG:$ARCH busybox-static:$ARCH in the trixie build root failed"
		mkdir -p "$KDIR/busybox"
		dpkg -x "$KDIR"/deb/busybox-static_*.deb "$KDIR/busybox"
		rm -f "$KDIR"/deb/busybox-static_*.deb
	else
		(cd "$KDIR/deb" && "${APT_DL[@]}" download "$KERNEL_PKG" >/dev/null) ||
			{ [ "$INSTALL" = 1 ] && $SUDO apt-get update >/dev/null && (cd "$KDIR/deb" && "${APT_DL[@]}" download "$KERNEL_PKG" >/dev/null); } ||
			die "apt-get download $KERNEL_PKG failed"
	fi
	dpkg -x "$KDIR"/deb/*.deb "$KDIR/root"
	rm -rf "$KDIR/deb"
	# Debian 13's packages have merged /usr: the modules are in usr/lib/modules
	if [ ! -d "$KDIR/root/lib/modules" ] && [ -d "$KDIR/root/usr/lib/modules" ]; then ln -s usr/lib "$KDIR/root/lib"; fi
	KVER=$(ls "$KDIR/root/lib/modules" | head -1)
	depmod -b "$KDIR/root" "$KVER" # dpkg -x does not run the postinst
	# Uncompressed vmlinux for qemu's PVH direct boot (Debian: CONFIG_PVH=y):
	# under TCG the bzImage's own xz decompressor costs ~5 s of every boot.
	# The payload is the compressed stream that starts at the first xz (6.1)
	# or zstd (6.12) magic, as the kernel's scripts/extract-vmlinux does; the
	# decompressor complains about the trailing bytes, so judge by the result.
	bz=$KDIR/root/boot/vmlinuz-$KVER
	for magic_dec in $'\xfd7zXZ:xz' $'\x28\xb5\x2f\xfd:zstd'; do
		off=$(LC_ALL=C grep -aob "${magic_dec%:*}" "$bz" | head -1 | cut -d: -f1 || true)
		[ -n "$off" ] || continue
		tail -c +$((off + 1)) "$bz" | ${magic_dec#*:} -dc >"$KDIR/vmlinux" 2>/dev/null || true
		is_elf "$KDIR/vmlinux" && break
	done
	[ "$ARCH" = amd64 ] || rm -f "$KDIR/vmlinux" # PVH is x86's
	is_elf "$KDIR/vmlinux" || rm -f "$KDIR/vmlinux"
	touch "$KDIR/.ready"
fi
exec 9>&- # unlock
KVER=$(ls "$KDIR/root/lib/modules" | head -1)
VMLINUZ=$KDIR/root/boot/vmlinuz-$KVER
[ -f "$VMLINUZ" ] || die "no kernel image in $KDIR"
# prefer the PVH-bootable vmlinux (4-5 s faster under TCG); --boot bzimage to skip it
if [ "$BOOT" = pvh ] && [ -f "$KDIR/vmlinux" ]; then KERNEL_IMG=$KDIR/vmlinux; else KERNEL_IMG=$VMLINUZ; fi

# ---------------------------------------------------------------- modules
mods=(evdev)
[ "$ARCH" = arm64 ] && mods+=(virtio_pci virtio_console)
case "$GPU" in
virtio) mods+=(virtio_pci virtio-gpu) ;;
std) mods+=(bochs) ;;
cirrus) mods+=(cirrus) ;;
esac
case "$INPUT" in
virtio) mods+=(virtio_pci virtio_input) ;;
usb) mods+=(xhci-pci usbhid hid-generic) ;;
esac
[ -n "$ROOT_IMAGE" ] && mods+=(virtio_pci virtio_blk ext4)
mods+=("${EXTRA_MODULES[@]}")
# insmod order: every module after its dependencies, each file once
mapfile -t KO_FILES < <(for m in "${mods[@]}"; do
	modprobe -d "$KDIR/root" -S "$KVER" --show-depends "$m" ||
		echo "MISSING $m"
done | awk '$1=="MISSING" {print "MISSING " $2; next} $1=="insmod" && !seen[$2]++ {print $2}')
for f in "${KO_FILES[@]}"; do
	case "$f" in MISSING*) die "kernel module not found: ${f#MISSING }" ;; esac
done

# ---------------------------------------------------------------- initramfs
# In $TMPDIR, unless qemu could not take it: its sockets go on qemu's command line (no ',' or
# ':') and a unix socket path has at most 107 bytes.
TMPBASE=${TMPDIR:-/tmp}
case "$TMPBASE" in *,* | *:*) TMPBASE=/tmp ;; esac
[ ${#TMPBASE} -le 80 ] || TMPBASE=/tmp
WORK=$(mktemp -d "$TMPBASE/run-in-vm.XXXXXX")
cleanup() { [ "$KEEP" = 1 ] && say "work dir kept: $WORK" || rm -rf "$WORK"; }
trap cleanup EXIT
ST=$WORK/root
mkdir -p "$ST"/{bin,sbin,usr/bin,usr/sbin,etc/run-in-vm,proc,sys,dev,tmp,run,app,lib64}
if [ $FOREIGN = 1 ]; then
	bb=$KDIR/busybox/usr/bin/busybox
	[ -f "$bb" ] || bb=$KDIR/busybox/bin/busybox
	cp "$bb" "$ST/bin/busybox" || die "no arm64 busybox in $KDIR/busybox"
else
	cp /bin/busybox "$ST/bin/busybox"
fi
for f in "${KO_FILES[@]}"; do
	rel=${f#"$KDIR/root"}
	mkdir -p "$ST$(dirname "$rel")"
	# newer Debian kernels (6.12) ship .ko.xz; busybox insmod wants plain .ko
	case "$rel" in
	*.ko.xz) rel=${rel%.xz}; xz -dc "$f" >"$ST$rel" ;;
	*.ko.zst) rel=${rel%.zst}; zstd -qdc "$f" >"$ST$rel" ;;
	*.ko.gz) rel=${rel%.gz}; gzip -dc "$f" >"$ST$rel" ;;
	*) cp "$f" "$ST$rel" ;;
	esac
	echo "$rel" >>"$ST/etc/run-in-vm/modules"
done
touch "$ST/etc/run-in-vm/modules"

# copy the shared libraries (and the dynamic loader) an ELF file needs, at the
# same paths as on the host; static executables have none. Glance opens some
# libraries on first use (its section glance_deferred names them, as
# tools/build-deb.sh reads it): those too, with what they need.
copy_libs() {
	local lib soname
	{ ldd "$1" 2>/dev/null || true; } | awk '/=> \// {print $3} /^[ \t]*\// {print $1}' | while read -r lib; do
		[ -e "$ST$lib" ] && continue
		mkdir -p "$ST$(dirname "$lib")"
		cp -L "$lib" "$ST$lib"
	done
	for soname in $(readelf -p glance_deferred "$1" 2>/dev/null | sed -n 's/^ *\[ *[0-9a-f]*\] *//p'); do
		# (awk reads to the end: leaving early would SIGPIPE ldconfig, and pipefail end the script)
		lib=$(ldconfig -p | awk -v s="$soname" '$1 == s && /x86-64|AArch64/ && !found {print $NF; found = 1}')
		[ -n "$lib" ] || die "$1 opens $soname on first use, which is not installed here"
		[ -e "$ST$lib" ] && continue
		mkdir -p "$ST$(dirname "$lib")"
		cp -L "$lib" "$ST$lib"
		copy_libs "$lib"
	done
}
add_file() { # SRC DEST
	mkdir -p "$ST$(dirname "$2")"
	if [ -d "$1" ]; then
		cp -a "$1" "$ST$2"
		# (if, not &&: a last non-ELF file must not fail the loop under set -e)
		find "$ST$2" -type f | while read -r f; do if is_elf "$f"; then copy_libs "$f"; fi; done
	else
		cp -L "$1" "$ST$2"
		is_elf "$1" && copy_libs "$1"
	fi
	return 0
}
if [ -n "$BINARY" ]; then
	PROG=/app/$(basename "$BINARY")
	add_file "$BINARY" "$PROG"
	chmod +x "$ST$PROG"
fi
for a in "${ADDS[@]}"; do
	src=${a%%:*} dst=${a#*:}
	[ "$dst" = "$a" ] && dst=/app/$(basename "$src")
	[ -e "$src" ] || die "--add: no such file $src"
	add_file "$src" "$dst"
done
if [ ${#FONT_PKGS[@]} -gt 0 ] && [ -n "${GLANCE_FONT_ROOT:-}" ]; then
	for d in /etc/fonts /usr/share/fontconfig; do [ -d "$d" ] && add_file "$d" "$d"; done
	[ -d "$GLANCE_FONT_ROOT/usr/share/fonts" ] || die "--fonts: GLANCE_FONT_ROOT=$GLANCE_FONT_ROOT has no usr/share/fonts"
	while read -r f; do
		add_file "$f" "${f#"$GLANCE_FONT_ROOT"}"
	done < <(find "$GLANCE_FONT_ROOT/usr/share/fonts" -type f \( -name '*.ttf' -o -name '*.otf' -o -name '*.ttc' \))
elif [ ${#FONT_PKGS[@]} -gt 0 ]; then
	for d in /etc/fonts /usr/share/fontconfig; do [ -d "$d" ] && add_file "$d" "$d"; done
	for p in "${FONT_PKGS[@]}"; do
		dpkg -L "$p" >/dev/null 2>&1 || die "--fonts: package $p is not installed"
		while read -r f; do
			[ -f "$f" ] && add_file "$f" "$f"
		done < <(dpkg -L "$p" | grep -E '\.(ttf|otf|ttc)$')
	done
fi
if [ "$TOOLS" = 1 ]; then
	add_file "$(command -v modetest)" /usr/bin/modetest
	add_file "$(command -v evtest)" /usr/bin/evtest
fi

# single-quote a string for the guest's busybox sh
sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
if [ -n "$ROOT_IMAGE" ]; then # PID 1 becomes the image's init (the markers come from the guest)
	run_line='mkdir -p /newroot; mount -t ext4 -o rw /dev/vda /newroot || { echo "run-in-vm: cannot mount the root image"; poweroff -f; }
mark switch-root
umount /dev/pts /dev/shm /tmp /run 2>/dev/null; mount --move /dev /newroot/dev; umount /proc /sys
exec switch_root /newroot /sbin/init'
elif [ -n "$CMD" ]; then # --cmd wins; --binary is then just copied in
	run_line="sh -c $(sq "$CMD")"
else
	run_line="$(sq "$PROG")"
	for a in "${PROG_ARGS[@]}"; do run_line+=" $(sq "$a")"; done
fi
env_line=""
for e in "${ENVS[@]}"; do env_line+="export $(sq "$e"); "; done
# inputs /init waits for: the AT keyboard (i8042, built in) + the chosen devices
NEED_EV=1
case "$INPUT" in virtio | usb) NEED_EV=3 ;; esac
[ "$ARCH" = amd64 ] || NEED_EV=$((NEED_EV - 1)) # no i8042 on arm64's virt
NEED_DRI=1; [ "$GPU" = none ] && NEED_DRI=0

# The virtio consoles of an arm64 guest exist once their module is loaded: those modules are
# loaded before the output goes there (their messages to the kernel's console).
EARLY_MODULES=""
if [ "$OUT_TTY" = hvc0 ]; then
	EARLY_MODULES='mount -t proc proc /proc; for m in $(grep -E "virtio(_pci_legacy_dev|_pci_modern_dev|_pci|_ring|_console|)\.ko$|/virtio\.ko$" /etc/run-in-vm/modules); do insmod "$m" 2>/dev/null; done
i=0; while [ ! -e /dev/hvc0 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; umount /proc'
fi
cat >"$ST/init" <<EOF
#!/bin/busybox sh
# PID 1 of the guest, generated by run-in-vm.sh
/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null
/bin/busybox --install -s
$EARLY_MODULES
exec 0</dev/null 1>/dev/$OUT_TTY 2>&1
export PATH=/app:/usr/bin:/bin:/usr/sbin:/sbin HOME=/tmp TERM=dumb
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /dev/shm
stty -F /dev/$OUT_TTY -onlcr 2>/dev/null
mark() { echo "RUN-IN-VM: \$1 uptime=\$(cut -d' ' -f1 /proc/uptime) \$2"; }
mark init "kernel=\$(uname -r)"
for m in \$(cat /etc/run-in-vm/modules); do
	insmod "\$m" || echo "run-in-vm: insmod \$m FAILED"
done
mark modules-loaded
# wait (max 10 s) for /dev/dri/card0 and the expected evdev nodes
i=0
while [ \$i -lt 100 ]; do
	ok=1
	[ $NEED_DRI = 1 ] && [ ! -e /dev/dri/card0 ] && ok=0
	[ \$(ls /dev/input/event* 2>/dev/null | wc -l) -lt $NEED_EV ] && ok=0
	[ \$ok = 1 ] && break
	sleep 0.1; i=\$((i+1))
done
for c in /sys/class/drm/card[0-9]-*; do
	[ -e "\$c/status" ] && echo "run-in-vm: connector \${c##*/} \$(cat \$c/status) modes: \$(head -3 \$c/modes | tr '\\n' ' ')"
done
for e in /sys/class/input/event*; do
	[ -e "\$e" ] && echo "run-in-vm: /dev/input/\${e##*/} \"\$(cat \$e/device/name)\""
done
mark devices-ready
cd /app
$env_line
mark program-start
$run_line
rc=\$?
mark program-exit "rc=\$rc"
sync
poweroff -f
EOF
chmod +x "$ST/init"

INITRD=$WORK/initrd.cpio
(cd "$ST" && find . -print0 | cpio --null -o -H newc --quiet) >"$INITRD"
if [ "$COMPRESS" = gzip ]; then gzip -1 "$INITRD" && INITRD=$INITRD.gz; fi
say "initramfs $(du -h "$INITRD" | cut -f1) ($(du -sh "$ST" | cut -f1) unpacked), kernel $KVER, modules: $(printf '%s ' "${KO_FILES[@]##*/}")"

# ---------------------------------------------------------------- qemu
if [ "$ACCEL" = auto ]; then
	# /dev/kvm can be backed by something a stock kernel cannot use well (e.g.
	# kvm_pvm on nested cloud VMs: the guest kernel crawls); require real VT-x/SVM.
	ACCEL=tcg
	if [ $FOREIGN = 0 ] && [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ] ||
		[ "$ARCH" = arm64 ]; }; then ACCEL=kvm; fi
fi
if [ "$ACCEL" = kvm ]; then CPU=host; else CPU=max; fi
QMP_SOCK=$WORK/qmp.sock
# ttyS2: a control line from the host (vmctl's `send` action) that guest scripts read to
# proceed in step with the host (e.g. after a screendump)
CTL_SOCK=$WORK/ctl.sock
rm -f "$OUT"/console.log "$OUT"/kernel.log "$OUT"/*.ppm "$OUT"/*.png "$OUT"/result.json
if [ "$ARCH" = arm64 ]; then
	[ "$ACCEL" = kvm ] || CPU=cortex-a72
	QEMU=($QEMU_BIN -name run-in-vm -machine virt,accel="$ACCEL" -cpu "$CPU"
		-m "$MEM" -smp "$SMP" -nodefaults -no-user-config -no-reboot
		-kernel "$KERNEL_IMG" -initrd "$INITRD"
		-append "console=$KERNEL_TTY panic=-1 loglevel=$LOGLEVEL rdinit=/init vt.global_cursor_default=0 $APPEND_EXTRA"
		-serial "file:$OUT/kernel.log"
		-device virtio-serial-pci,id=vser0
		-chardev "file,id=out,path=$OUT/console.log" -device virtconsole,bus=vser0.0,chardev=out,nr=0
		-chardev "socket,id=ctl,path=$CTL_SOCK,server=on,wait=off" -device virtconsole,bus=vser0.0,chardev=ctl,nr=1
		-qmp "unix:$QMP_SOCK,server=on,wait=off")
else
	# no_timer_check: under TCG on a loaded host the kernel's check that the timer's interrupt
	# arrives can time out, and it then panics ("IO-APIC + timer doesn't work"), as seen in
	# make test beside other builds; the emulated timer is fine, so the check is skipped (as cloud
	# images do in VMs).
	QEMU=($QEMU_BIN -name run-in-vm -machine q35,accel="$ACCEL" -cpu "$CPU"
		-m "$MEM" -smp "$SMP" -nodefaults -no-user-config -no-reboot
		-kernel "$KERNEL_IMG" -initrd "$INITRD"
		-append "console=$KERNEL_TTY,115200 no_timer_check panic=-1 loglevel=$LOGLEVEL rdinit=/init vt.global_cursor_default=0 $APPEND_EXTRA"
		-serial "file:$OUT/kernel.log" -serial "file:$OUT/console.log"
		-chardev "socket,id=ctl,path=$CTL_SOCK,server=on,wait=off" -serial chardev:ctl
		-qmp "unix:$QMP_SOCK,server=on,wait=off")
fi
case "$DISPLAY_MODE" in
none) QEMU+=(-display none) ;;
vnc) QEMU+=(-display "vnc=127.0.0.1:$VNC") ;;
window)
	# GTK where qemu has it, else SDL (Debian's qemu-system-gui has both)
	if $QEMU_BIN -display help 2>/dev/null | grep -qx gtk; then QEMU+=(-display gtk,zoom-to-fit=off)
	else QEMU+=(-display sdl); fi ;;
esac
case "$GPU" in
# xres/yres = the preferred mode in the EDID / display info the guest sees. virtio: no EDID
# (edid=off), so the connector reports no size in millimetres, as a panel that does not say it;
# qemu's EDID would say 100 dots to the inch, a size glance would take for the panel's own and
# size its text by (the std VGA's bochs driver needs its EDID for the mode: it reports that size).
virtio) QEMU+=(-device "virtio-gpu-pci,edid=off,xres=$RES_W,yres=$RES_H") ;;
std) QEMU+=(-device "VGA,edid=on,xres=$RES_W,yres=$RES_H") ;;
cirrus) QEMU+=(-device cirrus-vga) ;;
esac
[ -n "$ROOT_IMAGE" ] && QEMU+=(-drive "file=$ROOT_IMAGE,if=none,id=root,format=raw,cache=unsafe" -device virtio-blk-pci,drive=root)
case "$INPUT" in
virtio) QEMU+=(-device pcie-root-port,id=inputport,chassis=1,slot=5 -device virtio-keyboard-pci,id=kbd0,bus=inputport -device virtio-tablet-pci,id=tablet0) ;;
usb) QEMU+=(-device qemu-xhci -device usb-kbd -device usb-tablet) ;;
esac
QEMU+=("${QEMU_OPTS[@]}")
printf '%q ' "${QEMU[@]}" >"$OUT/qemu-cmd.txt"
echo >>"$OUT/qemu-cmd.txt"

# One headless VM at a time on this machine (test suites run in parallel, and so may other
# checkouts): two emulated guests on two cores starve each other into timeouts. A window or
# VNC session (make sim) does not take the lock, so it never holds tests up.
if [ "$DISPLAY_MODE" = none ]; then
	exec 7>"$CACHE/.vm-boot.lock"
	if ! flock -n 7; then
		say "waiting for another VM boot to end (one at a time)"
		flock 7
	fi
fi
T_BUILT=$(date +%s.%N)
set +e
python3 "$HERE/vmctl.py" --qmp "$QMP_SOCK" --log "$OUT/console.log" \
	--out "$OUT" --res "$RES" --timeout "$TIMEOUT" --control "$CTL_SOCK" ${QMP_SCRIPT:+--script "$QMP_SCRIPT"} \
	-- "${QEMU[@]}"
RC=$?
set -e
T_END=$(date +%s.%N)
say "prepare $(awk "BEGIN{printf \"%.2f\", $T_BUILT-$T_START}")s, vm $(awk "BEGIN{printf \"%.2f\", $T_END-$T_BUILT}")s, accel=$ACCEL, rc=$RC; results in $OUT"
exit $RC

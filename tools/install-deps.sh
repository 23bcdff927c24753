#!/usr/bin/env bash
# install-deps.sh [--build] [--simulate] -- install the Debian packages listed in
# tools/debian-packages.txt that are missing (with --build only those marked "# build": what
# building the package takes), and the Swift toolchain: the `swift` on the PATH when there is one
# (Debian 12: swift.org's), else Debian's `swiftlang` where the distribution has it (Debian 13 and
# later, Raspberry Pi OS trixie; amd64 and arm64: Swift 6.0.3, `swift` in /usr/bin). Safe to run
# again: does nothing when everything is installed.
#
#   --simulate   say what would be installed (apt-get install --simulate) and install nothing;
#                needs no root. tools/install-check.sh runs it in a minimal Debian 13 root.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
say() { echo "install-deps: $*" >&2; }

only='' SIMULATE=0
for a in "$@"; do
	case "$a" in
	--build) only='#[[:space:]]*build[[:space:]]*$' ;; # only the packages building the package takes
	--simulate) SIMULATE=1 ;;
	*) say "unknown option $a (--build: only what building the package takes; --simulate: install nothing)"; exit 64 ;;
	esac
done

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
APT=(-o DPkg::Lock::Timeout=300)

# Whether $1 is the Swift toolchain's driver (not, say, python3-swiftclient's `swift`): its
# compiler is beside it. (Package.swift's tools version says when a toolchain is too old.)
is_swift() {
	local bin
	bin=$(readlink -f "$1" 2>/dev/null) && [ -x "$(dirname "$bin")/swift-frontend" ]
}

# The version of swiftlang that apt would install, or nothing. Reads the package lists first when
# there are none (a minimal root or a container has none until `apt-get update`).
swiftlang_candidate() {
	local lists
	eval "$(apt-config shell lists Dir::State::Lists/d)"
	if ! compgen -G "${lists:-/var/lib/apt/lists/}*Packages*" >/dev/null; then
		if [ $SIMULATE = 1 ] && [ -n "$SUDO" ]; then
			say "apt has no package lists (apt-get update has not run): cannot tell whether swiftlang is there"
		else
			say "apt has no package lists yet: apt-get update"
			$SUDO apt-get "${APT[@]}" update >/dev/null || say "apt-get update failed"
		fi
	fi
	apt-cache policy swiftlang 2>/dev/null | sed -n 's/^[[:space:]]*Candidate:[[:space:]]*//p' | grep -v '^(none)$' || true
}

extra=()
if command -v swift >/dev/null 2>&1 && is_swift "$(command -v swift)"; then
	:
else
	for d in /opt/swift/usr/bin /usr/share/swift/usr/bin /usr/libexec/swift/bin; do
		if [ -x "$d/swift" ] && is_swift "$d/swift"; then
			say "Swift is in $d: add it to PATH (export PATH=\$PATH:$d)"
			[ "$d" = /usr/libexec/swift/bin ] &&
				say "(Debian's swiftlang links /usr/bin/swift only when its debconf question says yes: dpkg-reconfigure swiftlang)"
			exit 1
		fi
	done
	command -v swift >/dev/null 2>&1 && say "$(command -v swift) is not the Swift toolchain (no swift-frontend beside it)"
	version=$(swiftlang_candidate)
	if [ -n "$version" ] && dpkg --compare-versions "$version" ge 6.0; then
		say "no Swift on the PATH: Debian's swiftlang $version will be installed (about 450 MB, 2 GB installed)"
		extra=(swiftlang)
	else
		say "the Swift 6 toolchain is needed and this release has no package for it${version:+ (its swiftlang is $version)}."
		say "Debian 13 (trixie) and later have one (swiftlang); on Debian 12 get it from"
		say "https://www.swift.org/install/linux/ (Debian 12, x86_64 or aarch64) and put its usr/bin on the PATH."
		exit 1
	fi
fi

mapfile -t wanted < <(grep -e "$only" "$HERE/debian-packages.txt" | sed -e 's/#.*//' -e 's/[[:space:]]//g' | grep -v '^$')
# (one dpkg-query for all of them: the installed ones)
declare -A installed=()
while read -r p; do installed[$p]=1; done < <(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "${wanted[@]}" 2>/dev/null | awk '$1 == "ii" {print $2}')
missing=("${extra[@]}")
for p in "${wanted[@]}"; do
	[ -n "${installed[$p]:-}" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ $SIMULATE = 1 ]; then
	say "would install ${missing[*]} (apt-get install --simulate follows)"
	apt-get "${APT[@]}" install --simulate --no-install-recommends "${missing[@]}"
	exit
fi
say "installing ${missing[*]}"
$SUDO apt-get "${APT[@]}" install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
	{ $SUDO apt-get "${APT[@]}" update >/dev/null && $SUDO apt-get "${APT[@]}" install -y --no-install-recommends "${missing[@]}" >/dev/null; } ||
	{ say "apt-get install ${missing[*]} failed"; exit 1; }
if [ ${#extra[@]} -gt 0 ] && ! command -v swift >/dev/null 2>&1; then
	say "swiftlang is installed but /usr/bin/swift is not (its debconf question said no): run"
	say "dpkg-reconfigure swiftlang, or add /usr/libexec/swift/bin to PATH"
	exit 1
fi

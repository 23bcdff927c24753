# debian-mirror.sh -- sourced: `mirror` prints the Debian mirror this machine's apt uses (its
# deb822 .sources first, then sources.list), else deb.debian.org; the roots and the archive's
# lists the test run makes and reads come from the same place as the machine's own packages.
mirror() {
	local m
	m=$(sed -n 's/^URIs:[[:space:]]*\(http[^[:space:]]*\/debian\)\/\{0,1\}[[:space:]]*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
	[ -n "$m" ] || m=$(awk '$1=="deb" && $2 ~ /^http/ && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
	echo "${m:-http://deb.debian.org/debian}"
}

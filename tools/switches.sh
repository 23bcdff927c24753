# switches.sh -- sourced by the test run's scripts: its switches read one way everywhere (as
# Tests/TestSupport's RunSwitch reads them in the tests).
#
# GLANCE_REQUIRE_ALL_PARTS: every part must run, a part that cannot is a failure naming why. Off
# only when unset or an explicit no (empty, 0, false, no, off, in any case); any other value,
# a misspelling too, turns it on: a run never passes by not running a part through a typo.
# GLANCE_SKIP_*: a part skipped, said, when 1, true, yes or on (any case); with every part
# required, the skip is a failure.

# Whether every part is required.
glance_required() {
	case "$(printf %s "${GLANCE_REQUIRE_ALL_PARTS:-}" | tr '[:upper:]' '[:lower:]')" in
	"" | 0 | false | no | off) return 1 ;;
	*) return 0 ;;
	esac
}

# Whether the switch named $1 (GLANCE_SKIP_…) is on.
glance_switch_on() {
	local value
	value=$(eval "printf %s \"\${$1:-}\"" | tr '[:upper:]' '[:lower:]')
	case "$value" in
	1 | true | yes | on) return 0 ;;
	"" | 0 | false | no | off) return 1 ;;
	*) echo "$1=$value is neither yes (1, true, yes, on) nor no (0, false, no, off): taken as no" >&2; return 1 ;;
	esac
}

// libunibreak's line breaking (UAX #14). The calls Glance makes, init_linebreak and
// set_linebreaks_utf8 with LINEBREAK_MUSTBREAK/ALLOWBREAK/NOBREAK/INSIDEACHAR, are the same in
// Debian 12's 1.1 and Debian 13's 6.1 (where init_linebreak does nothing, kept for binary
// compatibility, and the text's end reads LINEBREAK_INDETERMINATE), so no C of our own.
#include <linebreak.h>

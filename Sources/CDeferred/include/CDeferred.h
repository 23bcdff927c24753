// Libraries that only some commands need (glance import, glance serve, MQTT gauges, the serve
// token's QR code, fonts not at their Debian paths), opened on their first call instead of by
// the dynamic loader at every start: loading them and their own libraries (OpenSSL, GnuTLS,
// ICU, ...) before main was most of the loader's work before glance run's first frame.
#ifndef GLANCE_CDEFERRED_H
#define GLANCE_CDEFERRED_H

enum glance_deferred_library {
    GLANCE_DEFERRED_ARCHIVE,
    GLANCE_DEFERRED_MICROHTTPD,
    GLANCE_DEFERRED_MOSQUITTO,
    GLANCE_DEFERRED_QRENCODE,
    GLANCE_DEFERRED_XML,
    GLANCE_DEFERRED_FONTCONFIG,
    GLANCE_DEFERRED_COUNT
};

// The library's function `name`, the library opened on the first call. A library or function
// that is not there ends the process after saying which and which Debian package provides it:
// the display put back (glance_restore_and_exit) and exit status 69 (EX_UNAVAILABLE), as for a
// missing font.
void *glance_deferred_symbol(enum glance_deferred_library library, const char *name);

// Whether the library is open yet (tests: a command that does not need it never opens it).
int glance_deferred_is_open(enum glance_deferred_library library);

// The library's soname ("libarchive.so.13").
const char *glance_deferred_soname(enum glance_deferred_library library);

#endif

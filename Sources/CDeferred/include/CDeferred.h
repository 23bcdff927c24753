// Libraries that glance run needs only in some set-ups, opened on their first call instead of by
// the dynamic loader at every start: fontconfig (with expat) is asked only for fonts not found at
// their Debian paths or when FONTCONFIG_FILE is set. The network's and the import's libraries
// are not here: the commands that use them are executables of their own (glance-import,
// glance-serve, glance-mqtt), which link them.
#ifndef GLANCE_CDEFERRED_H
#define GLANCE_CDEFERRED_H

#include <stddef.h>

enum glance_deferred_library {
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

// The library's soname ("libfontconfig.so.1").
const char *glance_deferred_soname(enum glance_deferred_library library);

// The stubs, made from one list (Sources/CDeferred/stubs.def): how many, and the name and library
// of stub `index`; tests resolve every one by name against the installed library.
size_t glance_deferred_stub_count(void);
const char *glance_deferred_stub_name(size_t index, enum glance_deferred_library *library);

// `name` looked up in `library` without ending the process: NULL when the library or the
// function is missing (`error` then says which, from dlerror).
void *glance_deferred_lookup(enum glance_deferred_library library, const char *name, const char **error);

#endif

// Functions of libraries loaded on first use (see CDeferred.h): each stub has the library's own
// prototype (the headers check it) and calls the real function, found by dlsym once. The stubs
// are hidden, so the library, once open, still binds to its own functions. They are made from
// the one list in stubs.def, as is the table of their names.
#include "CDeferred.h"
#include "KernelShims.h"

#include <dlfcn.h>
#include <stdio.h>
#include <sysexits.h>

#include <fontconfig/fontconfig.h>

// The sonames, also read from the binary by tools/build-deb.sh (section glance_deferred) for the
// package's Depends, since the dynamic loader does not list them.
__attribute__((section("glance_deferred"), used)) static const char sonames[] = "libfontconfig.so.1\0";
static const unsigned short soname_offsets[GLANCE_DEFERRED_COUNT] = {0};
static const char *const packages[GLANCE_DEFERRED_COUNT] = {"libfontconfig1"};
static void *handles[GLANCE_DEFERRED_COUNT];

// The list's short names for the libraries.
#define F GLANCE_DEFERRED_FONTCONFIG

const char *glance_deferred_soname(enum glance_deferred_library library) { return sonames + soname_offsets[library]; }

int glance_deferred_is_open(enum glance_deferred_library library) {
    return __atomic_load_n(&handles[library], __ATOMIC_ACQUIRE) != NULL;
}

static void *open_library(enum glance_deferred_library library) {
    void *handle = __atomic_load_n(&handles[library], __ATOMIC_ACQUIRE);
    if (!handle) {
        // Two threads may both open it: dlopen counts references and returns the same handle.
        handle = dlopen(glance_deferred_soname(library), RTLD_NOW | RTLD_LOCAL);
        if (handle) __atomic_store_n(&handles[library], handle, __ATOMIC_RELEASE);
    }
    return handle;
}

void *glance_deferred_lookup(enum glance_deferred_library library, const char *name, const char **error) {
    void *handle = open_library(library);
    if (!handle) {
        if (error) *error = dlerror();
        return NULL;
    }
    dlerror();
    void *symbol = dlsym(handle, name);
    if (!symbol && error) *error = dlerror();
    return symbol;
}

void *glance_deferred_symbol(enum glance_deferred_library library, const char *name) {
    if (!open_library(library)) {
        fprintf(stderr, "glance: cannot load %s (%s): install the Debian package %s\n", glance_deferred_soname(library),
                dlerror(), packages[library]);
        glance_restore_and_exit(EX_UNAVAILABLE);
    }
    void *symbol = glance_deferred_lookup(library, name, NULL);
    if (!symbol) {
        fprintf(stderr, "glance: %s has no %s: install the Debian package %s of the version glance was built with\n",
                glance_deferred_soname(library), name, packages[library]);
        glance_restore_and_exit(EX_UNAVAILABLE);
    }
    return symbol;
}

// `f`: the real function `name`, looked up on the first call.
#define RESOLVE(library, name)                                                                   \
    static __typeof__(&name) real;                                                               \
    __typeof__(&name) f = __atomic_load_n(&real, __ATOMIC_ACQUIRE);                              \
    if (!f) {                                                                                    \
        f = (__typeof__(&name))glance_deferred_symbol(library, #name);                           \
        __atomic_store_n(&real, f, __ATOMIC_RELEASE);                                            \
    }
#define STUB(library, ret, name, params, args)                                                   \
    __attribute__((visibility("hidden"))) ret name params {                                      \
        RESOLVE(library, name)                                                                   \
        return f args;                                                                           \
    }
#define VOID_STUB(library, name, params, args)                                                   \
    __attribute__((visibility("hidden"))) void name params {                                     \
        RESOLVE(library, name)                                                                   \
        f args;                                                                                  \
    }
#include "stubs.def"
#undef STUB
#undef VOID_STUB

// The same list as a table of names.
static const struct {
    enum glance_deferred_library library;
    const char *name;
} stubs[] = {
#define STUB(library, ret, name, params, args) {library, #name},
#define VOID_STUB(library, name, params, args) {library, #name},
#include "stubs.def"
#undef STUB
#undef VOID_STUB
};

size_t glance_deferred_stub_count(void) { return sizeof stubs / sizeof stubs[0]; }

const char *glance_deferred_stub_name(size_t index, enum glance_deferred_library *library) {
    if (index >= glance_deferred_stub_count()) return NULL;
    if (library) *library = stubs[index].library;
    return stubs[index].name;
}

// Functions of libraries loaded on first use (see CDeferred.h): each stub has the library's own
// prototype (the headers check it) and calls the real function, found by dlsym once. The stubs
// are hidden, so the libraries, once open, still bind to their own functions.
#include "CDeferred.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <archive.h>
#include <archive_entry.h>
#include <microhttpd.h>
#include <mosquitto.h>
#include <qrencode.h>

// The sonames, also read from the binary by tools/build-deb.sh (section glance_deferred) for the
// package's Depends, since the dynamic loader no longer lists them.
__attribute__((section("glance_deferred"), used)) static const char sonames[] =
    "libarchive.so.13\0libmicrohttpd.so.12\0libmosquitto.so.1\0libqrencode.so.4\0";
static const unsigned short soname_offsets[GLANCE_DEFERRED_COUNT] = {0, 17, 37, 55};
static const char *const packages[GLANCE_DEFERRED_COUNT] = {"libarchive13", "libmicrohttpd12", "libmosquitto1",
                                                            "libqrencode4"};
static void *handles[GLANCE_DEFERRED_COUNT];

const char *glance_deferred_soname(enum glance_deferred_library library) { return sonames + soname_offsets[library]; }

int glance_deferred_is_open(enum glance_deferred_library library) {
    return __atomic_load_n(&handles[library], __ATOMIC_ACQUIRE) != NULL;
}

void *glance_deferred_symbol(enum glance_deferred_library library, const char *name) {
    void *handle = __atomic_load_n(&handles[library], __ATOMIC_ACQUIRE);
    if (!handle) {
        // Two threads may both open it: dlopen counts references and returns the same handle.
        handle = dlopen(glance_deferred_soname(library), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            fprintf(stderr, "glance: cannot load %s (%s): install the Debian package %s\n",
                    glance_deferred_soname(library), dlerror(), packages[library]);
            abort();
        }
        __atomic_store_n(&handles[library], handle, __ATOMIC_RELEASE);
    }
    void *symbol = dlsym(handle, name);
    if (!symbol) {
        fprintf(stderr, "glance: %s has no %s: install the Debian package %s of the version glance was built with\n",
                glance_deferred_soname(library), name, packages[library]);
        abort();
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

// libarchive: glance import of export.zip.
#define A GLANCE_DEFERRED_ARCHIVE
STUB(A, int, archive_entry_is_encrypted, (struct archive_entry *e), (e))
STUB(A, const char *, archive_entry_pathname, (struct archive_entry *e), (e))
STUB(A, la_int64_t, archive_entry_size, (struct archive_entry *e), (e))
STUB(A, int, archive_entry_size_is_set, (struct archive_entry *e), (e))
STUB(A, const char *, archive_error_string, (struct archive *a), (a))
STUB(A, la_ssize_t, archive_read_data, (struct archive *a, void *buffer, size_t size), (a, buffer, size))
STUB(A, int, archive_read_data_skip, (struct archive *a), (a))
STUB(A, int, archive_read_free, (struct archive *a), (a))
STUB(A, struct archive *, archive_read_new, (void), ())
STUB(A, int, archive_read_next_header, (struct archive *a, struct archive_entry **e), (a, e))
STUB(A, int, archive_read_open,
     (struct archive *a, void *data, archive_open_callback *open, archive_read_callback *read,
      archive_close_callback *close),
     (a, data, open, read, close))
STUB(A, int, archive_read_open_filename, (struct archive *a, const char *path, size_t block), (a, path, block))
STUB(A, int, archive_read_support_format_zip, (struct archive *a), (a))
#undef A

// libmicrohttpd: glance serve (its variadic calls are in CHTTPD, through glance_deferred_symbol).
#define H GLANCE_DEFERRED_MICROHTTPD
STUB(H, enum MHD_Result, MHD_add_response_header, (struct MHD_Response *r, const char *header, const char *content),
     (r, header, content))
STUB(H, struct MHD_Response *, MHD_create_response_from_buffer,
     (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
VOID_STUB(H, MHD_destroy_response, (struct MHD_Response *r), (r))
STUB(H, int, MHD_get_connection_values,
     (struct MHD_Connection *c, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator, void *context),
     (c, kind, iterator, context))
STUB(H, enum MHD_Result, MHD_get_timeout, (struct MHD_Daemon *d, MHD_UNSIGNED_LONG_LONG *timeout), (d, timeout))
STUB(H, const char *, MHD_lookup_connection_value, (struct MHD_Connection *c, enum MHD_ValueKind kind, const char *key),
     (c, kind, key))
STUB(H, enum MHD_Result, MHD_queue_response, (struct MHD_Connection *c, unsigned int status, struct MHD_Response *r),
     (c, status, r))
STUB(H, enum MHD_Result, MHD_run, (struct MHD_Daemon *d), (d))
VOID_STUB(H, MHD_stop_daemon, (struct MHD_Daemon *d), (d))
#undef H

// libmosquitto: gauges from MQTT.
#define M GLANCE_DEFERRED_MOSQUITTO
STUB(M, const char *, mosquitto_connack_string, (int code), (code))
STUB(M, int, mosquitto_connect_async, (struct mosquitto *m, const char *host, int port, int keepalive),
     (m, host, port, keepalive))
VOID_STUB(M, mosquitto_connect_callback_set, (struct mosquitto *m, void (*cb)(struct mosquitto *, void *, int)), (m, cb))
VOID_STUB(M, mosquitto_destroy, (struct mosquitto *m), (m))
STUB(M, int, mosquitto_disconnect, (struct mosquitto *m), (m))
VOID_STUB(M, mosquitto_disconnect_callback_set, (struct mosquitto *m, void (*cb)(struct mosquitto *, void *, int)),
          (m, cb))
STUB(M, int, mosquitto_lib_init, (void), ())
STUB(M, int, mosquitto_loop_misc, (struct mosquitto *m), (m))
STUB(M, int, mosquitto_loop_read, (struct mosquitto *m, int max), (m, max))
STUB(M, int, mosquitto_loop_write, (struct mosquitto *m, int max), (m, max))
VOID_STUB(M, mosquitto_message_callback_set,
          (struct mosquitto *m, void (*cb)(struct mosquitto *, void *, const struct mosquitto_message *)), (m, cb))
STUB(M, struct mosquitto *, mosquitto_new, (const char *id, bool clean, void *obj), (id, clean, obj))
STUB(M, int, mosquitto_socket, (struct mosquitto *m), (m))
STUB(M, const char *, mosquitto_strerror, (int code), (code))
STUB(M, int, mosquitto_subscribe, (struct mosquitto *m, int *mid, const char *sub, int qos), (m, mid, sub, qos))
STUB(M, int, mosquitto_tls_set,
     (struct mosquitto *m, const char *cafile, const char *capath, const char *certfile, const char *keyfile,
      int (*pw)(char *buf, int size, int rwflag, void *userdata)),
     (m, cafile, capath, certfile, keyfile, pw))
STUB(M, int, mosquitto_username_pw_set, (struct mosquitto *m, const char *user, const char *password),
     (m, user, password))
STUB(M, bool, mosquitto_want_write, (struct mosquitto *m), (m))
#undef M

// libqrencode: the serve token's QR code.
#define Q GLANCE_DEFERRED_QRENCODE
STUB(Q, QRcode *, QRcode_encodeString,
     (const char *string, int version, QRecLevel level, QRencodeMode hint, int casesensitive),
     (string, version, level, hint, casesensitive))
VOID_STUB(Q, QRcode_free, (QRcode * code), (code))
#undef Q

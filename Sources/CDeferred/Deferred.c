// Functions of libraries loaded on first use (see CDeferred.h): each stub has the library's own
// prototype (the headers check it) and calls the real function, found by dlsym once. The stubs
// are hidden, so the libraries, once open, still bind to their own functions.
#include "CDeferred.h"
#include "KernelShims.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sysexits.h>

#include <archive.h>
#include <archive_entry.h>
#include <fontconfig/fontconfig.h>
#include <microhttpd.h>
#include <mosquitto.h>
#include <qrencode.h>
// As CXML includes them (ICU's parts left out, which no stub needs).
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/SAX2.h>
#include <libxml/parser.h>

// The sonames, also read from the binary by tools/build-deb.sh (section glance_deferred) for the
// package's Depends, since the dynamic loader no longer lists them.
__attribute__((section("glance_deferred"), used)) static const char sonames[] =
    "libarchive.so.13\0libmicrohttpd.so.12\0libmosquitto.so.1\0libqrencode.so.4\0libxml2.so.2\0libfontconfig.so.1\0";
static const unsigned short soname_offsets[GLANCE_DEFERRED_COUNT] = {0, 17, 37, 55, 72, 85};
static const char *const packages[GLANCE_DEFERRED_COUNT] = {"libarchive13", "libmicrohttpd12", "libmosquitto1",
                                                            "libqrencode4", "libxml2",         "libfontconfig1"};
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
            glance_restore_and_exit(EX_UNAVAILABLE);
        }
        __atomic_store_n(&handles[library], handle, __ATOMIC_RELEASE);
    }
    void *symbol = dlsym(handle, name);
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
STUB(M, int, mosquitto_connect_bind_v5,
     (struct mosquitto *m, const char *host, int port, int keepalive, const char *bind_address,
      const mosquitto_property *properties),
     (m, host, port, keepalive, bind_address, properties))
STUB(M, int, mosquitto_int_option, (struct mosquitto *m, enum mosq_opt_t option, int value), (m, option, value))
STUB(M, int, mosquitto_property_add_int32, (mosquitto_property **list, int identifier, uint32_t value),
     (list, identifier, value))
VOID_STUB(M, mosquitto_property_free_all, (mosquitto_property **list), (list))
STUB(M, const char *, mosquitto_reason_string, (int code), (code))
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
STUB(M, int, mosquitto_publish,
     (struct mosquitto *m, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain),
     (m, mid, topic, payloadlen, payload, qos, retain))
STUB(M, const char *, mosquitto_strerror, (int code), (code))
STUB(M, int, mosquitto_subscribe, (struct mosquitto *m, int *mid, const char *sub, int qos), (m, mid, sub, qos))
STUB(M, int, mosquitto_tls_set,
     (struct mosquitto *m, const char *cafile, const char *capath, const char *certfile, const char *keyfile,
      int (*pw)(char *buf, int size, int rwflag, void *userdata)),
     (m, cafile, capath, certfile, keyfile, pw))
STUB(M, int, mosquitto_username_pw_set, (struct mosquitto *m, const char *user, const char *password),
     (m, user, password))
STUB(M, bool, mosquitto_want_write, (struct mosquitto *m), (m))
STUB(M, int, mosquitto_will_set,
     (struct mosquitto *m, const char *topic, int payloadlen, const void *payload, int qos, bool retain),
     (m, topic, payloadlen, payload, qos, retain))
#undef M

// libqrencode: the serve token's QR code.
#define Q GLANCE_DEFERRED_QRENCODE
STUB(Q, QRcode *, QRcode_encodeString,
     (const char *string, int version, QRecLevel level, QRencodeMode hint, int casesensitive),
     (string, version, level, hint, casesensitive))
VOID_STUB(Q, QRcode_free, (QRcode * code), (code))
#undef Q

// libxml2: glance import of export.xml (with ICU and liblzma, the largest libraries the loader
// opened at every start).
#define X GLANCE_DEFERRED_XML
STUB(X, xmlParserCtxtPtr, xmlCreatePushParserCtxt,
     (xmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size, const char *filename),
     (sax, user_data, chunk, size, filename))
STUB(X, int, xmlCtxtUseOptions, (xmlParserCtxtPtr ctxt, int options), (ctxt, options))
STUB(X, size_t, xmlDictGetUsage, (xmlDictPtr dict), (dict))
STUB(X, size_t, xmlDictSetLimit, (xmlDictPtr dict, size_t limit), (dict, limit))
VOID_STUB(X, xmlFreeParserCtxt, (xmlParserCtxtPtr ctxt), (ctxt))
STUB(X, int, xmlParseChunk, (xmlParserCtxtPtr ctxt, const char *chunk, int size, int terminate),
     (ctxt, chunk, size, terminate))
STUB(X, int, xmlSAX2GetColumnNumber, (void *ctx), (ctx))
STUB(X, int, xmlSAX2GetLineNumber, (void *ctx), (ctx))
VOID_STUB(X, xmlStopParser, (xmlParserCtxtPtr ctxt), (ctxt))
#undef X

// fontconfig: fonts not found at their Debian paths (Text's PackagedFonts), or FONTCONFIG_FILE set.
#define F GLANCE_DEFERRED_FONTCONFIG
STUB(F, FcBool, FcCharSetHasChar, (const FcCharSet *set, FcChar32 c), (set, c))
STUB(F, FcConfig *, FcConfigGetCurrent, (void), ())
STUB(F, FcBool, FcConfigSubstitute, (FcConfig *config, FcPattern *p, FcMatchKind kind), (config, p, kind))
VOID_STUB(F, FcDefaultSubstitute, (FcPattern *p), (p))
STUB(F, FcPattern *, FcFontMatch, (FcConfig *config, FcPattern *p, FcResult *result), (config, p, result))
STUB(F, FcBool, FcInit, (void), ())
STUB(F, FcBool, FcLangSetAdd, (FcLangSet *set, const FcChar8 *lang), (set, lang))
STUB(F, FcLangSet *, FcLangSetCreate, (void), ())
VOID_STUB(F, FcLangSetDestroy, (FcLangSet *set), (set))
STUB(F, FcBool, FcPatternAddInteger, (FcPattern *p, const char *object, int i), (p, object, i))
STUB(F, FcBool, FcPatternAddLangSet, (FcPattern *p, const char *object, const FcLangSet *set), (p, object, set))
STUB(F, FcBool, FcPatternAddString, (FcPattern *p, const char *object, const FcChar8 *s), (p, object, s))
STUB(F, FcPattern *, FcPatternCreate, (void), ())
VOID_STUB(F, FcPatternDestroy, (FcPattern *p), (p))
STUB(F, FcResult, FcPatternGetCharSet, (const FcPattern *p, const char *object, int n, FcCharSet **set),
     (p, object, n, set))
STUB(F, FcResult, FcPatternGetInteger, (const FcPattern *p, const char *object, int n, int *i), (p, object, n, i))
STUB(F, FcResult, FcPatternGetString, (const FcPattern *p, const char *object, int n, FcChar8 **s), (p, object, n, s))
STUB(F, int, FcWeightFromOpenType, (int weight), (weight))
#undef F

// libmicrohttpd through calls Swift can make: its daemon start and its info queries are
// variadic, which Swift cannot call, and its logger takes a va_list. The rest of the API is used
// as it is.
#ifndef GLANCE_CHTTPD_H
#define GLANCE_CHTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

// A message of libmicrohttpd's, formatted (at most 511 bytes).
typedef void (*glance_httpd_log_fn)(void *context, const char *message);

// What a daemon is started with.
struct glance_httpd_settings {
    // A sockaddr_in or sockaddr_in6.
    const struct sockaddr *address;
    // Idle connections are closed after `timeout_seconds`; at most `connection_limit` in all
    // and `per_ip_limit` from one address (more are closed at once).
    unsigned timeout_seconds, connection_limit, per_ip_limit;
    // TLS when both are given (PEM text).
    const char *key_pem, *cert_pem;
    MHD_AccessHandlerCallback handler;
    void *handler_context;
    MHD_RequestCompletedCallback completed;
    void *completed_context;
    // Every connection's start and end.
    MHD_NotifyConnectionCallback notify;
    void *notify_context;
    glance_httpd_log_fn log;
    void *log_context;
};

// Starts a daemon for an external epoll loop (MHD_USE_EPOLL, no thread of its own). Paths and
// query arguments reach the handler as sent (not percent-decoded: the caller decodes them once).
// NULL on failure (errno may say why).
struct MHD_Daemon *glance_httpd_start(const struct glance_httpd_settings *settings);

// The epoll descriptor to wait on (readable: call MHD_run); -1 when there is none.
int glance_httpd_epoll_fd(struct MHD_Daemon *daemon);

// The port the daemon listens on (the one chosen when 0 was asked); 0 when unknown.
unsigned glance_httpd_port(struct MHD_Daemon *daemon);

// The client's address as text ("192.168.1.20", "::1") into `buffer`; 0 on success.
int glance_httpd_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

// The connection's socket; -1 when unknown.
int glance_httpd_connection_fd(struct MHD_Connection *connection);

// What the notify callback stored for the connection (NULL when nothing).
void *glance_httpd_socket_context(struct MHD_Connection *connection);

#endif

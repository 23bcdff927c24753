#include "CHTTPD.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// Paths and arguments as sent: the caller decodes them, once.
static size_t unescape_nothing(void *context, struct MHD_Connection *connection, char *s) {
    (void)context;
    (void)connection;
    return strlen(s);
}

// libmicrohttpd's messages, formatted, to the caller's function (the same for every daemon).
static glance_httpd_log_fn log_function;

static void format_message(void *context, const char *format, va_list arguments) {
    int saved = errno;  // a failed start's errno says why; the message must not change it
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    size_t n = strlen(message);
    while (n > 0 && (message[n - 1] == '\n' || message[n - 1] == '\r')) message[--n] = 0;
    if (log_function != NULL) log_function(context, message);
    errno = saved;
}

struct MHD_Daemon *glance_httpd_start(const struct glance_httpd_settings *s) {
    unsigned flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
    uint16_t port = 0;
    if (s->address->sa_family == AF_INET6) {
        flags |= MHD_USE_IPv6;
        port = ntohs(((const struct sockaddr_in6 *)s->address)->sin6_port);
    } else {
        port = ntohs(((const struct sockaddr_in *)s->address)->sin_port);
    }
    log_function = s->log;
    int tls = s->key_pem != NULL && s->cert_pem != NULL;
    if (tls) flags |= MHD_USE_TLS;
    return MHD_start_daemon(flags, port, NULL, NULL, s->handler, s->handler_context,
                            MHD_OPTION_EXTERNAL_LOGGER, format_message, s->log_context,
                            MHD_OPTION_SOCK_ADDR, s->address,
                            MHD_OPTION_CONNECTION_TIMEOUT, s->timeout_seconds,
                            MHD_OPTION_CONNECTION_LIMIT, s->connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, s->per_ip_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, s->completed, s->completed_context,
                            MHD_OPTION_NOTIFY_CONNECTION, s->notify, s->notify_context,
                            MHD_OPTION_UNESCAPE_CALLBACK, unescape_nothing, NULL,
                            tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, s->key_pem,
                            MHD_OPTION_HTTPS_MEM_CERT, s->cert_pem,
                            MHD_OPTION_END);
}

int glance_httpd_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

unsigned glance_httpd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

int glance_httpd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || size == 0) return -1;
    const struct sockaddr *a = info->client_addr;
    const void *raw = NULL;
    if (a->sa_family == AF_INET) raw = &((const struct sockaddr_in *)a)->sin_addr;
    else if (a->sa_family == AF_INET6) raw = &((const struct sockaddr_in6 *)a)->sin6_addr;
    else return -1;
    return inet_ntop(a->sa_family, raw, buffer, (socklen_t)size) == NULL ? -1 : 0;
}

int glance_httpd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

void *glance_httpd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

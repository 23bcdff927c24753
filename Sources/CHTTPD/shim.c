#include "CHTTPD.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <CDeferred.h>

// libmicrohttpd is opened on first use (CDeferred): its variadic functions through pointers.
#define MHD_DEFERRED(name) ((__typeof__(&name))glance_deferred_symbol(GLANCE_DEFERRED_MICROHTTPD, #name))
#define MHD_start_daemon MHD_DEFERRED(MHD_start_daemon)
#define MHD_get_daemon_info MHD_DEFERRED(MHD_get_daemon_info)
#define MHD_get_connection_info MHD_DEFERRED(MHD_get_connection_info)

struct MHD_Daemon *glance_httpd_start(const struct sockaddr *address, unsigned timeout_seconds,
                                      unsigned connection_limit, unsigned per_ip_limit,
                                      const char *key_pem, const char *cert_pem,
                                      MHD_AccessHandlerCallback handler, void *handler_context,
                                      MHD_RequestCompletedCallback completed, void *completed_context) {
    unsigned flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
    if (address->sa_family == AF_INET6) flags |= MHD_USE_IPv6;
    if (key_pem != NULL && cert_pem != NULL) {
        flags |= MHD_USE_TLS;
        return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                                MHD_OPTION_SOCK_ADDR, address,
                                MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                                MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                                MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
                                MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                                MHD_OPTION_HTTPS_MEM_KEY, key_pem,
                                MHD_OPTION_HTTPS_MEM_CERT, cert_pem,
                                MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
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

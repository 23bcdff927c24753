// libmicrohttpd through calls Swift can make: its daemon start and its info queries are
// variadic, which Swift cannot call. The rest of the API is used as it is.
#ifndef GLANCE_CHTTPD_H
#define GLANCE_CHTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

// Starts a daemon for an external epoll loop (MHD_USE_EPOLL, no thread of its own) bound to
// `address` (a sockaddr_in or sockaddr_in6), with TLS when `key_pem` and `cert_pem` are given.
// Idle connections are closed after `timeout_seconds`; at most `connection_limit` in all and
// `per_ip_limit` from one address. NULL on failure (errno may say why).
struct MHD_Daemon *glance_httpd_start(const struct sockaddr *address, unsigned timeout_seconds,
                                      unsigned connection_limit, unsigned per_ip_limit,
                                      const char *key_pem, const char *cert_pem,
                                      MHD_AccessHandlerCallback handler, void *handler_context,
                                      MHD_RequestCompletedCallback completed, void *completed_context);

// The epoll descriptor to wait on (readable: call MHD_run); -1 when there is none.
int glance_httpd_epoll_fd(struct MHD_Daemon *daemon);

// The port the daemon listens on (the one chosen when 0 was asked); 0 when unknown.
unsigned glance_httpd_port(struct MHD_Daemon *daemon);

// The client's address as text ("192.168.1.20", "::1") into `buffer`; 0 on success.
int glance_httpd_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

#endif

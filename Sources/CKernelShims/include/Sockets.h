// Unix sockets that carry a file descriptor (SCM_RIGHTS: its control message is built by macros
// Swift cannot import), memfd_create(2) and pipe2(2) (not in every libc's headers without _GNU_SOURCE).
#ifndef GLANCE_SOCKETS_H
#define GLANCE_SOCKETS_H

#include <stddef.h>
#include <sys/types.h>

// An anonymous file in memory, close-on-exec; -1 with errno on failure.
int glance_memfd(const char *name);

// sendmsg(2) of `length` bytes and, when fd >= 0, the descriptor `fd` with them; MSG_NOSIGNAL
// (a peer that went away is EPIPE, not SIGPIPE), MSG_DONTWAIT when `nonblocking`. EINTR retried.
ssize_t glance_send_with_fd(int socket, const void *bytes, size_t length, int fd, int nonblocking);

// recvmsg(2) of at most `capacity` bytes; a descriptor that came with them (close-on-exec) in
// *fd, else -1 there. MSG_DONTWAIT when `nonblocking`. EINTR retried.
ssize_t glance_receive_with_fd(int socket, void *bytes, size_t capacity, int *fd, int nonblocking);

// accept4(2), non-blocking and close-on-exec (not in every libc's headers without _GNU_SOURCE).
int glance_accept(int socket);

// pipe2(2) with both ends close-on-exec from the start (no window in which a process another
// thread spawns inherits them); 0, or -1 with errno.
int glance_pipe_cloexec(int fds[2]);

// The user id of the process at the other end of a connected Unix socket (SO_PEERCRED, as it was
// when it connected); 0, or -1 with errno.
int glance_peer_uid(int socket, unsigned int *uid);

// Bytes this end sent that the other end has not read yet (SIOCOUTQ; on a Unix socket, with the
// descriptors they carry); -1 with errno on failure.
int glance_unread_bytes(int socket);

#endif

#define _GNU_SOURCE
#include "Sockets.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/sockios.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int glance_memfd(const char *name) {
#ifdef SYS_memfd_create
    return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC);
#else
    errno = ENOSYS;
    return -1;
#endif
}

ssize_t glance_send_with_fd(int socket, const void *bytes, size_t length, int fd, int nonblocking) {
    struct iovec iov = {.iov_base = (void *)bytes, .iov_len = length};
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        message.msg_control = control.buffer;
        message.msg_controllen = sizeof control.buffer;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &fd, sizeof(int));
    }
    int flags = MSG_NOSIGNAL | (nonblocking ? MSG_DONTWAIT : 0);
    ssize_t n;
    do {
        n = sendmsg(socket, &message, flags);
    } while (n < 0 && errno == EINTR);
    return n;
}

ssize_t glance_receive_with_fd(int socket, void *bytes, size_t capacity, int *fd, int nonblocking) {
    struct iovec iov = {.iov_base = bytes, .iov_len = capacity};
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buffer,
                             .msg_controllen = sizeof control.buffer};
    int flags = MSG_CMSG_CLOEXEC | (nonblocking ? MSG_DONTWAIT : 0);
    ssize_t n;
    do {
        n = recvmsg(socket, &message, flags);
    } while (n < 0 && errno == EINTR);
    *fd = -1;
    if (n < 0) return n;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&message); h != NULL; h = CMSG_NXTHDR(&message, h)) {
        if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS && h->cmsg_len >= CMSG_LEN(sizeof(int))) {
            int received;
            memcpy(&received, CMSG_DATA(h), sizeof(int));
            if (*fd < 0) {
                *fd = received;
            } else {
                close(received);
            }
        }
    }
    return n;
}

int glance_accept(int socket) { return accept4(socket, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK); }

int glance_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int glance_peer_uid(int socket, unsigned int *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = (unsigned int)credentials.uid;
    return 0;
}

int glance_unread_bytes(int socket) {
    int bytes = 0;
    if (ioctl(socket, SIOCOUTQ, &bytes) != 0) return -1;
    return bytes;
}

#include "KernelShims.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <libdrm/drm.h>

int glance_ioctl(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }

int glance_ioctl_int(int fd, unsigned long request, unsigned long argument) {
    return ioctl(fd, request, argument);
}

const unsigned long glance_DRM_IOCTL_MODE_CREATE_DUMB = DRM_IOCTL_MODE_CREATE_DUMB;
const unsigned long glance_DRM_IOCTL_MODE_MAP_DUMB = DRM_IOCTL_MODE_MAP_DUMB;
const unsigned long glance_DRM_IOCTL_MODE_DESTROY_DUMB = DRM_IOCTL_MODE_DESTROY_DUMB;

unsigned long glance_EVIOCGNAME(unsigned int length) { return EVIOCGNAME(length); }
unsigned long glance_EVIOCGPHYS(unsigned int length) { return EVIOCGPHYS(length); }
unsigned long glance_EVIOCGBIT(unsigned int type, unsigned int length) { return EVIOCGBIT(type, length); }
unsigned long glance_EVIOCGPROP(unsigned int length) { return EVIOCGPROP(length); }
unsigned long glance_EVIOCGABS(unsigned int axis) { return EVIOCGABS(axis); }
const unsigned long glance_EVIOCGID = EVIOCGID;
const unsigned long glance_EVIOCGRAB = EVIOCGRAB;

// ---------------------------------------------------------------- fatal-signal restore
//
// Three independent registrations, each put back by one handler: the CRTC (after the app's first
// mode set), the console (from graphics mode on) and the backlight. Everything the handler
// touches is static memory; it calls only async-signal-safe functions (ioctl, open, write,
// close, signal, raise), on an alternate stack so a stack overflow restores too.

#define MAX_CONNECTORS 8

static struct {
    volatile sig_atomic_t armed;
    int drm_fd;
    uint32_t connectors[MAX_CONNECTORS];
    struct drm_mode_crtc crtc;
} saved;

static struct {
    volatile sig_atomic_t armed;
    int fd;
} console;

static struct {
    volatile sig_atomic_t armed;
    char path[256];
    char text[24];
} backlight;

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGQUIT};

// Puts back what is registered; whether the display was (the CRTC or the console).
static int restore_registered(void) {
    int restored = 0;
    if (backlight.armed) {
        backlight.armed = 0;
        int fd = open(backlight.path, O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            ssize_t ignored = write(fd, backlight.text, strlen(backlight.text));
            (void)ignored;
            close(fd);
        }
    }
    if (saved.armed) {
        saved.armed = 0;
        ioctl(saved.drm_fd, DRM_IOCTL_MODE_SETCRTC, &saved.crtc);
        restored = 1;
    }
    if (console.armed) {
        console.armed = 0;
        struct vt_mode automatic;
        memset(&automatic, 0, sizeof automatic);
        automatic.mode = VT_AUTO;
        ioctl(console.fd, VT_SETMODE, &automatic);
        ioctl(console.fd, KDSETMODE, (unsigned long)KD_TEXT);
        restored = 1;
    }
    return restored;
}

static void restore_and_reraise(int signal_number) {
    int saved_errno = errno;
    if (restore_registered()) {
        static const char note[] = "glance: fatal signal: display restored\n";
        ssize_t ignored = write(2, note, sizeof note - 1);
        (void)ignored;
    }
    errno = saved_errno;
    // Default action (core dump / termination) with the signal's own number.
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

static void install_handler(void) {
    static int installed;
    if (installed) return;
    installed = 1;
    static char alternate_stack[64 * 1024];
    stack_t stack;
    memset(&stack, 0, sizeof stack);
    stack.ss_sp = alternate_stack;
    stack.ss_size = sizeof alternate_stack;
    sigaltstack(&stack, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = restore_and_reraise;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
    for (unsigned i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        sigaction(fatal_signals[i], &action, NULL);
}

void glance_crash_restore_arm(int drm_fd, uint32_t crtc_id, uint32_t fb_id, uint32_t x, uint32_t y,
                              const uint32_t *connectors, uint32_t connector_count, const void *mode) {
    saved.armed = 0;
    memset(&saved.crtc, 0, sizeof saved.crtc);
    if (connector_count > MAX_CONNECTORS) connector_count = MAX_CONNECTORS;
    if (connectors) memcpy(saved.connectors, connectors, connector_count * sizeof(uint32_t));
    saved.drm_fd = drm_fd;
    saved.crtc.crtc_id = crtc_id;
    saved.crtc.fb_id = fb_id;
    saved.crtc.x = x;
    saved.crtc.y = y;
    saved.crtc.set_connectors_ptr = (uint64_t)(uintptr_t)saved.connectors;
    saved.crtc.count_connectors = mode ? connector_count : 0;
    if (mode) {
        memcpy(&saved.crtc.mode, mode, sizeof saved.crtc.mode);
        saved.crtc.mode_valid = 1;
    }
    install_handler();
    saved.armed = 1;
}

void glance_crash_restore_disarm(void) { saved.armed = 0; }

void glance_restore_and_exit(int status) {
    if (restore_registered()) {
        static const char note[] = "glance: display restored\n";
        ssize_t ignored = write(2, note, sizeof note - 1);
        (void)ignored;
    }
    _exit(status);
}

void glance_crash_restore_console(int vt_fd) {
    console.armed = 0;
    if (vt_fd < 0) return;
    console.fd = vt_fd;
    install_handler();
    console.armed = 1;
}

int glance_crash_restore_backlight(const char *brightness_path, const char *text) {
    backlight.armed = 0;
    if (!text || strlen(brightness_path) >= sizeof backlight.path || strlen(text) >= sizeof backlight.text)
        return -1;
    strcpy(backlight.path, brightness_path);
    strcpy(backlight.text, text);
    install_handler();
    backlight.armed = 1;
    return 0;
}

void glance_crash_restore_backlight_disarm(void) { backlight.armed = 0; }

int glance_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

// Kernel interfaces Swift cannot import on its own: ioctl request numbers that are built by
// function-like macros (_IOR/_IOW/_IOWR), the variadic ioctl(2), signalfd and timerfd, and an
// async-signal-safe "put the panel back" for fatal signals.
#ifndef GLANCE_KERNEL_SHIMS_H
#define GLANCE_KERNEL_SHIMS_H

#include <stdint.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <linux/input.h>
#include <linux/kd.h>
#include <linux/vt.h>

#include "Sockets.h"

// ioctl(2) with a pointer argument (Swift cannot call the variadic one). One call, no retry.
int glance_ioctl(int fd, unsigned long request, void *argument);
// ioctl(2) with an integer argument (KDSETMODE, VT_ACTIVATE, VT_RELDISP, EVIOCGRAB).
int glance_ioctl_int(int fd, unsigned long request, unsigned long argument);

// DRM (the structures are libdrm's drm_mode.h, imported through CDRM).
extern const unsigned long glance_DRM_IOCTL_MODE_CREATE_DUMB;
extern const unsigned long glance_DRM_IOCTL_MODE_MAP_DUMB;
extern const unsigned long glance_DRM_IOCTL_MODE_DESTROY_DUMB;

// evdev: EVIOCGNAME(len), EVIOCGPHYS(len), EVIOCGBIT(type, len), EVIOCGPROP(len), EVIOCGABS(axis).
unsigned long glance_EVIOCGNAME(unsigned int length);
unsigned long glance_EVIOCGPHYS(unsigned int length);
unsigned long glance_EVIOCGBIT(unsigned int type, unsigned int length);
unsigned long glance_EVIOCGPROP(unsigned int length);
unsigned long glance_EVIOCGABS(unsigned int axis);
extern const unsigned long glance_EVIOCGID;
extern const unsigned long glance_EVIOCGRAB;

// Fatal-signal restore (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGQUIT; on an
// alternate stack). One handler puts back what is registered, from static memory (no
// allocation), then re-raises the signal:
// - the CRTC: after the app has set its own mode, a raw DRM_IOCTL_MODE_SETCRTC of the saved one.
//   `mode` points to a struct drm_mode_modeinfo (68 bytes) or is NULL when the CRTC had no mode.
void glance_crash_restore_arm(int drm_fd, uint32_t crtc_id, uint32_t fb_id, uint32_t x, uint32_t y,
                              const uint32_t *connectors, uint32_t connector_count, const void *mode);
// Forgets the CRTC (the normal restore has run).
void glance_crash_restore_disarm(void);
// - the console: automatic VT switching and text mode (registered when the console goes into
//   graphics mode; vt_fd < 0 forgets it).
void glance_crash_restore_console(int vt_fd);
// - the backlight: `text` (a brightness, "200\n") written to `brightness_path`. -1 when too long.
int glance_crash_restore_backlight(const char *brightness_path, const char *text);
void glance_crash_restore_backlight_disarm(void);
// Puts back what is registered, as the handler does, and ends the process with `status` (a
// library glance opens on first use is missing: EX_UNAVAILABLE, as for a missing font).
void glance_restore_and_exit(int status) __attribute__((noreturn));


/// An evdev event's timestamp in seconds (input_event_sec/usec are macros whose members differ
/// between 64-bit and 32-bit-with-64-bit-time builds).
static inline double glance_input_event_seconds(const struct input_event *e) {
    return (double)e->input_event_sec + (double)e->input_event_usec / 1e6;
}

// pidfd_open(2): a descriptor that becomes readable when the process ends (the poll loop waits
// for a refresh command with it). -1 with errno on failure (kernels before 5.3: ENOSYS).
int glance_pidfd_open(int pid);

#endif

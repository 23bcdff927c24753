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

// Fatal-signal restore. After the app has set its own mode it registers what to put back; a
// SIGSEGV/SIGBUS/SIGILL/SIGTRAP/SIGABRT/SIGFPE handler then re-sets the saved CRTC with a raw
// DRM_IOCTL_MODE_SETCRTC (from memory filled in here, no allocation), puts the VT back into
// automatic switching and text mode and re-raises the signal. `mode` points to a struct drm_mode_modeinfo (68 bytes) or
// is NULL when the CRTC had no mode; vt_fd < 0 skips the VT.
void glance_crash_restore_arm(int drm_fd, uint32_t crtc_id, uint32_t fb_id, uint32_t x, uint32_t y,
                              const uint32_t *connectors, uint32_t connector_count, const void *mode,
                              int vt_fd, int vt_mode);
// Forgets the registration (the normal restore has run).
void glance_crash_restore_disarm(void);
// The same handler also writes `text` (a brightness, "200\n") to `brightness_path`, so a crash
// while the panel is dimmed or dark leaves its backlight as it was. Copied into static memory;
// -1 when too long. Takes effect once glance_crash_restore_arm has installed the handler.
int glance_crash_restore_backlight(const char *brightness_path, const char *text);
void glance_crash_restore_backlight_disarm(void);


/// An evdev event's timestamp in seconds (input_event_sec/usec are macros whose members differ
/// between 64-bit and 32-bit-with-64-bit-time builds).
static inline double glance_input_event_seconds(const struct input_event *e) {
    return (double)e->input_event_sec + (double)e->input_event_usec / 1e6;
}

#endif

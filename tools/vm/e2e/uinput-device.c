/* uinput-device.c -- input devices qemu cannot give the VM tests, made with uinput:
 *
 *   uinput-device swipe right|left|up|down [WAIT_MS]
 *       a multi-touch screen (protocol B): once the app has picked it up (hot-plug), one finger
 *       swipes across it while a second finger lands and lifts
 *   uinput-device flood N [WAIT_MS]
 *       a keyboard that sends N taps of an unmapped key (KEY_A) faster than a reader can keep
 *       up, so the kernel drops events (SYN_DROPPED), then one tap of KEY_RIGHT
 *   uinput-device grabs
 *       no device made: for every /dev/input/event* node, whether another process holds it
 *       with EVIOCGRAB ("grabs: event0=grabbed event1=free ..."), by trying to grab it
 *
 * Prints "uinput-device: done" when the device is gone again. Exit status 0, or 1. */
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int fd;

static void emit(int type, int code, int value) {
	struct input_event e;
	memset(&e, 0, sizeof e);
	e.type = type;
	e.code = code;
	e.value = value;
	if (write(fd, &e, sizeof e) != sizeof e) perror("uinput-device: write");
}

static void frame(void) { emit(EV_SYN, SYN_REPORT, 0); }

static void sleep_ms(int ms) {
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
}

static void axis(int code, int max) {
	struct uinput_abs_setup a;
	memset(&a, 0, sizeof a);
	a.code = code;
	a.absinfo.maximum = max;
	if (ioctl(fd, UI_ABS_SETUP, &a) < 0) perror("uinput-device: UI_ABS_SETUP");
}

static int flood(int taps, int wait) {
	ioctl(fd, UI_SET_EVBIT, EV_KEY);
	ioctl(fd, UI_SET_KEYBIT, KEY_A);
	ioctl(fd, UI_SET_KEYBIT, KEY_RIGHT);
	struct uinput_setup setup;
	memset(&setup, 0, sizeof setup);
	setup.id.bustype = BUS_VIRTUAL;
	setup.id.vendor = 0x1209;
	setup.id.product = 0x6c62;
	strcpy(setup.name, "glance test flooding keyboard");
	if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) {
		perror("uinput-device: create");
		return 1;
	}
	sleep_ms(wait);
	for (int i = 0; i < taps; i++) {
		emit(EV_KEY, KEY_A, 1);
		frame();
		emit(EV_KEY, KEY_A, 0);
		frame();
	}
	emit(EV_KEY, KEY_RIGHT, 1);
	frame();
	sleep_ms(150);
	emit(EV_KEY, KEY_RIGHT, 0);
	frame();
	sleep_ms(800);
	ioctl(fd, UI_DEV_DESTROY);
	close(fd);
	puts("uinput-device: done");
	return 0;
}

/* EVIOCGRAB answers EBUSY while another descriptor holds the grab. */
static int grabs(void) {
	char path[64];
	printf("grabs:");
	for (int i = 0; i < 32; i++) {
		snprintf(path, sizeof path, "/dev/input/event%d", i);
		int d = open(path, O_RDONLY | O_NONBLOCK);
		if (d < 0) continue;
		if (ioctl(d, EVIOCGRAB, 1) == 0) {
			printf(" event%d=free", i);
			ioctl(d, EVIOCGRAB, 0);
		} else {
			printf(" event%d=%s", i, errno == EBUSY ? "grabbed" : strerror(errno));
		}
		close(d);
	}
	printf("\n");
	return 0;
}

int main(int argc, char **argv) {
	const char *mode = argc > 1 ? argv[1] : "swipe";
	if (!strcmp(mode, "grabs")) return grabs();
	fd = open("/dev/uinput", O_WRONLY);
	if (fd < 0) { perror("uinput-device: /dev/uinput"); return 1; }
	if (!strcmp(mode, "flood")) return flood(argc > 2 ? atoi(argv[2]) : 5000, argc > 3 ? atoi(argv[3]) : 1500);
	const char *dir = argc > 2 ? argv[2] : "left";
	int wait = argc > 3 ? atoi(argv[3]) : 1500;
	ioctl(fd, UI_SET_EVBIT, EV_KEY);
	ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH);
	ioctl(fd, UI_SET_EVBIT, EV_ABS);
	ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
	int codes[] = {ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y};
	for (int i = 0; i < 4; i++) { ioctl(fd, UI_SET_ABSBIT, codes[i]); axis(codes[i], 4095); }
	ioctl(fd, UI_SET_ABSBIT, ABS_MT_SLOT);
	axis(ABS_MT_SLOT, 9);
	ioctl(fd, UI_SET_ABSBIT, ABS_MT_TRACKING_ID);
	axis(ABS_MT_TRACKING_ID, 65535);
	struct uinput_setup setup;
	memset(&setup, 0, sizeof setup);
	setup.id.bustype = BUS_VIRTUAL;
	setup.id.vendor = 0x1209;
	setup.id.product = 0x6c61;
	strcpy(setup.name, "glance test touchscreen");
	if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) {
		perror("uinput-device: create");
		return 1;
	}
	sleep_ms(wait); /* the app notices the new node through inotify and opens it */
	int x0 = 2048, y0 = 2048, dx = 0, dy = 0;
	if (!strcmp(dir, "right")) { x0 = 800; dx = 250; }
	else if (!strcmp(dir, "left")) { x0 = 3300; dx = -250; }
	else if (!strcmp(dir, "up")) { y0 = 3300; dy = -250; }
	else { y0 = 800; dy = 250; }
	emit(EV_ABS, ABS_MT_SLOT, 0);
	emit(EV_ABS, ABS_MT_TRACKING_ID, 100);
	emit(EV_ABS, ABS_MT_POSITION_X, x0);
	emit(EV_ABS, ABS_MT_POSITION_Y, y0);
	emit(EV_KEY, BTN_TOUCH, 1);
	emit(EV_ABS, ABS_X, x0);
	emit(EV_ABS, ABS_Y, y0);
	frame();
	for (int i = 1; i <= 10; i++) {
		sleep_ms(20);
		emit(EV_ABS, ABS_MT_SLOT, 0);
		emit(EV_ABS, ABS_MT_POSITION_X, x0 + dx * i);
		emit(EV_ABS, ABS_MT_POSITION_Y, y0 + dy * i);
		if (i == 3) { /* a second finger lands elsewhere ... */
			emit(EV_ABS, ABS_MT_SLOT, 1);
			emit(EV_ABS, ABS_MT_TRACKING_ID, 101);
			emit(EV_ABS, ABS_MT_POSITION_X, 300);
			emit(EV_ABS, ABS_MT_POSITION_Y, 300);
		}
		if (i == 6) { /* ... and lifts: the first finger's swipe goes on */
			emit(EV_ABS, ABS_MT_SLOT, 1);
			emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
		}
		frame();
	}
	emit(EV_ABS, ABS_MT_SLOT, 0);
	emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
	emit(EV_KEY, BTN_TOUCH, 0);
	frame();
	sleep_ms(500);
	ioctl(fd, UI_DEV_DESTROY);
	close(fd);
	puts("uinput-device: done");
	return 0;
}

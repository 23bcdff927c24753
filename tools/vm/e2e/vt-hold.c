/* vt-hold.c -- a console owner that never lets go, for the VM tests: brings VT N to the front,
 * takes over its switching (VT_SETMODE VT_PROCESS) and ignores the release signal, so a switch
 * away from it never completes (as with a hung display server). Runs until killed.
 *
 *   vt-hold N
 *
 * Prints "vt-hold: holding ttyN" once in control. Exit status 1 when it cannot. */
#include <fcntl.h>
#include <linux/vt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 2;
	char path[32];
	snprintf(path, sizeof path, "/dev/tty%d", n);
	int fd = open(path, O_RDWR | O_NOCTTY);
	if (fd < 0) { perror("vt-hold: open"); return 1; }
	if (ioctl(fd, VT_ACTIVATE, n) < 0 || ioctl(fd, VT_WAITACTIVE, n) < 0) { perror("vt-hold: VT_ACTIVATE"); return 1; }
	/* The kernel sends the release signal and waits for VT_RELDISP, which never comes. */
	signal(SIGUSR1, SIG_IGN);
	struct vt_mode mode;
	memset(&mode, 0, sizeof mode);
	mode.mode = VT_PROCESS;
	mode.relsig = SIGUSR1;
	mode.acqsig = SIGUSR1;
	if (ioctl(fd, VT_SETMODE, &mode) < 0) { perror("vt-hold: VT_SETMODE"); return 1; }
	printf("vt-hold: holding tty%d\n", n);
	fflush(stdout);
	for (;;) pause();
}

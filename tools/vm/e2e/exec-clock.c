// exec-clock COMMAND [ARGS...]: says on standard error when it execs COMMAND, in milliseconds of
// CLOCK_BOOTTIME (the clock of glance's "… ms after kernel start"), then execs it in its place.
// bench-startup.sh's mark of the exec itself: glance's own "ms after exec" counts from the
// process's start as /proc/self/stat gives it, the fork, in whole clock ticks (10 ms), so it is
// 0-10 ms early, and earlier still by the shell's work between fork and exec. The clock is read
// before the line is written: the mark is a few microseconds early, never late.
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: exec-clock COMMAND [ARGS...]\n");
        return 64;
    }
    struct timespec t;
    if (clock_gettime(CLOCK_BOOTTIME, &t) != 0) {
        perror("exec-clock: clock_gettime(CLOCK_BOOTTIME)");
        return 71;
    }
    fprintf(stderr, "exec-clock: exec at %lld.%06ld ms after kernel start\n",
            (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000, t.tv_nsec % 1000000);
    execv(argv[1], argv + 1);
    perror(argv[1]);
    return 127;
}

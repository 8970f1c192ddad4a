/*
 * Tests of the interposer: the test program runs itself again with
 * libgemkit-preload.so in LD_PRELOAD, against a private gemd, exactly as
 * an unmodified DRM program would be run.
 */
#ifndef GEMKIT_PRELOAD_TEST_H
#define GEMKIT_PRELOAD_TEST_H

#include <stdint.h>

/*
 * In the first run: start gemd, run argv again under the interposer and
 * exit with its status (never returns).  In the second: gemtest_init.
 */
void preload_test_init(int argc, char **argv);

/* ioctl(2) as 0 or -errno, and GEM_CREATE through it (asserted). */
int pt_ioctl_errno(int fd, unsigned long req, void *arg);
uint32_t pt_create(int fd, uint64_t size);

#endif

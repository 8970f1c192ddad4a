/*
 * Tests of the interposer: the test program runs itself again with
 * libgemkit-preload.so in LD_PRELOAD, against a private gemd, exactly as
 * an unmodified DRM program would be run.
 */
#ifndef GEMKIT_PRELOAD_TEST_H
#define GEMKIT_PRELOAD_TEST_H

/*
 * In the first run: start gemd, run argv again under the interposer and
 * exit with its status (never returns).  In the second: gemtest_init.
 */
void preload_test_init(int argc, char **argv);

#endif

/*
 * preload_copyguard: under the interposer, libgem copies a pread or
 * pwrite of an idle object itself (driver/client/copyguard.h), small
 * copies too, and bad user memory is still EFAULT, never a crash.  The
 * program's sigaction and signal calls for SIGSEGV and SIGBUS keep
 * libgem's handler installed and chain to the program's
 * (driver/client/preload-signal.c), installed before libgem's first copy
 * or after it.
 */
#include <fcntl.h>
#include <unistd.h>

#include "copyguard-cases.h"
#include "gemtest.h"
#include "preload-test.h"

int main(int argc, char **argv)
{
	struct cg_dev d = { .ioctl = pt_ioctl_errno, .size = 128 << 10, .hooked = true };
	struct cg_dev small;

	preload_test_init(argc, argv);
	d.fd = open("/dev/dri/card0", O_RDWR);
	gt_assert(d.fd >= 0);
	small = d;
	small.size = 4096;

	/* First: no copy has installed libgem's handler yet. */
	gemtest_subtest("own-handlers-before-first-copy")
		cg_own_handlers(&d);
	gemtest_subtest("no-syscall-per-copy")
		cg_no_syscall(&d);
	gemtest_subtest("no-syscall-per-small-copy")
		cg_no_syscall(&small);
	gemtest_subtest("bad-pointers-efault")
		cg_bad_pointers(&d);
	gemtest_subtest("bad-pointers-efault-small")
		cg_bad_pointers(&small);
	gemtest_subtest("threads")
		cg_threads(&d);
	gemtest_subtest("fork")
		cg_fork(&d);
	gemtest_subtest("own-handlers-after-first-copy")
		cg_own_handlers(&d);
	gemtest_subtest("default-kills")
		cg_default_kills(&d);

	close(d.fd);
	return gemtest_exit();
}

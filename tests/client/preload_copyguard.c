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

	cg_run_all(&d, &small);

	close(d.fd);
	return gemtest_exit();
}

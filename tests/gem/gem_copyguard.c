/*
 * gem_copyguard: libgem alone copies a pread or pwrite of an idle object
 * itself (driver/client/copyguard.h), and bad user memory is still
 * EFAULT, never a crash: with the program's own SIGSEGV and SIGBUS
 * handlers installed before libgem's first copy (chained to), after it
 * (libgem then copies by system call), and back to SIG_DFL.
 */
#include <errno.h>

#include "copyguard-cases.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

static int ioctl_errno(int fd, unsigned long request, void *arg)
{
	return gem_ioctl(fd, request, arg) ? -errno : 0;
}

int main(int argc, char **argv)
{
	struct cg_dev d = { .ioctl = ioctl_errno, .size = 256 << 10 };

	d.fd = gt_start(argc, argv, NULL, 120);
	cg_run_all(&d, NULL);

	gem_close(d.fd);
	return gemtest_exit();
}

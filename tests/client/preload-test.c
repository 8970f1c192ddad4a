/* Run a test program again under the interposer (see preload-test.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "preload-test.h"

#define CHILD_ENV	"GEMKIT_PRELOAD_TEST"

void preload_test_init(int argc, char **argv)
{
	const char *build = getenv("GEMKIT_BUILD_DIR");
	char lib[PATH_MAX], shadow[PATH_MAX];
	int status;
	pid_t pid;

	gemtest_init(argc, argv);
	if (getenv(CHILD_ENV))
		return;
	snprintf(lib, sizeof(lib), "%s/.libs/libgemkit-preload.so",
		 build && *build ? build : ".");
	if (access(lib, R_OK)) {
		printf("1..0 # SKIP %s is not built\n", lib);
		exit(0);
	}
	gemtest_start_gemd(NULL);
	/* The interposer's sysfs tree goes with the test's directory. */
	snprintf(shadow, sizeof(shadow), "%s/shadow", gemtest_tmpdir());
	setenv("GEMKIT_SHADOW", shadow, 1);
	setenv("LD_PRELOAD", lib, 1);
	setenv(CHILD_ENV, "1", 1);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		printf("Bail out! fork: %s\n", strerror(errno));
		exit(1);
	}
	if (pid == 0) {
		execv("/proc/self/exe", argv);
		printf("Bail out! exec /proc/self/exe: %s\n", strerror(errno));
		_exit(1);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	gemtest_stop_gemd();
	exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

int pt_ioctl_errno(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

uint32_t pt_create(int fd, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	return c.handle;
}

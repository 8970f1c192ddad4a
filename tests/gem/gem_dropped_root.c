/*
 * gem_dropped_root: a device fd opened as root keeps working in a child
 * that dropped to nobody, as a kernel fd does (IGT's igt_drop_root() in a
 * forked child: gem_exec_params secure-non-root, core_setmaster
 * master-drop-set-shared-fd).  gemd's socket stays 0600 here, so the
 * child cannot connect to it any more: it asks for its channel through
 * the fd it holds.  Its privileges are the ones it has now: the kernel
 * checks capable(CAP_SYS_ADMIN) at each ioctl, and drm_master_check_perm
 * (drm_auth.c) lets only the opening process or an admin drop or set
 * master: -EACCES; i915_gem_do_execbuffer refuses I915_EXEC_SECURE to a
 * non-admin: -EPERM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

#define NOBODY	65534

#define child_check(cond) do { if (!(cond)) { \
	fprintf(stderr, "# child: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	_exit(1); } } while (0)

static int ioctl_errno(int fd, unsigned long request, void *arg)
{
	return gem_ioctl(fd, request, arg) ? -errno : 0;
}

/* IGT's is_master(): AUTH_MAGIC(0) is -EACCES unless master. */
static bool is_master(int fd)
{
	struct drm_auth auth = { .magic = 0 };

	return ioctl_errno(fd, DRM_IOCTL_AUTH_MAGIC, &auth) != -EACCES;
}

static void nobody_child(int master, uint32_t batch)
{
	int value = -1;
	struct drm_i915_getparam gp = {
		.param = I915_PARAM_CHIPSET_ID, .value = &value,
	};
	struct drm_i915_gem_create create = { .size = 4096 };
	struct gen3_batch b;

	if (setgid(NOBODY) || setuid(NOBODY))
		_exit(2);
	/* The path is closed to nobody now; the fd is not. */
	child_check(gem_open(NULL, 0) == -1 && errno == EACCES);
	child_check(ioctl_errno(master, DRM_IOCTL_I915_GETPARAM, &gp) == 0);
	child_check(value == 0x2772);
	child_check(ioctl_errno(master, DRM_IOCTL_I915_GEM_CREATE, &create) == 0);
	/* Still the master's file, but neither its process nor an admin. */
	child_check(is_master(master));
	child_check(ioctl_errno(master, DRM_IOCTL_DROP_MASTER, NULL) == -EACCES);
	child_check(ioctl_errno(master, DRM_IOCTL_SET_MASTER, NULL) == -EACCES);
	child_check(is_master(master));
	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	child_check(gt_execbuf(master, &b, batch, NULL, NULL, 0,
			       I915_EXEC_SECURE, NULL) == -EPERM);
	child_check(gt_execbuf(master, &b, batch, NULL, NULL, 0, 0, NULL) == 0);
	_exit(0);
}

static void test_fd_after_setuid(void)
{
	int master = gt_open(), status;
	uint32_t batch = gt_create(master, 4096);
	struct gen3_batch b;
	pid_t pid;

	gt_assert(is_master(master));
	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	/* As root, the master may run a secure batch. */
	gt_assert_eq(gt_execbuf(master, &b, batch, NULL, NULL, 0,
				I915_EXEC_SECURE, NULL), 0);
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0)
		nobody_child(master, batch);
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "child failed: status 0x%x", status);
	/* The parent's file is as it was. */
	gt_assert(is_master(master));
	gt_close(master, batch);
	gem_close(master);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	if (geteuid() != 0)
		gemtest_skip("needs root to drop it");
	gemtest_start_gemd(NULL);
	gt_program_timeout(120, gemtest_gemd_pid());

	gemtest_subtest("fd-after-setuid-nobody")
		test_fd_after_setuid();
	return gemtest_exit();
}

/*
 * gem_auth: DRM master and authentication as drm_auth.c (Linux 5.10 to
 * 6.1) keeps them per device, and I915_EXEC_SECURE, which a 945G kernel
 * grants the master when it runs as root (IGT's gen < 6 tests use it).
 * The test runs as root; the unprivileged cases run in a child that
 * drops to nobody and opens files of its own.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

#define NOBODY	65534

static int set_master(int fd)
{
	return gem_ioctl(fd, DRM_IOCTL_SET_MASTER, NULL) ? -errno : 0;
}

static int drop_master(int fd)
{
	return gem_ioctl(fd, DRM_IOCTL_DROP_MASTER, NULL) ? -errno : 0;
}

static int auth_magic(int fd, drm_magic_t magic)
{
	struct drm_auth auth = { .magic = magic };

	return gem_ioctl(fd, DRM_IOCTL_AUTH_MAGIC, &auth) ? -errno : 0;
}

static drm_magic_t get_magic(int fd)
{
	struct drm_auth auth = { .magic = 0 };

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_GET_MAGIC, &auth), 0);
	gt_assert(auth.magic != 0);
	return auth.magic;
}

/* IGT's is_master(): AUTH_MAGIC(0) is -EACCES unless master. */
static bool is_master(int fd)
{
	return auth_magic(fd, 0) != -EACCES;
}

static int get_client(int fd, int idx, struct drm_client *c)
{
	memset(c, 0x5a, sizeof(*c));
	c->idx = idx;
	return gem_ioctl(fd, DRM_IOCTL_GET_CLIENT, c) ? -errno : 0;
}

static void test_first_opener(void)
{
	int a = gt_open(), b = gt_open(), c;

	gt_assert(is_master(a));
	gt_assert(!is_master(b));
	gt_assert_eq(auth_magic(a, 0), -EINVAL);	/* master: no magic 0 */
	gt_assert_eq(set_master(b), -EBUSY);
	gt_assert_eq(drop_master(b), -EINVAL);
	gt_assert_eq(set_master(a), 0);			/* already: no-op */

	/* Closing the master leaves the device without one; the next file
	 * opened becomes it. */
	gem_close(a);
	gt_assert(!is_master(b));
	c = gt_open();
	gt_assert(is_master(c));
	gem_close(c);
	gem_close(b);
}

static void test_drop_set(void)
{
	int a = gt_open(), b = gt_open();

	gt_assert_eq(drop_master(a), 0);
	gt_assert(!is_master(a));
	gt_assert_eq(drop_master(a), -EINVAL);
	/* Root may take master with any file while nobody holds it. */
	gt_assert_eq(set_master(b), 0);
	gt_assert(is_master(b));
	gt_assert_eq(set_master(a), -EBUSY);
	gt_assert_eq(drop_master(b), 0);
	gt_assert_eq(set_master(a), 0);
	gt_assert(is_master(a));
	gem_close(b);
	gem_close(a);
}

static void test_magic(void)
{
	int master = gt_open(), s1 = gt_open(), s2 = gt_open();
	drm_magic_t m1 = get_magic(s1), m2 = get_magic(s2);

	gt_assert(m1 != m2);
	gt_assert_eq(get_magic(s1), m1);	/* the same every time */
	gt_assert_eq(auth_magic(s1, m2), -EACCES);	/* not the master */
	gt_assert_eq(auth_magic(master, m1), 0);
	gt_assert_eq(auth_magic(master, m1), -EINVAL);	/* spent */
	gt_assert_eq(get_magic(s1), m1);		/* and kept */
	gt_assert_eq(auth_magic(master, 12345), -EINVAL);
	gt_assert_eq(auth_magic(master, m2), 0);
	gem_close(s2);
	gem_close(s1);
	gem_close(master);
}

/* core_setmaster_vs_auth: magics belong to the master they were made in. */
static void test_magic_per_master(void)
{
	int master1 = gt_open(), client = gt_open(), master2 = gt_open();
	drm_magic_t magic = get_magic(client);

	gt_assert_eq(drop_master(master1), 0);
	gt_assert_eq(set_master(master2), 0);
	gt_assert_eq(auth_magic(master2, magic), -EINVAL);
	gem_close(client);
	gem_close(master2);
	gem_close(master1);
}

/* drm_getclient: index 0 is the caller, anything else -EINVAL. */
static void test_get_client(int fd)
{
	struct drm_client c;
	struct drm_stats stats;

	gt_assert_eq(get_client(fd, 0, &c), 0);
	gt_assert_eq(c.auth, 1);			/* root */
	gt_assert_eq(c.pid, getpid());
	gt_assert_eq(c.uid, 65534);			/* overflowuid */
	gt_assert_eq(c.magic, 0);
	gt_assert_eq(c.iocs, 0);
	gt_assert_eq(get_client(fd, 1, &c), -EINVAL);
	gt_assert_eq(get_client(fd, 0x7fffffff, &c), -EINVAL);

	memset(&stats, 0x5a, sizeof(stats));
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_GET_STATS, &stats), 0);
	gt_assert_eq(stats.count, 0);
}

static void run_batch_flags(int fd, uint64_t flags, int expect)
{
	struct gen3_batch b;
	uint32_t batch = gt_create(fd, 4096);

	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, NULL, NULL, 0, flags, NULL), expect);
	gt_close(fd, batch);
}

/* I915_EXEC_SECURE: the current master, as root (HAS_SECURE_BATCHES). */
static void test_secure_root(void)
{
	int master = gt_open(), other = gt_open();

	gt_assert_eq(gt_getparam(master, I915_PARAM_HAS_SECURE_BATCHES), 1);
	run_batch_flags(master, I915_EXEC_SECURE, 0);
	run_batch_flags(other, I915_EXEC_SECURE, -EPERM);
	gt_assert_eq(drop_master(master), 0);
	run_batch_flags(master, I915_EXEC_SECURE, -EPERM);
	run_batch_flags(master, 0, 0);
	gem_close(other);
	gem_close(master);
}

/* Run fn in a child that has dropped to nobody; it exits 0 if fine. */
static void as_nobody(void (*fn)(void))
{
	int status;
	pid_t pid = fork();

	gt_assert(pid >= 0);
	if (pid == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(2);
		fn();
		_exit(0);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "child failed: status 0x%x", status);
}

#define child_check(cond) do { if (!(cond)) { \
	fprintf(stderr, "# child: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	_exit(1); } } while (0)

/* GETPARAM's value, or -errno; no assertion (children cannot use them). */
static int getparam(int fd, int param)
{
	int value = -1;
	struct drm_i915_getparam gp = { .param = param, .value = &value };

	return gem_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp) ? -errno : value;
}

static int child_open(void)
{
	int fd = gem_open(NULL, 0);

	child_check(fd >= 0);
	return fd;
}

/*
 * Without CAP_SYS_ADMIN: the first opener is master and may drop and take
 * it back (drm_master_check_perm: same process, was master); a file that
 * never was master may not take it; nothing unprivileged is authenticated
 * until it is master; secure batches are refused.
 */
static void nobody_master(void)
{
	int master = child_open(), other = child_open();
	struct drm_client c;

	child_check(is_master(master));
	child_check(get_client(other, 0, &c) == 0 && c.auth == 0);
	child_check(get_client(master, 0, &c) == 0 && c.auth == 1);
	child_check(drop_master(master) == 0);
	child_check(set_master(other) == -EACCES);
	child_check(drop_master(other) == -EACCES);
	child_check(set_master(master) == 0);
	child_check(getparam(master, I915_PARAM_HAS_SECURE_BATCHES) == 0);
	gem_close(other);
	gem_close(master);
}

static void nobody_secure(void)
{
	int master = child_open();
	struct drm_i915_gem_create create = { .size = 4096 };
	struct gen3_batch b;

	child_check(gem_ioctl(master, DRM_IOCTL_I915_GEM_CREATE, &create) == 0);
	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	child_check(is_master(master));
	child_check(gt_execbuf(master, &b, create.handle, NULL, NULL, 0,
			       I915_EXEC_SECURE, NULL) == -EPERM);
	gem_close(master);
}

int main(int argc, char **argv)
{
	/* nobody connects too: the socket is gemd's user's alone unless told. */
	static const char *const args[] = { "--mode", "0666", NULL };
	int fd;

	gemtest_init(argc, argv);
	gemtest_start_gemd(args);
	gt_program_timeout(120, gemtest_gemd_pid());
	/* The children that drop root must reach the socket. */
	chmod(gemtest_tmpdir(), 0755);

	gemtest_subtest("master-first-opener")
		test_first_opener();
	gemtest_subtest("master-drop-set")
		test_drop_set();
	gemtest_subtest("auth-magic")
		test_magic();
	gemtest_subtest("auth-magic-per-master")
		test_magic_per_master();
	gemtest_subtest("get-client-stats") {
		fd = gt_open();
		test_get_client(fd);
		gem_close(fd);
	}
	gemtest_subtest("secure-root-master")
		test_secure_root();
	if (geteuid() == 0) {
		gemtest_subtest("master-nobody")
			as_nobody(nobody_master);
		gemtest_subtest("secure-nobody")
			as_nobody(nobody_secure);
	}
	return gemtest_exit();
}

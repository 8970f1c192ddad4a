/*
 * preload_fd: what a program sees of /dev/dri/card0 under the interposer.
 * Each open is a new drm_file; dup and fork share one; a /proc/self/fd
 * reopen is a new one; the fd survives exec; stat and fstat show the char
 * device; errors come back as -1 and errno; maps see the object; other
 * files and ioctls are untouched.
 */
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "preload-test.h"

#define CARD0	"/dev/dri/card0"

static int open_card(void)
{
	int fd = open(CARD0, O_RDWR);

	gt_assert_f(fd >= 0, "open %s: %s", CARD0, strerror(errno));
	return fd;
}

static uint32_t create(int fd, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };

	gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	gt_assert(c.handle != 0);
	return c.handle;
}

static int gem_close_h(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static int pwrite_h(int fd, uint32_t h, uint64_t off, const void *buf, uint64_t len)
{
	struct drm_i915_gem_pwrite w = {
		.handle = h, .offset = off, .size = len,
		.data_ptr = (uintptr_t)buf,
	};

	return ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &w);
}

static int pread_h(int fd, uint32_t h, uint64_t off, void *buf, uint64_t len)
{
	struct drm_i915_gem_pread r = {
		.handle = h, .offset = off, .size = len,
		.data_ptr = (uintptr_t)buf,
	};

	return ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &r);
}

static int busy_h(int fd, uint32_t h, uint32_t *busy)
{
	struct drm_i915_gem_busy b = { .handle = h };
	int ret = ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &b);

	*busy = b.busy;
	return ret;
}

/* Run by the exec test in the new image: read the object over the fd. */
static int exec_check(int fd, uint32_t handle)
{
	uint32_t v = 0;
	struct stat st;

	if (fstat(fd, &st) || !S_ISCHR(st.st_mode))
		return 3;
	if (pread_h(fd, handle, 0, &v, sizeof(v)))
		return 4;
	return v == 0x5a5aa5a5 ? 0 : 5;
}

/* waitpid, but a child still there after limit_s seconds is killed: 0. */
static pid_t wait_bounded(pid_t pid, int *status, unsigned int limit_s)
{
	unsigned int i;
	pid_t r;

	for (i = 0; i < limit_s * 10; i++) {
		r = waitpid(pid, status, WNOHANG);
		if (r != 0)
			return r;
		usleep(100 * 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
	return 0;
}

#define NOBODY	65534

#define UNREACHABLE	254

/* As nobody, in a child: open's errno, 0 if it opened, UNREACHABLE if
 * nobody cannot even reach the socket's directory dir. */
static int open_as_nobody(const char *dir)
{
	int status;
	pid_t pid = fork();

	gt_assert(pid >= 0);
	if (pid == 0) {
		int fd;

		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(255);
		if (access(dir, X_OK))
			_exit(UNREACHABLE);
		fd = open(CARD0, O_RDWR);
		_exit(fd >= 0 ? 0 : errno);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/*
 * The node's mode is the socket's, and root's chmod of the node is the
 * socket's: IGT core_setmaster master-drop-set-user makes the node o+rw
 * and opens it as another user.
 */
static void test_node_mode(void)
{
	char dir[PATH_MAX];
	struct stat st;

	if (geteuid() != 0)
		gemtest_skip("needs root to become another user");
	/* A longer one is reached through /proc/self/fd (sockpath.h), which
	 * a process that dropped root may not use. */
	if (strlen(getenv("GEM_DEVICE")) >= 108)
		gemtest_skip("the socket path is longer than sun_path");
	/* nobody may reach the socket's directory, not the socket */
	snprintf(dir, sizeof(dir), "%s", getenv("GEM_DEVICE"));
	*strrchr(dir, '/') = 0;
	gt_assert_eq(chmod(dir, 0711), 0);
	if (open_as_nobody(dir) == UNREACHABLE) {
		gt_assert_eq(chmod(dir, 0700), 0);
		gemtest_skip("nobody cannot reach $TMPDIR");
	}
	gt_assert_eq(stat(CARD0, &st), 0);
	gt_assert_eq(st.st_mode, S_IFCHR | 0600);
	gt_assert_eq(access(CARD0, R_OK | W_OK), 0);
	gt_assert_eq(open_as_nobody(dir), EACCES);
	gt_assert_eq(chmod(CARD0, 0666), 0);
	gt_assert_eq(stat(CARD0, &st), 0);
	gt_assert_eq(st.st_mode, S_IFCHR | 0666);
	gt_assert_eq(open_as_nobody(dir), 0);
	gt_assert_eq(chmod(CARD0, 0600), 0);
	gt_assert_eq(open_as_nobody(dir), EACCES);
	gt_assert_eq(chmod(dir, 0700), 0);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--exec-check"))
		return exec_check(atoi(argv[2]), (uint32_t)atoi(argv[3]));
	preload_test_init(argc, argv);

	gemtest_subtest("stat-and-fstat-show-the-char-device") {
		struct stat a, b;
		int fd;

		gt_assert_eq(stat(CARD0, &a), 0);
		gt_assert(S_ISCHR(a.st_mode));
		gt_assert_eq(major(a.st_rdev), 226);
		gt_assert_eq(minor(a.st_rdev), 0);
		fd = open_card();
		gt_assert_eq(fstat(fd, &b), 0);
		gt_assert(S_ISCHR(b.st_mode));
		gt_assert_eq(b.st_rdev, a.st_rdev);
		gt_assert_eq(b.st_ino, a.st_ino);
		gt_assert_eq(b.st_dev, a.st_dev);
		gt_assert_eq(access(CARD0, R_OK | W_OK), 0);
		close(fd);
	}

	gemtest_subtest("render-node-is-minor-128") {
		int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
		struct stat st;

		gt_assert(fd >= 0);
		gt_assert_eq(fstat(fd, &st), 0);
		gt_assert(S_ISCHR(st.st_mode));
		gt_assert_eq(major(st.st_rdev), 226);
		gt_assert_eq(minor(st.st_rdev), 128);
		create(fd, 4096);
		close(fd);
	}

	gemtest_subtest("fclosed-device-fd-reused-by-a-socket-is-a-socket") {
		int fd = open_card(), sv[2];
		FILE *f = fdopen(fd, "r+");
		struct stat st;

		gt_assert(f != NULL);
		fclose(f);		/* closes fd inside libc, unseen */
		gt_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		gt_assert_eq(sv[0], fd);
		gt_assert_eq(fstat(sv[0], &st), 0);
		gt_assert(S_ISSOCK(st.st_mode));
		gt_assert_eq(ioctl(sv[0], DRM_IOCTL_VERSION, NULL), -1);
		gt_assert_eq(errno, ENOTTY);
		close(sv[0]);
		close(sv[1]);
	}

	gemtest_subtest("dev-dri-lists-card0") {
		DIR *d = opendir("/dev/dri");
		struct dirent *e;
		bool card0 = false;

		gt_assert(d != NULL);
		while ((e = readdir(d)))
			if (!strcmp(e->d_name, "card0"))
				card0 = true;
		closedir(d);
		gt_assert(card0);
	}

	gemtest_subtest("each-open-is-a-new-file") {
		int a = open_card(), b = open_card();
		uint32_t h = create(a, 4096);

		gt_assert(a != b);
		/* b has no such handle: EINVAL, as drm_gem_handle_delete says. */
		gt_assert_errno(gem_close_h(b, h), EINVAL);
		gt_assert_eq(gem_close_h(a, h), 0);
		close(a);
		close(b);
	}

	gemtest_subtest("dup-shares-the-file") {
		int a = open_card(), b = dup(a), c = fcntl(a, F_DUPFD_CLOEXEC, 100);
		uint32_t h = create(a, 4096), busy = 7;

		gt_assert(b >= 0 && c >= 100);
		gt_assert_eq(busy_h(c, h, &busy), 0);
		gt_assert_eq(busy, 0);
		close(a);		/* the file lives on in b and c */
		gt_assert_eq(gem_close_h(b, h), 0);
		gt_assert_errno(gem_close_h(c, h), EINVAL);
		close(b);
		close(c);
	}

	gemtest_subtest("fork-child-shares-the-file") {
		int fd = open_card(), status;
		uint32_t h = create(fd, 4096), v = 0;
		pid_t pid;

		pid = fork();
		gt_assert(pid >= 0);
		if (pid == 0) {
			uint32_t busy = 1, x = 0xfeedf00d;

			if (busy_h(fd, h, &busy) || busy)
				_exit(1);
			if (pwrite_h(fd, h, 0, &x, sizeof(x)))
				_exit(2);
			_exit(0);
		}
		gt_assert_eq(waitpid(pid, &status, 0), pid);
		gt_assert(WIFEXITED(status));
		gt_assert_eq(WEXITSTATUS(status), 0);
		gt_assert_eq(pread_h(fd, h, 0, &v, sizeof(v)), 0);
		gt_assert_eq(v, 0xfeedf00d);
		close(fd);
	}

	/*
	 * IGT forks with objects mapped: the child's atfork handlers dropped
	 * the parent's rings through the interposed munmap(), whose table
	 * lock the interposer's own prepare handler held, and the child hung
	 * for ever, in fork() (gem_busy under gemctl run): a child that has
	 * not ended in two minutes is killed and the subtest fails.
	 */
	gemtest_subtest("fork-with-a-mapping-recorded") {
		int fd = open_card(), status;
		uint32_t h = create(fd, 4096), v = 0;
		struct drm_i915_gem_mmap_gtt g = { .handle = h };
		uint32_t *p;
		pid_t pid;

		gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &g), 0);
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (off_t)g.offset);
		gt_assert(p != MAP_FAILED);
		gt_assert_eq(pread_h(fd, h, 0, &v, sizeof(v)), 0);
		pid = fork();
		gt_assert(pid >= 0);
		if (pid == 0) {
			uint32_t x = 0x600df00d;

			if (pwrite_h(fd, h, 4, &x, sizeof(x)))
				_exit(2);
			munmap(p, 4096);
			_exit(0);
		}
		gt_assert_eq(wait_bounded(pid, &status, 120), pid);
		gt_assert(WIFEXITED(status));
		gt_assert_eq(WEXITSTATUS(status), 0);
		gt_assert_eq(p[1], 0x600df00d);
		munmap(p, 4096);
		close(fd);
	}

	gemtest_subtest("fd-survives-exec") {
		int fd = open_card(), status;
		uint32_t h = create(fd, 4096), v = 0x5a5aa5a5;
		char fds[16], hs[16];
		pid_t pid;

		gt_assert_eq(pwrite_h(fd, h, 0, &v, sizeof(v)), 0);
		snprintf(fds, sizeof(fds), "%d", fd);
		snprintf(hs, sizeof(hs), "%u", h);
		fflush(NULL);
		pid = fork();
		gt_assert(pid >= 0);
		if (pid == 0) {
			execl("/proc/self/exe", argv[0], "--exec-check", fds, hs,
			      (char *)NULL);
			_exit(9);
		}
		gt_assert_eq(waitpid(pid, &status, 0), pid);
		gt_assert(WIFEXITED(status));
		gt_assert_eq(WEXITSTATUS(status), 0);
		close(fd);
	}

	gemtest_subtest("proc-self-fd-reopen-is-a-new-file") {
		int fd = open_card(), re;
		uint32_t h = create(fd, 4096);
		char path[64];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		re = open(path, O_RDWR);
		gt_assert(re >= 0 && re != fd);
		gt_assert_eq(fstat(re, &st), 0);
		gt_assert(S_ISCHR(st.st_mode));
		gt_assert_errno(gem_close_h(re, h), EINVAL);
		gt_assert_eq(gem_close_h(fd, h), 0);
		close(re);
		close(fd);
	}

	gemtest_subtest("errors-are-minus-one-and-errno") {
		int fd = open_card();
		struct drm_i915_gem_create c = { .size = 0 };
		struct termios t;

		gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c), -1);
		gt_assert_eq(errno, EINVAL);
		gt_assert_eq(gem_close_h(fd, 12345), -1);
		gt_assert_eq(errno, EINVAL);
		/* An i915 number gemd does not know. */
		errno = 0;
		gt_assert_eq(ioctl(fd, DRM_IOWR(DRM_COMMAND_BASE + 0x3f, struct drm_i915_getparam), &c), -1);
		gt_assert_eq(errno, EINVAL);
		/* Not a DRM request: what the file itself says. */
		gt_assert_eq(tcgetattr(fd, &t), -1);
		gt_assert_eq(errno, ENOTTY);
		close(fd);
	}

	gemtest_subtest("gem-mmap-is-a-fresh-mapping-each-time") {
		int fd = open_card();
		uint32_t h = create(fd, 8192), v = 0;
		struct drm_i915_gem_mmap m1 = { .handle = h, .size = 8192 };
		struct drm_i915_gem_mmap m2 = { .handle = h, .size = 8192 };
		uint32_t *p1, *p2;

		gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &m1), 0);
		gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &m2), 0);
		p1 = (uint32_t *)(uintptr_t)m1.addr_ptr;
		p2 = (uint32_t *)(uintptr_t)m2.addr_ptr;
		gt_assert(p1 != p2);
		p1[1024] = 0x12345678;
		gt_assert_eq(munmap(p1, 8192), 0);
		gt_assert_eq(p2[1024], 0x12345678);
		gt_assert_eq(pread_h(fd, h, 4096, &v, sizeof(v)), 0);
		gt_assert_eq(v, 0x12345678);
		gt_assert_eq(munmap(p2, 8192), 0);
		close(fd);
	}

	gemtest_subtest("mmap-of-the-fake-offset-maps-the-object") {
		int fd = open_card();
		uint32_t h = create(fd, 4096), v = 0;
		struct drm_i915_gem_mmap_gtt g = { .handle = h };
		uint32_t *p;

		gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &g), 0);
		gt_assert(g.offset != 0 && (g.offset & 4095) == 0);
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (off_t)g.offset);
		gt_assert(p != MAP_FAILED);
		p[3] = 0xabcdef01;
		gt_assert_eq(pread_h(fd, h, 12, &v, sizeof(v)), 0);
		gt_assert_eq(v, 0xabcdef01);
		munmap(p, 4096);
		close(fd);
	}

	gemtest_subtest("other-files-and-ioctls-pass-through") {
		int p[2], n = -1, fd;
		struct stat st;
		void *m;

		gt_assert_eq(pipe(p), 0);
		gt_assert_eq(write(p[1], "abc", 3), 3);
		gt_assert_eq(ioctl(p[0], FIONREAD, &n), 0);
		gt_assert_eq(n, 3);
		/* A DRM request on a file that is no device: ENOTTY, as ever. */
		gt_assert_eq(ioctl(p[0], DRM_IOCTL_VERSION, NULL), -1);
		gt_assert_eq(errno, ENOTTY);
		gt_assert_eq(fstat(p[0], &st), 0);
		gt_assert(S_ISFIFO(st.st_mode));
		close(p[0]);
		close(p[1]);
		fd = open("/proc/self/exe", O_RDONLY);
		gt_assert(fd >= 0);
		m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
		gt_assert(m != MAP_FAILED);
		gt_assert(!memcmp(m, "\177ELF", 4));
		munmap(m, 4096);
		close(fd);
	}

	gemtest_subtest("closed-device-fd-number-reused-is-not-the-device") {
		int fd = open_card(), p[2];

		close(fd);
		gt_assert_eq(pipe(p), 0);	/* lowest free: fd again */
		gt_assert_eq(p[0], fd);
		gt_assert_eq(ioctl(p[0], DRM_IOCTL_VERSION, NULL), -1);
		gt_assert_eq(errno, ENOTTY);
		close(p[0]);
		close(p[1]);
	}

	gemtest_subtest("node-mode-is-the-socket-mode")
		test_node_mode();
	gemtest_subtest("sysfs-describes-a-945g") {
		char buf[256] = "", link[256] = "";
		FILE *f = fopen("/sys/dev/char/226:0/device/device", "r");
		ssize_t n;

		gt_assert(f != NULL);
		gt_assert(fgets(buf, sizeof(buf), f) != NULL);
		fclose(f);
		gt_assert(!strcmp(buf, "0x2772\n"));
		n = readlink("/sys/dev/char/226:0/device/subsystem", link, sizeof(link) - 1);
		gt_assert(n > 0);
		link[n] = '\0';
		gt_assert(!strcmp(strrchr(link, '/'), "/pci"));
		gt_assert_eq(access("/sys/dev/char/226:0/device/drm", F_OK), 0);
	}

	return gemtest_exit();
}

/*
 * gem_prime: objects shared as file descriptors (PRIME_HANDLE_TO_FD and
 * PRIME_FD_TO_HANDLE, DRM_CAP_PRIME).  The fd is the object itself — read,
 * write, mmap and llseek work on it without gemd — import gives back the
 * handle a file already has for it, the object and its contents live as
 * long as any handle or fd does, closed in any order, and an fd passed to
 * another process over a Unix socket imports there.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

static int __export(int fd, uint32_t handle, uint32_t flags, int *out)
{
	struct drm_prime_handle arg = { .handle = handle, .flags = flags, .fd = -1 };
	int ret = gt_ioctl_errno(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &arg);

	*out = arg.fd;
	return ret;
}

static int export(int fd, uint32_t handle)
{
	int pfd = -1;

	gt_assert_eq(__export(fd, handle, DRM_CLOEXEC | DRM_RDWR, &pfd), 0);
	gt_assert(pfd >= 0);
	return pfd;
}

static int __import(int fd, int pfd, uint32_t *handle)
{
	struct drm_prime_handle arg = { .fd = pfd };
	int ret = gt_ioctl_errno(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &arg);

	*handle = arg.handle;
	return ret;
}

static uint32_t import(int fd, int pfd)
{
	uint32_t h = 0;

	gt_assert_eq(__import(fd, pfd, &h), 0);
	gt_assert(h != 0);
	return h;
}

static void test_cap(int fd)
{
	struct drm_get_cap cap = { .capability = DRM_CAP_PRIME };

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_GET_CAP, &cap), 0);
	gt_assert_eq_u64(cap.value, DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT);
}

/* prime_self_import's rules: one handle per file and object. */
static void test_same_handle(int fd)
{
	int other = gt_open(), pfd, pfd2;
	uint32_t h = gt_create(fd, 16384), name;
	struct drm_gem_flink fl = { .handle = h };
	struct drm_gem_open op;

	pfd = export(fd, h);
	gt_assert_eq(import(other, pfd), import(other, pfd));
	gt_assert_eq(import(fd, pfd), h);
	/* A second export is the same object, another descriptor. */
	pfd2 = export(fd, h);
	gt_assert(pfd2 != pfd);
	gt_assert_eq(import(fd, pfd2), h);
	/* A handle from GEM_OPEN, exported, comes back as itself. */
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_GEM_FLINK, &fl), 0);
	name = fl.name;
	op = (struct drm_gem_open){ .name = name };
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_GEM_OPEN, &op), 0);
	gt_assert(op.handle != h);
	gem_close(other);
	other = gt_open();
	op = (struct drm_gem_open){ .name = name };
	gt_assert_eq(gem_ioctl(other, DRM_IOCTL_GEM_OPEN, &op), 0);
	close(pfd2);
	pfd2 = export(other, op.handle);
	gt_assert_eq(import(other, pfd2), op.handle);
	close(pfd);
	close(pfd2);
	gem_close(other);
	gt_close(fd, h);
}

static void test_errors(int fd)
{
	static const uint32_t bad_flags[] = {
		DRM_CLOEXEC - 1, DRM_CLOEXEC + 1, DRM_RDWR - 1, DRM_RDWR + 1,
	};
	uint32_t h = gt_create(fd, 4096), got;
	int pfd, pipefd[2], mfd;
	unsigned int i;

	for (i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++)
		gt_assert_eq(__export(fd, h, bad_flags[i], &pfd), -EINVAL);
	gt_assert_eq(__export(fd, h + 100, DRM_CLOEXEC, &pfd), -ENOENT);
	gt_assert_eq(pfd, -1);
	gt_assert_eq(__export(fd, 0, DRM_CLOEXEC, &pfd), -ENOENT);

	/* Not a descriptor, not a buffer, not sealed as gemd's. */
	gt_assert_eq(__import(fd, -1, &got), -EBADF);
	gt_assert_eq(__import(fd, 1000, &got), -EBADF);
	gt_assert_eq(pipe(pipefd), 0);
	gt_assert_eq(__import(fd, pipefd[0], &got), -EINVAL);
	close(pipefd[0]);
	close(pipefd[1]);
	mfd = memfd_create("not-ours", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	gt_assert(mfd >= 0);
	gt_assert_eq(ftruncate(mfd, 8192), 0);
	gt_assert_eq(__import(fd, mfd, &got), -EINVAL);
	/* Sealed so that gemd could not write it. */
	gt_assert_eq(fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
			   F_SEAL_WRITE | F_SEAL_SEAL), 0);
	gt_assert_eq(__import(fd, mfd, &got), -EINVAL);
	close(mfd);
	/* Sealed as gemd's, but on hugetlbfs, whose pages may not come when
	 * gemd touches them (SIGBUS): only shmem is taken.  Where huge pages
	 * cannot back a memfd at all, nothing to try. */
	mfd = memfd_create("huge", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_HUGETLB);
	if (mfd >= 0 && ftruncate(mfd, 2 << 20) == 0 &&
	    fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0)
		gt_assert_eq(__import(fd, mfd, &got), -EINVAL);
	else
		gemtest_diag("no sealed hugetlbfs memfd here (%s): not tried", strerror(errno));
	if (mfd >= 0)
		close(mfd);
	gt_close(fd, h);
}

/* A memfd sealed as gemd seals its own is taken as a buffer: a client
 * can only hand gemd memory it holds itself (like userptr). */
static void test_import_sealed_memfd(int fd)
{
	int mfd = memfd_create("mine", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	uint32_t h, v = 0;

	gt_assert(mfd >= 0);
	gt_assert_eq(ftruncate(mfd, 8192), 0);
	gt_assert_eq(pwrite(mfd, "\x78\x56\x34\x12", 4, 4096), 4);
	gt_assert_eq(fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
			   F_SEAL_SEAL), 0);
	h = import(fd, mfd);
	gt_read(fd, h, 4096, &v, 4);
	gt_assert_eq(v, 0x12345678);
	close(mfd);
	gt_close(fd, h);
}

/* The fd is the object: its bytes, its size. */
static void test_fd_is_object(int fd)
{
	const uint64_t size = 3 * 4096;
	uint32_t h = gt_create(fd, size), buf[64], i;
	uint8_t *ref = gt_upload_pattern(fd, h, size, 7), *map;
	int pfd = export(fd, h);
	uint8_t got[4096];

	gt_assert_eq(lseek(pfd, 0, SEEK_END), (off_t)size);
	gt_assert_eq(pread(pfd, got, sizeof(got), 4096), (ssize_t)sizeof(got));
	gt_assert(!memcmp(got, ref + 4096, sizeof(got)));
	for (i = 0; i < 64; i++)
		buf[i] = 0xf00d0000u + i;
	gt_assert_eq(pwrite(pfd, buf, sizeof(buf), 8192), (ssize_t)sizeof(buf));
	memset(buf, 0, sizeof(buf));
	gt_read(fd, h, 8192, buf, sizeof(buf));
	for (i = 0; i < 64; i++)
		gt_assert_eq(buf[i], 0xf00d0000u + i);
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, pfd, 0);
	gt_assert(map != MAP_FAILED);
	gt_assert(!memcmp(map, ref, 4096));
	map[5] = 0x5a;
	gt_read(fd, h, 0, got, 8);
	gt_assert_eq(got[5], 0x5a);
	munmap(map, size);
	free(ref);
	close(pfd);
	gt_close(fd, h);
}

/* Without DRM_RDWR the fd is read-only, as the kernel's dma-buf. */
static void test_readonly(int fd)
{
	uint32_t h = gt_create(fd, 4096);
	int pfd;

	gt_assert_eq(__export(fd, h, DRM_CLOEXEC, &pfd), 0);
	gt_assert_eq(fcntl(pfd, F_GETFL) & O_ACCMODE, O_RDONLY);
	gt_assert_eq(fcntl(pfd, F_GETFD), FD_CLOEXEC);
	gt_assert(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, pfd, 0) ==
		  MAP_FAILED);
	gt_assert_eq(errno, EACCES);
	gt_assert_eq(import(fd, pfd), h);
	/* Even with the object gone, it imports as a whole object again. */
	gt_close(fd, h);
	h = import(fd, pfd);
	gt_write(fd, h, 0, "rw", 2);
	close(pfd);
	/* No DRM_CLOEXEC: the descriptor survives exec. */
	gt_assert_eq(__export(fd, h, DRM_RDWR, &pfd), 0);
	gt_assert_eq(fcntl(pfd, F_GETFD), 0);
	close(pfd);
	gt_close(fd, h);
}

/* Handles and fds closed in any order: what lives keeps the contents. */
static void test_close_any_order(int fd)
{
	int other = gt_open(), pfd;
	uint32_t h = gt_create(fd, 8192), h2, h3, v = 0;
	uint8_t *ref = gt_upload_pattern(fd, h, 8192, 11), got[8192];

	/* fd outlives every handle, and brings the object back. */
	pfd = export(fd, h);
	gt_close(fd, h);
	h2 = import(other, pfd);
	gt_read(other, h2, 0, got, sizeof(got));
	gt_assert(!memcmp(got, ref, sizeof(got)));
	h3 = import(fd, pfd);
	gt_assert_eq(import(fd, pfd), h3);
	v = 0xc0ffee;
	gt_write(other, h2, 0, &v, 4);
	v = 0;
	gt_read(fd, h3, 0, &v, 4);
	gt_assert_eq(v, 0xc0ffee);
	/* The fd goes first now: the handles keep it. */
	close(pfd);
	gt_read(fd, h3, 4096, got, 4096);
	gt_assert(!memcmp(got, ref + 4096, 4096));
	/* Another holder's file goes: the rest keep it. */
	gem_close(other);
	gt_read(fd, h3, 4, got, 4);
	gt_assert(!memcmp(got, ref + 4, 4));
	gt_close(fd, h3);
	free(ref);
}

/* One byte over sock, with room for one descriptor beside it. */
struct fd_msg {
	char byte;
	struct iovec iov;
	struct msghdr msg;
	union {			/* last: cmsghdr ends in a flexible array */
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
};

static void fd_msg_init(struct fd_msg *m)
{
	m->byte = 'f';
	m->iov = (struct iovec){ &m->byte, 1 };
	memset(&m->ctl, 0, sizeof(m->ctl));
	m->msg = (struct msghdr){
		.msg_iov = &m->iov, .msg_iovlen = 1,
		.msg_control = m->ctl.buf, .msg_controllen = sizeof(m->ctl.buf),
	};
}

static void send_fd(int sock, int fd)
{
	struct fd_msg m;
	struct cmsghdr *cm;

	fd_msg_init(&m);
	cm = CMSG_FIRSTHDR(&m.msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	gt_assert_eq(sendmsg(sock, &m.msg, 0), 1);
}

static int recv_fd(int sock)
{
	struct fd_msg m;
	int fd = -1;

	fd_msg_init(&m);
	if (recvmsg(sock, &m.msg, 0) != 1 || !CMSG_FIRSTHDR(&m.msg))
		return -1;
	memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&m.msg)), sizeof(int));
	return fd;
}

/* The secure way to share: pass the fd to another process. */
static void test_other_process(int fd)
{
	uint32_t h = gt_create(fd, 8192), v = 0;
	int sv[2], pfd, status;
	pid_t pid;

	v = 0x11223344;
	gt_write(fd, h, 4096, &v, 4);
	gt_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		int mine, got;
		uint32_t ch, w = 0;
		struct drm_prime_handle arg;

		close(sv[0]);
		got = recv_fd(sv[1]);
		mine = gem_open(NULL, O_CLOEXEC);
		arg = (struct drm_prime_handle){ .fd = got };
		if (got < 0 || mine < 0 ||
		    gem_ioctl(mine, DRM_IOCTL_PRIME_FD_TO_HANDLE, &arg))
			_exit(2);
		ch = arg.handle;
		{
			struct drm_i915_gem_pread pr = {
				.handle = ch, .offset = 4096, .size = 4,
				.data_ptr = (uintptr_t)&w,
			};
			struct drm_i915_gem_pwrite pw = {
				.handle = ch, .offset = 0, .size = 4,
				.data_ptr = (uintptr_t)&w,
			};

			if (gem_ioctl(mine, DRM_IOCTL_I915_GEM_PREAD, &pr) ||
			    w != 0x11223344)
				_exit(3);
			w = 0x55667788;
			if (gem_ioctl(mine, DRM_IOCTL_I915_GEM_PWRITE, &pw))
				_exit(4);
		}
		_exit(0);
	}
	close(sv[1]);
	pfd = export(fd, h);
	send_fd(sv[0], pfd);
	close(pfd);
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert(WIFEXITED(status));
	gt_assert_eq(WEXITSTATUS(status), 0);
	gt_read(fd, h, 0, &v, 4);
	gt_assert_eq(v, 0x55667788);
	close(sv[0]);
	gt_close(fd, h);
}

/*
 * The first export moves the object into memory of its own; what this
 * process mapped of it before (CPU and GTT maps) is mapped again, so it
 * still is the object.  FLINK exports the same way.
 */
static void check_export_keeps_maps(int fd, bool by_flink)
{
	uint32_t h = gt_create(fd, 8192), v = 0;
	uint32_t *cpu = gt_mmap_cpu(fd, h, 0, 8192);
	uint32_t *gtt = gt_mmap_gtt(fd, h, 8192);
	struct drm_gem_flink fl = { .handle = h };
	int pfd = -1;

	cpu[0] = 0xaaaa0001;
	gtt[1] = 0xaaaa0002;
	if (by_flink)
		gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_GEM_FLINK, &fl), 0);
	else
		pfd = export(fd, h);
	cpu[2] = 0xaaaa0003;
	gtt[3] = 0xaaaa0004;
	gt_read(fd, h, 0, &v, 4);
	gt_assert_eq(v, 0xaaaa0001);
	gt_read(fd, h, 4, &v, 4);
	gt_assert_eq(v, 0xaaaa0002);
	gt_read(fd, h, 8, &v, 4);
	gt_assert_eq(v, 0xaaaa0003);
	gt_read(fd, h, 12, &v, 4);
	gt_assert_eq(v, 0xaaaa0004);
	if (pfd >= 0) {
		gt_assert_eq(pread(pfd, &v, 4, 12), 4);
		gt_assert_eq(v, 0xaaaa0004);
		close(pfd);
	}
	gem_munmap(cpu, 8192);
	gem_munmap(gtt, 8192);
	gt_close(fd, h);
}

/*
 * Exporting an object the GPU is writing neither waits for the GPU (as
 * prime_busy needs) nor loses what it wrote.
 */
static void test_export_busy(int fd)
{
	uint32_t batch = gt_create(fd, 4096), target = gt_create(fd, 4096), v = 0;
	uint32_t *bmap, spin_dw;
	struct gen3_batch b;
	int pfd;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 64, 0xabcdef01);
	spin_dw = b.len;
	gen3_emit_spin(&b, batch);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL), 0);
	gt_assert_eq(gt_spin_watchdog(fd, batch, 10000), 0);
	gt_assert(gt_busy(fd, target));
	pfd = export(fd, target);
	gt_assert(gt_busy(fd, target));
	bmap = gt_mmap_cpu(fd, batch, 0, 4096);
	__atomic_store_n(&bmap[spin_dw], MI_BATCH_BUFFER_END, __ATOMIC_SEQ_CST);
	gt_sync(fd, target);
	gt_read(fd, target, 64, &v, 4);
	gt_assert_eq(v, 0xabcdef01);
	v = 0;
	gt_assert_eq(pread(pfd, &v, 4, 64), 4);
	gt_assert_eq(v, 0xabcdef01);
	/* The GPU writes the new pages from now on. */
	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 128, 0x600d600d);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL), 0);
	gt_sync(fd, target);
	gt_assert_eq(pread(pfd, &v, 4, 128), 4);
	gt_assert_eq(v, 0x600d600d);
	close(pfd);
	gem_munmap(bmap, 4096);
	gt_close(fd, batch);
	gt_close(fd, target);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("cap")
		test_cap(fd);
	gemtest_subtest("same-handle")
		test_same_handle(fd);
	gemtest_subtest("errors")
		test_errors(fd);
	gemtest_subtest("import-sealed-memfd")
		test_import_sealed_memfd(fd);
	gemtest_subtest("fd-is-the-object")
		test_fd_is_object(fd);
	gemtest_subtest("readonly-without-rdwr")
		test_readonly(fd);
	gemtest_subtest("close-any-order")
		test_close_any_order(fd);
	gemtest_subtest("other-process")
		test_other_process(fd);
	gemtest_subtest("export-keeps-maps")
		check_export_keeps_maps(fd, false);
	gemtest_subtest("flink-keeps-maps")
		check_export_keeps_maps(fd, true);
	gemtest_subtest("export-busy")
		test_export_busy(fd);
	gem_close(fd);
	return gemtest_exit();
}

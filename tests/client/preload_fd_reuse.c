/*
 * preload_fd_reuse: the interposer's table of device fds stands in for
 * the fstat() libgem would make on every ioctl (vouch.h), so it must see
 * every way a program closes a device fd.  For each way (close, dup2 and
 * dup3 over it, close_range, closefrom, fclose and freopen of a stream on
 * it), the number is then reused by another socket or file: an ioctl on
 * it is the kernel's ENOTTY, and the socket is untouched by it.  A number
 * reused by another device fd names the new file, not the old one.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* dup3, close_range, closefrom */
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
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

static int pwrite_h(int fd, uint32_t h, const void *buf, uint64_t len)
{
	struct drm_i915_gem_pwrite w = {
		.handle = h, .size = len, .data_ptr = (uintptr_t)buf,
	};

	return pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_PWRITE, &w);
}

/* A device fd with an object written through it: the table and libgem
 * both know the number, and the hot path has run on it. */
static int hot_device(uint32_t *handle)
{
	static const char data[64] = "hot";
	int fd = open_card();

	*handle = pt_create(fd, 4096);
	gt_assert_eq(pwrite_h(fd, *handle, data, sizeof(data)), 0);
	gt_assert_eq(pwrite_h(fd, *handle, data, sizeof(data)), 0);
	return fd;
}

/* fd is now one end of a socket pair whose other end is peer: ioctls
 * on it are ENOTTY, and what peer sends arrives intact. */
static void assert_plain_socket(int fd, int peer, uint32_t old_handle)
{
	static const char data[64] = "not for the device";
	char buf[16];

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_VERSION, NULL), -ENOTTY);
	gt_assert_eq(pwrite_h(fd, old_handle, data, sizeof(data)), -ENOTTY);
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_BUSY,
				    &(struct drm_i915_gem_busy){ .handle = old_handle }),
		     -ENOTTY);
	/* Nothing was written to it, in either direction. */
	gt_assert_eq(recv(peer, buf, sizeof(buf), MSG_DONTWAIT), -1);
	gt_assert_eq(errno, EAGAIN);
	gt_assert_eq(send(peer, "ping", 4, 0), 4);
	gt_assert_eq(recv(fd, buf, sizeof(buf), 0), 4);
	gt_assert(!memcmp(buf, "ping", 4));
	gt_assert_eq(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), -1);
	gt_assert_eq(errno, EAGAIN);
}

/* A socket pair whose first end is fd (the lowest number free). */
static void socket_on(int fd, int sv[2])
{
	gt_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	gt_assert_eq(sv[0], fd);
}

static void close_pair(int sv[2])
{
	close(sv[0]);
	close(sv[1]);
}

enum closer { BY_CLOSE, BY_CLOSE_RANGE, BY_FCLOSE };

static void closed_then_socket(enum closer how)
{
	uint32_t h;
	int fd = hot_device(&h), sv[2];
	FILE *f;

	switch (how) {
	case BY_CLOSE:
		gt_assert_eq(close(fd), 0);
		break;
	case BY_CLOSE_RANGE:
		gt_assert_eq(close_range((unsigned int)fd, (unsigned int)fd, 0), 0);
		break;
	case BY_FCLOSE:
		f = fdopen(fd, "r+");
		gt_assert(f != NULL);
		gt_assert_eq(fclose(f), 0);
		break;
	}
	socket_on(fd, sv);
	assert_plain_socket(sv[0], sv[1], h);
	close_pair(sv);
}

/* dup2 or dup3 of a socket over the device fd. */
static void dup_over(bool three)
{
	uint32_t h;
	int fd = hot_device(&h), sv[2];

	gt_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	gt_assert_eq(three ? dup3(sv[0], fd, O_CLOEXEC) : dup2(sv[0], fd), fd);
	close(sv[0]);
	sv[0] = fd;
	assert_plain_socket(sv[0], sv[1], h);
	close_pair(sv);
}

/* closefrom closes the harness's descriptors too: in a child. */
static void closefrom_then_socket(void)
{
	pid_t pid = gt_fork();

	if (pid == 0) {
		uint32_t h;
		int fd = hot_device(&h), sv[2];

		closefrom(fd);
		socket_on(fd, sv);
		assert_plain_socket(sv[0], sv[1], h);
		_exit(0);
	}
	gt_wait_child(pid, 0);
}

/* freopen closes the stream's device fd and opens /dev/null on it. */
static void freopen_then_file(void)
{
	uint32_t h;
	int fd = hot_device(&h);
	FILE *f = fdopen(fd, "r+");

	gt_assert(f != NULL);
	f = freopen("/dev/null", "r", f);
	gt_assert(f != NULL);
	gt_assert_eq(fileno(f), fd);
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_VERSION, NULL), -ENOTTY);
	gt_assert_eq(pwrite_h(fd, h, "x", 1), -ENOTTY);
	fclose(f);
}

/* Another drm_file dup2'ed over the number: its handles, not the old. */
static void device_over_device(void)
{
	uint32_t ha, hb;
	int a = hot_device(&ha), b = open_card();
	char buf[8] = "b";

	gt_assert_eq(dup2(b, a), a);
	/* File b has no objects yet: a's handle is nothing there. */
	gt_assert_eq(pwrite_h(a, ha, buf, sizeof(buf)), -ENOENT);
	hb = pt_create(b, 8192);
	gt_assert_eq(pwrite_h(a, hb, buf, sizeof(buf)), 0);
	gt_assert_eq(pt_ioctl_errno(a, DRM_IOCTL_GEM_CLOSE,
				    &(struct drm_gem_close){ .handle = hb }), 0);
	gt_assert_eq(pwrite_h(b, hb, buf, sizeof(buf)), -ENOENT);
	close(a);
	close(b);
}

int main(int argc, char **argv)
{
	preload_test_init(argc, argv);

	gemtest_subtest("close-then-socket")
		closed_then_socket(BY_CLOSE);
	gemtest_subtest("close-range-then-socket")
		closed_then_socket(BY_CLOSE_RANGE);
	gemtest_subtest("fclose-then-socket")
		closed_then_socket(BY_FCLOSE);
	gemtest_subtest("dup2-socket-over-device")
		dup_over(false);
	gemtest_subtest("dup3-socket-over-device")
		dup_over(true);
	gemtest_subtest("closefrom-then-socket")
		closefrom_then_socket();
	gemtest_subtest("freopen-then-file")
		freopen_then_file();
	gemtest_subtest("device-dup2-over-device-is-the-new-file")
		device_over_device();
	return gemtest_exit();
}

/*
 * gemtop-workload: a known workload for gemtop's tests and benchmark.
 * Creates COUNT objects of SIZE bytes on one drm file, binds the first
 * BOUND of them (pin then unpin: bound and inactive), keeps the next
 * PINNED pinned, gives the first FLINK a flink name, writes the handles
 * to the ready file, then holds everything until SIGTERM.
 *
 *	gemtop-workload [-D PATH] [-n COUNT] [-s SIZE] [-b BOUND] [-p PINNED]
 *			[-f FLINK] [-r READYFILE]
 *
 * Exit status: 0 after SIGTERM, 1 when an ioctl fails, 2 on usage errors.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "libgem.h"
#include "util.h"

static volatile sig_atomic_t done;

static void on_term(int sig)
{
	(void)sig;
	done = 1;
}

static int fail(const char *what, unsigned long i)
{
	fprintf(stderr, "gemtop-workload: %s (object %lu): %s\n", what, i, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	unsigned long count = 8, bound = 0, pinned = 0, flinks = 0, i;
	uint64_t size = 65536;
	const char *device = NULL, *ready = NULL;
	struct sigaction sa;
	uint32_t *handles;
	FILE *f;
	int fd, c;

	while ((c = getopt(argc, argv, "D:n:s:b:p:f:r:h")) != -1) {
		switch (c) {
		case 'D':
			device = optarg;
			break;
		case 'n':
			count = strtoul(optarg, NULL, 0);
			break;
		case 's':
			if (parse_size(optarg, &size)) {
				fprintf(stderr, "gemtop-workload: invalid size '%s'\n", optarg);
				return 2;
			}
			break;
		case 'b':
			bound = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			pinned = strtoul(optarg, NULL, 0);
			break;
		case 'f':
			flinks = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			ready = optarg;
			break;
		default:
			fprintf(stderr, "usage: gemtop-workload [-D PATH] [-n COUNT] [-s SIZE] "
				"[-b BOUND] [-p PINNED] [-f FLINK] [-r READYFILE]\n");
			return 2;
		}
	}
	if (bound + pinned > count || flinks > count) {
		fprintf(stderr, "gemtop-workload: BOUND + PINNED and FLINK must not exceed COUNT\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	fd = gem_open(device, 0);
	if (fd < 0) {
		fprintf(stderr, "gemtop-workload: cannot open '%s': %s\n",
			gem_device_path(device), strerror(errno));
		return 1;
	}
	handles = calloc(count ? count : 1, sizeof(*handles));
	if (!handles)
		return 1;
	for (i = 0; i < count; i++) {
		struct drm_i915_gem_create cr = { .size = size };

		if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &cr))
			return fail("GEM_CREATE", i);
		handles[i] = cr.handle;
	}
	for (i = 0; i < bound + pinned; i++) {
		struct drm_i915_gem_pin pin = { .handle = handles[i], .alignment = 0 };
		struct drm_i915_gem_unpin unpin = { .handle = handles[i] };

		if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_PIN, &pin))
			return fail("GEM_PIN", i);
		if (i < bound && gem_ioctl(fd, DRM_IOCTL_I915_GEM_UNPIN, &unpin))
			return fail("GEM_UNPIN", i);
	}
	for (i = 0; i < flinks; i++) {
		struct drm_gem_flink fl = { .handle = handles[i] };

		if (gem_ioctl(fd, DRM_IOCTL_GEM_FLINK, &fl))
			return fail("GEM_FLINK", i);
	}
	if (ready) {
		f = fopen(ready, "w");
		if (!f)
			return fail("ready file", 0);
		fprintf(f, "pid %d\n", (int)getpid());
		for (i = 0; i < count; i++)
			fprintf(f, "%u\n", handles[i]);
		fclose(f);
	}
	while (!done)
		pause();
	free(handles);
	gem_close(fd);
	return 0;
}

/* gemtest-batch: gen3 batches for the tests: submission, safety nets, a software reference. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gemtest-batch.h"
#include "gemtest.h"
#include "libgem.h"
#include "util.h"

int gt_ioctl_errno(int fd, unsigned long request, void *arg)
{
	return gem_ioctl(fd, request, arg) ? -errno : 0;
}

int gt_execbuf(int fd, struct gen3_batch *b, uint32_t batch_handle,
	       const uint32_t *handles, const uint64_t *obj_flags,
	       unsigned int n, uint64_t exec_flags, uint64_t *offsets)
{
	const struct gen3_exec x = {
		.batch = batch_handle,
		.handles = handles,
		.flags = obj_flags,
		.n = n,
		.exec_flags = exec_flags,
	};

	return gen3_batch_submit(gem_ioctl, fd, b, &x, offsets);
}

struct watchdog {
	volatile uint32_t *dw0;
	unsigned int ms;
};

static void *watchdog_main(void *arg)
{
	struct watchdog *w = arg;
	struct timespec ts = {
		.tv_sec = w->ms / 1000,
		.tv_nsec = (long)(w->ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	__atomic_store_n(w->dw0, MI_BATCH_BUFFER_END, __ATOMIC_SEQ_CST);
	free(w);
	return NULL;
}

int gt_spin_watchdog(int fd, uint32_t batch, unsigned int ms)
{
	struct drm_i915_gem_mmap mm = { .handle = batch, .size = 4096 };
	struct watchdog *w;
	pthread_attr_t attr;
	pthread_t thread;
	int ret;

	ret = gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP, &mm);
	if (ret)
		return ret;
	w = malloc(sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->dw0 = (volatile uint32_t *)(uintptr_t)mm.addr_ptr;
	w->ms = ms;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ret = pthread_create(&thread, &attr, watchdog_main, w);
	pthread_attr_destroy(&attr);
	if (ret) {
		free(w);
		return -ret;
	}
	return 0;
}

static char timeout_msg[128];
static size_t timeout_len;
static pid_t timeout_victim;

static void on_timeout(int sig)
{
	if (timeout_victim > 0)
		kill(timeout_victim, SIGKILL);
	if (write(STDOUT_FILENO, timeout_msg, timeout_len) < 0)
		_exit(1);
	_exit(1);
}

void gt_program_timeout(unsigned int seconds, int gemd_pid)
{
	struct sigaction sa;
	int n;

	n = snprintf(timeout_msg, sizeof(timeout_msg),
		     "Bail out! still running after %u s%s\n", seconds,
		     gemd_pid > 0 ? " (gemd killed)" : "");
	timeout_len = n > 0 ? MIN((size_t)n, sizeof(timeout_msg) - 1) : 0;
	timeout_victim = gemd_pid;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_timeout;
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}

int gt_start(int argc, char **argv, const char *const *gemd_args,
	     unsigned int timeout_s)
{
	gemtest_init(argc, argv);
	gemtest_start_gemd(gemd_args);
	gt_program_timeout(timeout_s, gemtest_gemd_pid());
	return gt_open();
}

/* --- software reference ------------------------------------------------ */

uint64_t gt_tiled_offset(uint32_t tiling, uint32_t stride, uint32_t xb,
			 uint32_t y)
{
	uint32_t tw, th, within;
	uint64_t tile;

	switch (tiling) {
	case I915_TILING_X:
		tw = 512;
		th = 8;
		within = (y % th) * tw + xb % tw;
		break;
	case I915_TILING_Y:
		tw = 128;
		th = 32;
		within = (xb % tw) / 16 * 512 + (y % th) * 16 + xb % 16;
		break;
	default:
		return (uint64_t)y * stride + xb;
	}
	tile = (uint64_t)(y / th) * (stride / tw) + xb / tw;
	return tile * 4096 + within;
}

uint64_t gt_surf_offset(const struct gen3_surf *s, uint32_t x, uint32_t y)
{
	return gt_tiled_offset(s->tiling, s->pitch, x * s->cpp, y);
}

void gt_ref_color_blt(uint8_t *mem, const struct gen3_surf *dst,
		      const struct gen3_rect *r, uint32_t color, uint32_t byte_mask)
{
	int x, y;
	uint32_t i;

	for (y = r->y1; y < r->y2; y++) {
		for (x = r->x1; x < r->x2; x++) {
			uint64_t off = gt_surf_offset(dst, (uint32_t)x, (uint32_t)y);

			for (i = 0; i < dst->cpp; i++)
				if (byte_mask & (1u << i))
					mem[off + i] = (uint8_t)(color >> (8 * i));
		}
	}
}

void gt_ref_copy_blt(uint8_t *dmem, const struct gen3_surf *dst, int dx, int dy,
		     const uint8_t *smem, const struct gen3_surf *src, int sx,
		     int sy, int w, int h)
{
	int x, y;

	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			uint64_t d = gt_surf_offset(dst, (uint32_t)(dx + x), (uint32_t)(dy + y));
			uint64_t s = gt_surf_offset(src, (uint32_t)(sx + x), (uint32_t)(sy + y));

			memcpy(dmem + d, smem + s, dst->cpp);
		}
	}
}

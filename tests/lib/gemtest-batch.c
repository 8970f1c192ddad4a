/* gemtest-batch: gen3 batches, their submission and a software reference. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gemtest-batch.h"
#include "libgem.h"
#include "util.h"

static uint64_t to_user_pointer(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

int gt_ioctl_errno(int fd, unsigned long request, void *arg)
{
	return gem_ioctl(fd, request, arg) ? -errno : 0;
}

void gt_batch_reset(struct gt_batch *b)
{
	b->len = 0;
	b->nreloc = 0;
	b->overflow = false;
}

void gt_batch_emit(struct gt_batch *b, uint32_t dw)
{
	if (b->len >= GT_BATCH_MAX_DWORDS) {
		b->overflow = true;
		return;
	}
	b->dw[b->len++] = dw;
}

void gt_batch_emit_reloc(struct gt_batch *b, uint32_t target, uint32_t delta,
			 uint32_t read_domains, uint32_t write_domain)
{
	struct drm_i915_gem_relocation_entry *r;

	if (b->nreloc >= GT_BATCH_MAX_RELOCS) {
		b->overflow = true;
		return;
	}
	r = &b->reloc[b->nreloc++];
	memset(r, 0, sizeof(*r));
	r->target_handle = target;
	r->delta = delta;
	r->offset = (uint64_t)b->len * 4;
	r->presumed_offset = 0;
	r->read_domains = read_domains;
	r->write_domain = write_domain;
	gt_batch_emit(b, delta);	/* the address if target sat at 0 */
}

void gt_batch_pad_to(struct gt_batch *b, unsigned int idx)
{
	while (b->len < idx && !b->overflow)
		gt_batch_emit(b, MI_NOOP);
}

void gt_batch_end(struct gt_batch *b)
{
	gt_batch_emit(b, MI_BATCH_BUFFER_END);
	if (b->len & 1)
		gt_batch_emit(b, MI_NOOP);
}

void gt_emit_store_dword(struct gt_batch *b, uint32_t target, uint32_t offset,
			 uint32_t value)
{
	gt_batch_emit(b, MI_STORE_DWORD_IMM_GTT);
	gt_batch_emit(b, 0);
	gt_batch_emit_reloc(b, target, offset, I915_GEM_DOMAIN_RENDER,
			    I915_GEM_DOMAIN_RENDER);
	gt_batch_emit(b, value);
}

void gt_emit_spin(struct gt_batch *b, uint32_t self)
{
	uint32_t here = b->len * 4;

	gt_batch_emit(b, MI_BATCH_BUFFER_START_GTT);
	gt_batch_emit_reloc(b, self, here + MI_BATCH_NON_SECURE,
			    I915_GEM_DOMAIN_COMMAND, 0);
}

static uint32_t br13_depth(uint32_t cpp)
{
	switch (cpp) {
	case 1:
		return BR13_8BPP;
	case 2:
		return BR13_565;
	default:
		return BR13_32BPP;
	}
}

static uint32_t write_bits(uint32_t cpp)
{
	return cpp == 4 ? XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB : 0;
}

static uint32_t xy(int x, int y)
{
	return (uint32_t)(y & 0xffff) << 16 | (uint32_t)(x & 0xffff);
}

void gt_emit_color_blt_cmd(struct gt_batch *b, uint32_t cmd_flags,
			   const struct gt_surf *dst, const struct gt_rect *r,
			   uint32_t color)
{
	gt_batch_emit(b, XY_COLOR_BLT_CMD | cmd_flags);
	gt_batch_emit(b, br13_depth(dst->cpp) | BR13_ROP(ROP_PATCOPY) | dst->pitch);
	gt_batch_emit(b, xy(r->x1, r->y1));
	gt_batch_emit(b, xy(r->x2, r->y2));
	gt_batch_emit_reloc(b, dst->handle, 0, I915_GEM_DOMAIN_RENDER,
			    I915_GEM_DOMAIN_RENDER);
	gt_batch_emit(b, color);
}

void gt_emit_color_blt(struct gt_batch *b, const struct gt_surf *dst,
		       const struct gt_rect *r, uint32_t color)
{
	uint32_t flags = write_bits(dst->cpp);

	if (dst->tiling != I915_TILING_NONE)
		flags |= XY_BLT_DST_TILED;
	gt_emit_color_blt_cmd(b, flags, dst, r, color);
}

void gt_emit_copy_blt(struct gt_batch *b, const struct gt_surf *dst, int dx,
		      int dy, const struct gt_surf *src, int sx, int sy, int w,
		      int h)
{
	uint32_t flags = write_bits(dst->cpp);

	if (dst->tiling != I915_TILING_NONE)
		flags |= XY_BLT_DST_TILED;
	if (src->tiling != I915_TILING_NONE)
		flags |= XY_BLT_SRC_TILED;
	gt_batch_emit(b, XY_SRC_COPY_BLT_CMD | flags);
	gt_batch_emit(b, br13_depth(dst->cpp) | BR13_ROP(ROP_SRCCOPY) | dst->pitch);
	gt_batch_emit(b, xy(dx, dy));
	gt_batch_emit(b, xy(dx + w, dy + h));
	gt_batch_emit_reloc(b, dst->handle, 0, I915_GEM_DOMAIN_RENDER,
			    I915_GEM_DOMAIN_RENDER);
	gt_batch_emit(b, xy(sx, sy));
	gt_batch_emit(b, src->pitch);
	gt_batch_emit_reloc(b, src->handle, 0, I915_GEM_DOMAIN_RENDER, 0);
}

int gt_batch_submit(int fd, struct gt_batch *b, uint32_t batch_handle,
		    const uint32_t *handles, const uint64_t *obj_flags,
		    unsigned int n, uint64_t exec_flags, uint64_t *offsets)
{
	struct drm_i915_gem_pwrite pw = {
		.handle = batch_handle,
		.size = gt_batch_bytes(b),
		.data_ptr = to_user_pointer(b->dw),
	};
	struct drm_i915_gem_exec_object2 *obj;
	struct drm_i915_gem_execbuffer2 eb;
	unsigned int i;
	int ret;

	if (b->overflow)
		return -E2BIG;
	ret = gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw);
	if (ret)
		return ret;
	obj = calloc(n + 1, sizeof(*obj));
	if (!obj)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		obj[i].handle = handles[i];
		obj[i].flags = obj_flags ? obj_flags[i] : 0;
	}
	obj[n].handle = batch_handle;
	obj[n].relocation_count = b->nreloc;
	obj[n].relocs_ptr = to_user_pointer(b->reloc);

	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = n + 1;
	eb.batch_len = gt_batch_bytes(b);
	eb.flags = exec_flags;
	ret = gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	if (ret == 0 && offsets)
		for (i = 0; i <= n; i++)
			offsets[i] = obj[i].offset;
	free(obj);
	return ret;
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

uint64_t gt_surf_offset(const struct gt_surf *s, uint32_t x, uint32_t y)
{
	return gt_tiled_offset(s->tiling, s->pitch, x * s->cpp, y);
}

void gt_ref_color_blt(uint8_t *mem, const struct gt_surf *dst,
		      const struct gt_rect *r, uint32_t color, uint32_t byte_mask)
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

void gt_ref_copy_blt(uint8_t *dmem, const struct gt_surf *dst, int dx, int dy,
		     const uint8_t *smem, const struct gt_surf *src, int sx,
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

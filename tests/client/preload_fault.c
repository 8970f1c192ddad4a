/*
 * preload_fault: bad user memory under the interposer gives what the
 * kernel gives, never a crash.  A pointer that is not mapped, or not
 * writable where the kernel writes, is -EFAULT; read-only relocation and
 * object arrays are accepted (the kernel writes presumed offsets back
 * with __put_user and ignores a failure: gem_exec_reloc's readonly-*).
 * And the interposer's re-entrancy guard cannot stay set: a signal
 * handler that longjmps out of an ioctl blocked in gemd (IGT's timeouts)
 * leaves the next ioctls served by gemd, in step.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "batchbuffer.h"
#include "gemtest.h"
#include "preload-test.h"

#define BAD_PTR		((void *)(uintptr_t)8)

static int open_card(void)
{
	int fd = open("/dev/dri/card0", O_RDWR);

	gt_assert_f(fd >= 0, "open: %s", strerror(errno));
	return fd;
}

static void pwrite_obj(int fd, uint32_t h, uint64_t off, const void *data, uint64_t len)
{
	struct drm_i915_gem_pwrite pw = {
		.handle = h, .offset = off, .size = len, .data_ptr = (uintptr_t)data,
	};

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), 0);
}

static uint32_t read_dword(int fd, uint32_t h, uint64_t off)
{
	uint32_t v = 0;
	struct drm_i915_gem_pread pr = {
		.handle = h, .offset = off, .size = 4, .data_ptr = (uintptr_t)&v,
	};

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
	return v;
}

/* The device still answers through gemd (a real ioctl on the socket would
 * say ENOTTY). */
static void check_alive(int fd)
{
	int value = 0;
	struct drm_i915_getparam gp = {
		.param = I915_PARAM_CHIPSET_ID, .value = &value,
	};

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GETPARAM, &gp), 0);
	gt_assert_eq(value, 0x2772);
}

static void *page(int prot)
{
	void *p = mmap(NULL, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	gt_assert(p != MAP_FAILED);
	return p;
}

/* The struct itself: unreadable, or unwritable where the kernel writes. */
static void test_bad_struct(int fd)
{
	struct drm_i915_gem_create *ro = page(PROT_READ | PROT_WRITE);

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_CREATE, BAD_PTR), -EFAULT);
	check_alive(fd);
	ro->size = 4096;
	mprotect(ro, 4096, PROT_READ);
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_CREATE, ro), -EFAULT);
	check_alive(fd);
	munmap(ro, 4096);
}

/* Memory the struct points to. */
static void test_bad_pointers(int fd)
{
	uint32_t h = pt_create(fd, 4096);
	void *ro = page(PROT_READ), *none = page(PROT_NONE);
	struct drm_i915_gem_pwrite pw = { .handle = h, .size = 64 };
	struct drm_i915_gem_pread pr = { .handle = h, .size = 64 };
	struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID };
	struct drm_version v = { .name_len = 16 };
	struct drm_i915_gem_exec_object2 obj = { .handle = h };
	struct drm_i915_gem_execbuffer2 eb = { .buffer_count = 1 };

	pw.data_ptr = (uintptr_t)none;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), -EFAULT);
	pw.data_ptr = (uintptr_t)BAD_PTR;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), -EFAULT);
	pr.data_ptr = (uintptr_t)ro;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), -EFAULT);
	gp.value = ro;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GETPARAM, &gp), -EFAULT);
	v.name = ro;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_VERSION, &v), -EFAULT);
	eb.buffers_ptr = (uintptr_t)none;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), -EFAULT);
	obj.relocation_count = 1;
	obj.relocs_ptr = (uintptr_t)BAD_PTR;
	eb.buffers_ptr = (uintptr_t)&obj;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), -EFAULT);
	check_alive(fd);
	munmap(ro, 4096);
	munmap(none, 4096);
}

/*
 * gem_exec_reloc readonly-*: relocation entries (and the object list) in
 * read-only memory.  The batch is relocated and runs; nothing can be
 * written back, and that is no error.
 */
static void test_readonly_relocs(int fd)
{
	uint32_t target = pt_create(fd, 4096), batch = pt_create(fd, 4096);
	uint32_t dw[4] = { MI_NOOP, 0, MI_BATCH_BUFFER_END, 0 };
	struct drm_i915_gem_relocation_entry *reloc = page(PROT_READ | PROT_WRITE);
	struct drm_i915_gem_exec_object2 *objs = page(PROT_READ | PROT_WRITE);
	struct drm_i915_gem_execbuffer2 eb = { .buffer_count = 2 };
	struct drm_i915_gem_exec_object2 again[2] = {
		{ .handle = target }, { .handle = batch },
	};

	pwrite_obj(fd, batch, 0, dw, sizeof(dw));
	reloc->target_handle = target;
	reloc->offset = 4;
	reloc->delta = 0x20;
	reloc->presumed_offset = ~0ull;
	reloc->read_domains = I915_GEM_DOMAIN_RENDER;
	objs[0].handle = target;
	objs[1].handle = batch;
	objs[1].relocation_count = 1;
	objs[1].relocs_ptr = (uintptr_t)reloc;
	objs[0].offset = objs[1].offset = ~0ull;
	mprotect(reloc, 4096, PROT_READ);
	mprotect(objs, 4096, PROT_READ);
	eb.buffers_ptr = (uintptr_t)objs;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	gt_assert_eq_u64(reloc->presumed_offset, ~0ull);	/* not written */
	gt_assert_eq_u64(objs[0].offset, ~0ull);
	/* Where the target is (nothing moved it since), and that the batch
	 * was relocated to it. */
	eb.buffers_ptr = (uintptr_t)again;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	gt_assert_eq(read_dword(fd, batch, 4), again[0].offset + 0x20);
	check_alive(fd);
	munmap(reloc, 4096);
	munmap(objs, 4096);
}

/*
 * gem_exec_params mmapped: the execbuffer struct and its object list in a
 * PROT_WRITE mapping, which x86 (and so the kernel's copy_from_user) can
 * read although process_vm_readv refuses it.
 */
static void test_write_only_memory(int fd)
{
	uint32_t batch = pt_create(fd, 4096), bbe[2] = { MI_BATCH_BUFFER_END, 0 };
	struct drm_i915_gem_execbuffer2 *eb = page(PROT_WRITE);
	struct drm_i915_gem_exec_object2 *obj = (void *)(eb + 1);

	pwrite_obj(fd, batch, 0, bbe, sizeof(bbe));
	obj->handle = batch;
	eb->buffers_ptr = (uintptr_t)obj;
	eb->buffer_count = 1;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, eb), 0);
	munmap(eb, 4096);
}

/* --- leaving an ioctl by longjmp -------------------------------------- */

static sigjmp_buf jmp;

static void alarm_jump(int sig)
{
	(void)sig;
	siglongjmp(jmp, 1);
}

/*
 * A batch that spins on itself keeps GEM_WAIT (no timeout) blocked in
 * gemd; SIGALRM longjmps out of the ioctl.  Then the spin is ended through
 * a CPU map and the device must answer every ioctl correctly: the guard
 * is clear and the abandoned wait's reply does not answer the next call.
 */
static void test_longjmp_out_of_wait(int fd)
{
	uint32_t bb = pt_create(fd, 4096);
	struct drm_i915_gem_exec_object2 obj = { .handle = bb };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)&obj, .buffer_count = 1,
	};
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = bb, .offset = 4, .delta = 1,	/* non-secure bit */
		.presumed_offset = ~0ull, .read_domains = I915_GEM_DOMAIN_COMMAND,
	};
	struct drm_i915_gem_wait wait = { .bo_handle = bb, .timeout_ns = -1 };
	struct drm_i915_gem_mmap mm = { .handle = bb, .size = 4096 };
	uint32_t spin[2] = { MI_BATCH_BUFFER_START_GTT, 0 };
	struct sigaction sa = { .sa_handler = alarm_jump };
	volatile uint32_t *map;
	volatile int jumped = 0;

	pwrite_obj(fd, bb, 0, spin, sizeof(spin));
	obj.relocation_count = 1;
	obj.relocs_ptr = (uintptr_t)&reloc;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP, &mm), 0);
	map = (uint32_t *)(uintptr_t)mm.addr_ptr;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	if (sigsetjmp(jmp, 1) == 0) {
		alarm(1);
		ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &wait);
		alarm(0);
	} else {
		jumped = 1;
	}
	signal(SIGALRM, SIG_DFL);
	/* End the spin: the batch jumps to itself until dword 0 ends it. */
	map[0] = MI_BATCH_BUFFER_END;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	check_alive(fd);
	wait.timeout_ns = -1;
	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_WAIT, &wait), 0);
	check_alive(fd);
	gt_assert_f(jumped, "the wait ended without the alarm");
	munmap((void *)(uintptr_t)mm.addr_ptr, 4096);
}

int main(int argc, char **argv)
{
	int fd;

	preload_test_init(argc, argv);
	fd = open_card();

	gemtest_subtest("bad-struct-efault")
		test_bad_struct(fd);
	gemtest_subtest("bad-pointers-efault")
		test_bad_pointers(fd);
	gemtest_subtest("readonly-relocs")
		test_readonly_relocs(fd);
	gemtest_subtest("write-only-memory")
		test_write_only_memory(fd);
	gemtest_subtest("longjmp-out-of-wait")
		test_longjmp_out_of_wait(fd);

	close(fd);
	return gemtest_exit();
}

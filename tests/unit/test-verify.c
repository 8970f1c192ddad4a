/*
 * gem_verify_state against deliberate corruption: each rule is broken
 * once, by hand, and verify must report exactly that rule (the mask has
 * that bit alone), then nothing once the damage is undone.  Also: the
 * check after an ioctl aborts the process, and (debug builds) so does
 * taking the locks out of order.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gem_priv.h"
#include "gemtest-inproc.h"
#include "gemtest.h"

/* The state every case starts from: a executed (bound, inactive), b
 * created only (unbound), and the batch that ran. */
struct fixture {
	uint32_t batch, a, b;
	struct gem_object *oa, *ob;
};

static void setup(struct fixture *f)
{
	gti_setup(16u << 20);
	f->batch = gti_make_batch();
	f->a = gti_create(8192);
	f->b = gti_create(4096);
	gt_assert_eq(gti_exec(f->batch, &f->a, 1, f->a), 0);
	gti_idle();
	f->oa = gti_obj(f->a);
	f->ob = gti_obj(f->b);
	gt_assert_eq(f->oa->list, GEM_LIST_INACTIVE);
	gt_assert_eq(f->ob->list, GEM_LIST_UNBOUND);
	gem_lock(gti_dev);
	gt_assert_eq(gem_verify_state(gti_dev), 0);
	/* The caller corrupts, checks and repairs with the lock held, so the
	 * retire worker never sees the damage. */
}

static void check_only(enum gem_verify_rule rule)
{
	uint32_t got = gem_verify_state(gti_dev);

	gt_assert_f(got == 1u << rule, "rule %s: verify reported mask 0x%x, "
		    "expected 0x%x", gem_verify_rule_name(rule), got, 1u << rule);
}

static void repaired_and_teardown(void)
{
	gt_assert_eq(gem_verify_state(gti_dev), 0);
	gem_unlock(gti_dev);
	gti_teardown();
}

/* Every rule has a name, and the names are distinct. */
static void test_rule_names(void)
{
	unsigned int i, j;

	for (i = 0; i < GEM_VERIFY_RULE_COUNT; i++) {
		gt_assert(strcmp(gem_verify_rule_name(i), "unknown"));
		for (j = 0; j < i; j++)
			gt_assert(strcmp(gem_verify_rule_name(i), gem_verify_rule_name(j)));
	}
	gt_assert(!strcmp(gem_verify_rule_name(GEM_VERIFY_RULE_COUNT), "unknown"));
}

/* A fake request of gti_file, queued but (the lock is held) never retired. */
static struct gem_request *fake_request(void)
{
	struct gem_request *rq = calloc(1, sizeof(*rq));

	gt_assert(rq);
	rq->seqno = gti_dev->next_seqno;
	list_add_tail(&rq->link, &gti_dev->requests);
	INIT_LIST_HEAD(&rq->file_link);
	return rq;
}

int main(int argc, char **argv)
{
	struct fixture f;

	gemtest_init(argc, argv);

	gemtest_subtest("rule-names")
		test_rule_names();

	gemtest_subtest("clean-state-passes") {
		setup(&f);
		repaired_and_teardown();
	}

	gemtest_subtest("list-tag") {
		setup(&f);
		f.oa->list = GEM_LIST_PINNED;	/* still on the inactive list */
		check_only(GEM_VERIFY_LIST_TAG);
		f.oa->list = GEM_LIST_INACTIVE;
		repaired_and_teardown();
	}

	gemtest_subtest("list-state") {
		setup(&f);
		/* A proper move (tag and counters follow), to the wrong list. */
		gem_object_move_to_list(f.oa, GEM_LIST_UNBOUND);
		check_only(GEM_VERIFY_LIST_STATE);
		gem_object_move_to_list(f.oa, GEM_LIST_INACTIVE);
		repaired_and_teardown();
	}

	gemtest_subtest("list-counters") {
		setup(&f);
		gti_dev->list_bytes[GEM_LIST_UNBOUND] += 4096;
		check_only(GEM_VERIFY_LIST_COUNTERS);
		gti_dev->list_bytes[GEM_LIST_UNBOUND] -= 4096;
		repaired_and_teardown();
	}

	gemtest_subtest("objects") {
		setup(&f);
		gti_dev->object_count++;
		check_only(GEM_VERIFY_OBJECTS);
		gti_dev->object_count--;
		repaired_and_teardown();
	}

	gemtest_subtest("active") {
		setup(&f);
		/* Active with its reference and a seqno, but never bound. */
		f.ob->active = true;
		f.ob->last_read_seqno = 1;
		f.ob->refcount++;
		gem_object_move_to_list(f.ob, GEM_LIST_ACTIVE);
		check_only(GEM_VERIFY_ACTIVE);
		f.ob->active = false;
		f.ob->last_read_seqno = 0;
		f.ob->refcount--;
		gem_object_move_to_list(f.ob, GEM_LIST_UNBOUND);
		repaired_and_teardown();
	}

	gemtest_subtest("domains") {
		setup(&f);
		f.oa->read_domains |= I915_GEM_DOMAIN_RENDER;
		f.oa->write_domain = I915_GEM_DOMAIN_RENDER;	/* yet idle */
		check_only(GEM_VERIFY_DOMAINS);
		f.oa->write_domain = 0;
		repaired_and_teardown();
	}

	gemtest_subtest("pin") {
		setup(&f);
		gti_dev->ring->pin_count++;	/* a pin nobody holds */
		check_only(GEM_VERIFY_PIN);
		gti_dev->ring->pin_count--;
		repaired_and_teardown();
	}

	gemtest_subtest("pinned-bytes") {
		setup(&f);
		gti_dev->pinned_bytes += 4096;
		check_only(GEM_VERIFY_PINNED_BYTES);
		gti_dev->pinned_bytes -= 4096;
		repaired_and_teardown();
	}

	gemtest_subtest("gtt-node") {
		setup(&f);
		gti_dev->gtt.node_count++;	/* a node no object owns */
		check_only(GEM_VERIFY_GTT_NODE);
		gti_dev->gtt.node_count--;
		repaired_and_teardown();
	}

	gemtest_subtest("gtt-pte") {
		uint32_t page;

		setup(&f);
		page = gem_object_gtt_offset(f.oa) / GTT_PAGE_SIZE;
		gpu_gtt_set_page(gti_dev->gpu, page, NULL);
		check_only(GEM_VERIFY_GTT_PTE);
		gpu_gtt_set_page(gti_dev->gpu, page, f.oa->vaddr);
		repaired_and_teardown();
	}

	gemtest_subtest("fence") {
		setup(&f);
		f.oa->fence_reg = 5;		/* the slot and register say free */
		check_only(GEM_VERIFY_FENCE);
		f.oa->fence_reg = -1;
		repaired_and_teardown();
	}

	gemtest_subtest("handles") {
		setup(&f);
		gti_file->handle_count++;
		check_only(GEM_VERIFY_HANDLES);
		gti_file->handle_count--;
		repaired_and_teardown();
	}

	gemtest_subtest("handle-count") {
		setup(&f);
		/* One more handle counted (and referenced) than exist. */
		f.oa->handle_count++;
		f.oa->refcount++;
		check_only(GEM_VERIFY_HANDLE_COUNT);
		f.oa->handle_count--;
		f.oa->refcount--;
		repaired_and_teardown();
	}

	gemtest_subtest("flink") {
		struct drm_gem_flink fl = { .handle = 0 };

		setup(&f);
		gem_unlock(gti_dev);
		fl.handle = f.a;
		gt_assert_eq(gti_ioctl(DRM_IOCTL_GEM_FLINK, &fl), 0);
		gem_lock(gti_dev);
		gt_assert_eq(gem_verify_state(gti_dev), 0);
		gt_assert(idmap_remove(&gti_dev->names, fl.name) == f.oa);
		check_only(GEM_VERIFY_FLINK);
		gt_assert_eq(idmap_insert(&gti_dev->names, fl.name, f.oa), 0);
		repaired_and_teardown();
	}

	gemtest_subtest("refcount") {
		setup(&f);
		f.ob->refcount++;		/* a leak */
		check_only(GEM_VERIFY_REFCOUNT);
		f.ob->refcount--;
		repaired_and_teardown();
	}

	gemtest_subtest("exec") {
		setup(&f);
		f.oa->in_exec = true;		/* no execbuffer runs */
		check_only(GEM_VERIFY_EXEC);
		f.oa->in_exec = false;
		repaired_and_teardown();
	}

	gemtest_subtest("arena") {
		setup(&f);
		f.oa->arena->free -= 4096;
		check_only(GEM_VERIFY_ARENA);
		f.oa->arena->free += 4096;
		repaired_and_teardown();
	}

	/* Another file holding b, which lives in gti_file's own arena. */
	gemtest_subtest("isolation") {
		struct gem_file *other;
		struct gem_holder saved;

		setup(&f);
		gem_unlock(gti_dev);
		gt_assert_eq(gem_file_open(gti_dev, 1, "other", &other), 0);
		gem_lock(gti_dev);
		saved = f.ob->holder;
		f.ob->holder.file = other;
		check_only(GEM_VERIFY_ISOLATION);
		f.ob->holder = saved;
		gt_assert_eq(gem_verify_state(gti_dev), 0);
		gem_unlock(gti_dev);
		gem_file_release(other);
		gem_lock(gti_dev);
		repaired_and_teardown();
	}

	gemtest_subtest("requests") {
		struct gem_request *rq;

		setup(&f);
		rq = fake_request();
		gt_assert_eq(gem_verify_state(gti_dev), 0);
		rq->file = gti_file;		/* but not on the file's list */
		check_only(GEM_VERIFY_REQUESTS);
		list_del_init(&rq->link);
		free(rq);
		repaired_and_teardown();
	}

	gemtest_subtest("status") {
		struct gem_handle_state *e;
		uint64_t size;
		int fd;

		setup(&f);
		/* The table exists once a client asks for it (dev->lock). */
		gem_unlock(gti_dev);
		fd = gem_status_handles_fd(gti_file, &size);
		gt_assert(fd >= 0);
		close(fd);
		gem_lock(gti_dev);
		gt_assert_eq(gem_verify_state(gti_dev), 0);
		e = &gti_file->status[f.a];
		gt_assert_eq(e->flags, GEM_HANDLE_DIRECT);
		gt_assert_eq(e->read_seqno, f.oa->last_read_seqno);
		e->read_seqno--;		/* a stale seqno clients would trust */
		check_only(GEM_VERIFY_STATUS);
		e->read_seqno++;
		f.ob->solo_handle = f.a;	/* its only handle, misnamed */
		check_only(GEM_VERIFY_STATUS);
		f.ob->solo_handle = f.b;
		repaired_and_teardown();
	}

	/* With verification on, the next ioctl finds the damage and aborts. */
	gemtest_subtest("checked-after-ioctl") {
		struct drm_i915_gem_get_aperture ap;
		int status;
		pid_t pid;

		setup(&f);
		/* Forked with dev->lock held, so no other thread had it: only
		 * this thread lives on in the child. */
		fflush(NULL);
		pid = fork();
		gt_assert(pid >= 0);
		if (pid == 0) {
			gti_dev->verify = UINT32_MAX;
			gti_dev->object_count++;
			gem_unlock(gti_dev);
			gti_ioctl(DRM_IOCTL_I915_GEM_GET_APERTURE, &ap);
			_exit(0);
		}
		gem_unlock(gti_dev);
		gt_assert_eq(waitpid(pid, &status, 0), pid);
		gt_assert_f(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
			    "child status 0x%x", status);
		gti_teardown();
	}

	gemtest_subtest("lock-order-asserted") {
#ifdef GEMKIT_DEBUG
		int status;
		pid_t pid;

		gti_setup(16u << 20);
		/* Both held across fork, in order: the child owns them. */
		gem_lock(gti_dev);
		gem_irq_lock(gti_dev);
		fflush(NULL);
		pid = fork();
		gt_assert(pid >= 0);
		if (pid == 0) {
			gem_unlock(gti_dev);
			gem_lock(gti_dev);	/* dev->lock inside irq_lock */
			_exit(0);
		}
		gem_irq_unlock(gti_dev);
		gem_unlock(gti_dev);
		gt_assert_eq(waitpid(pid, &status, 0), pid);
		gt_assert_f(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
			    "child status 0x%x", status);
		gti_teardown();
#else
		gemtest_skip("lock-order assertions need --enable-debug");
#endif
	}

	return gemtest_exit();
}

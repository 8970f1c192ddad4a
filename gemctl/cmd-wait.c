/*
 * wait H | --seqno N | --idle [--timeout DUR]
 *
 * H: I915_GEM_WAIT in slices (so Ctrl-C in the shell interrupts it);
 * --seqno/--idle poll gemkit_ring.  On expiry: exit 124 and the ring
 * state on stderr.
 */
#include <errno.h>
#include <time.h>

#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"
#include "util.h"

#define WAIT_SLICE_NS	(100ull * 1000000ull)

static int timed_out(struct gemctl *ctl, uint64_t timeout_ns, const char *what)
{
	gemctl_error(ctl, GEMCTL_TIMEOUT, "timed out after %llums waiting for %s",
		     (unsigned long long)(timeout_ns / 1000000), what);
	gemctl_print_evidence(ctl);
	return GEMCTL_TIMEOUT;
}

static int wait_handle(struct gemctl *ctl, uint32_t handle, uint64_t timeout_ns)
{
	uint64_t deadline = gemctl_deadline(timeout_ns), left;
	struct drm_i915_gem_wait arg;
	struct strbuf what = STRBUF_INIT;
	int ret;

	for (;;) {
		left = now_ns() < deadline ? deadline - now_ns() : 0;
		arg = (struct drm_i915_gem_wait){
			.bo_handle = handle,
			.timeout_ns = (int64_t)MIN(left, WAIT_SLICE_NS),
		};
		ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_WAIT, &arg);
		/* Ctrl-C ends the wait in gemd too (EINTR), as in the kernel. */
		if (ret != -ETIME && ret != -EINTR)
			break;
		if (gemctl_interrupted)
			return gemctl_error(ctl, GEMCTL_FAILED, "interrupted");
		if (ret == -EINTR)
			continue;
		if (gemctl_expired(deadline)) {
			strbuf_addf(&what, "handle %u", handle);
			ret = timed_out(ctl, timeout_ns, what.buf);
			strbuf_release(&what);
			return ret;
		}
	}
	if (ret)
		return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_WAIT", -ret, handle,
					  "handle %u", handle);
	return GEMCTL_OK;
}

static int wait_ring(struct gemctl *ctl, bool idle, uint32_t seqno,
		     uint64_t timeout_ns, struct gdfs_ring *ring)
{
	uint64_t deadline = gemctl_deadline(timeout_ns);
	struct timespec ts = { 0, 2 * 1000000 };
	int ret;

	for (;;) {
		ret = gemctl_read_ring(ctl, ring);
		if (ret)
			return ret;
		if (ring->wedged) {
			gdfs_ring_release(ring);
			return gemctl_error(ctl, GEMCTL_HUNG, "the GPU is wedged");
		}
		if (idle ? (ring->idle && !ring->outstanding) :
			   (int32_t)(ring->completed_seqno - seqno) >= 0)
			return GEMCTL_OK;
		gdfs_ring_release(ring);
		if (gemctl_interrupted)
			return gemctl_error(ctl, GEMCTL_FAILED, "interrupted");
		if (gemctl_expired(deadline))
			return timed_out(ctl, timeout_ns, idle ? "idle" : "the seqno");
		nanosleep(&ts, NULL);
	}
}

static const struct tool_opt wait_opts[] = {
	{ "seqno", 0, 's', TOOL_ARG_VALUE, "N",
	  "wait until the GPU completed seqno N" },
	{ "idle", 0, 'i', TOOL_ARG_NONE, NULL,
	  "wait until the GPU is idle" },
	{ "timeout", 0, 't', TOOL_ARG_VALUE, "DUR",
	  "give up after DUR (exit 124; default: -t)" },
	TOOL_OPT_END
};

static int cmd_wait(struct gemctl *ctl, int argc, char **argv)
{
	uint64_t timeout_ns = ctl->timeout_ns;
	bool idle = false, by_seqno = false;
	struct gdfs_ring ring;
	uint32_t seqno = 0, handle = 0;
	int opt, ret;
	gj *doc;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		switch (opt) {
		case 's':
			if ((ret = gemctl_parse_u32(ctl, "seqno", optarg, &seqno)))
				return ret;
			by_seqno = true;
			break;
		case 'i':
			idle = true;
			break;
		case 't':
			if ((ret = gemctl_parse_timeout(ctl, optarg, &timeout_ns)))
				return ret;
			break;
		default:
			return gemctl_usage(ctl);
		}
	}
	if ((int)idle + (int)by_seqno + (argc - optind) != 1)
		return gemctl_usage(ctl);
	if (!idle && !by_seqno) {
		if ((ret = gemctl_parse_handle(ctl, argv[optind], &handle)))
			return ret;
		ret = wait_handle(ctl, handle, timeout_ns);
		if (ret)
			return ret;
		doc = gemctl_json_begin(ctl);
		gj_uint(doc, "handle", handle);
		gj_bool(doc, "idle", true);
		gemctl_json_end(ctl, doc);
		return GEMCTL_OK;
	}
	ret = wait_ring(ctl, idle, seqno, timeout_ns, &ring);
	if (ret)
		return ret;
	gemctl_result(ctl, "%u", ring.completed_seqno);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "completed_seqno", ring.completed_seqno);
	gj_uint(doc, "emitted_seqno", ring.emitted_seqno);
	gemctl_json_end(ctl, doc);
	gdfs_ring_release(&ring);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_wait_entry = {
	.name = "wait",
	.args = "H | --seqno N | --idle [--timeout DUR]",
	.summary = "wait for an object, a seqno or an idle GPU",
	.opts = wait_opts,
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_wait,
};

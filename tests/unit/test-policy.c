/*
 * Unit tests of gemd's permission table (driver/server/policy.c): the
 * exact verdict and errno for each request and each kind of peer (root,
 * gemd's user, another user), with the modes the debugfs files really
 * have, the log lines it writes, and the once-a-second limit on refusal
 * lines with the clock stepped by hand.  And the rule kept where names
 * are looked up: GEM_OPEN of a flink name is its maker's user's (and
 * root's) unless gemd shares names (--share-names).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "debugfs.h"
#include "gemtest-inproc.h"
#include "gemtest.h"
#include "log.h"
#include "policy.h"
#include "protocol.h"
#include "ratelimit.h"
#include "util.h"

#define OWNER	1000u		/* gemd's user */
#define OTHER	1001u

#define SEC	1000000000ull

static uint64_t fake_now = 100 * SEC;

static uint64_t fake_clock(void)
{
	return fake_now;
}

/* One request, and what root, gemd's user and another user get. */
struct policy_case {
	const char *what;
	uint16_t type;
	uint32_t request;
	const char *path;	/* debugfs: its mode is gem_debugfs_mode()'s */
	int root, owner, other;
};

/* A debugfs request: named "READ i915_wedged" and so on. */
#define DFS(op, path, root, owner, other) \
	{ #op " " path, GEM_MSG_DEBUGFS, GEM_DEBUGFS_##op, path, root, owner, other }

static const struct policy_case cases[] = {
	{ "suspend", GEM_MSG_CONTROL, GEM_CONTROL_SUSPEND, NULL, 0, 0, -EACCES },
	{ "resume", GEM_MSG_CONTROL, GEM_CONTROL_RESUME, NULL, 0, 0, -EACCES },
	{ "control op 99", GEM_MSG_CONTROL, 99, NULL, 0, 0, -EACCES },
	/* The kernel's 0444 files: anyone who may connect. */
	DFS(READ, "i915_gem_objects", 0, 0, 0),
	DFS(READ, "gemkit_counters", 0, 0, 0),
	/* Object contents and the error state: the owner's and root's. */
	DFS(READ, "gemkit_object_data/1", 0, 0, -EACCES),
	DFS(RANGE, "gemkit_object_data/1", 0, 0, -EACCES),
	DFS(READ, "i915_error_state", 0, 0, -EACCES),
	DFS(RANGE, "gemkit_aperture", 0, 0, -EACCES),
	/* A read of no debugfs file is for its handler to answer: the
	 * connection's own fdinfo, or ENOENT. */
	DFS(READ, GEM_DEBUGFS_FDINFO, 0, 0, 0),
	DFS(READ, "no_such_file", 0, 0, 0),
	/* Every write: the owner's and root's; none to a missing file. */
	DFS(WRITE, "i915_wedged", 0, 0, -EACCES),
	DFS(WRITE, "i915_gem_drop_caches", 0, 0, -EACCES),
	DFS(WRITE, "i915_error_state", 0, 0, -EACCES),
	DFS(WRITE, "i915_gem_objects", 0, 0, -EACCES),
	DFS(WRITE, "no_such_file", -ENOENT, -ENOENT, -ENOENT),
	DFS(LIST, "", 0, 0, 0),
	/* DRM_ROOT_ONLY, as the kernel had them. */
	{ "I915_GEM_PIN", GEM_MSG_IOCTL, DRM_IOCTL_I915_GEM_PIN, NULL, 0,
	  -EACCES, -EACCES },
	{ "I915_GEM_UNPIN", GEM_MSG_IOCTL, DRM_IOCTL_I915_GEM_UNPIN, NULL, 0,
	  -EACCES, -EACCES },
	/* Everything else is anyone's who may connect (GEM_OPEN of another
	 * user's name is refused where the name is looked up). */
	{ "I915_GEM_CREATE", GEM_MSG_IOCTL, DRM_IOCTL_I915_GEM_CREATE, NULL, 0, 0, 0 },
	{ "GEM_OPEN", GEM_MSG_IOCTL, DRM_IOCTL_GEM_OPEN, NULL, 0, 0, 0 },
	{ "GEM_FLINK", GEM_MSG_IOCTL, DRM_IOCTL_GEM_FLINK, NULL, 0, 0, 0 },
	{ "hang wait", GEM_MSG_HANG_WAIT, 0, NULL, 0, 0, 0 },
	{ "mount", GEM_MSG_MOUNT, 0, NULL, 0, 0, 0 },
	{ "arena", GEM_MSG_ARENA, 1, NULL, 0, 0, 0 },
};

static int check(uid_t uid, pid_t pid, const char *comm,
		 const struct policy_case *c)
{
	struct policy_peer peer = { .uid = uid, .pid = pid, .comm = comm };
	struct policy_request req = {
		.type = c->type, .request = c->request, .path = c->path,
		.mode = c->path ? gem_debugfs_mode(c->path) : -1,
	};

	return policy_check(OWNER, &peer, &req);
}

/* What the log wrote to stderr while the calls ran ("tester", LOG_INFO). */
struct capture {
	int fds[2], saved;
};

static void capture_start(struct capture *cap)
{
	gt_assert_eq(pipe(cap->fds), 0);
	fflush(stderr);
	cap->saved = dup(STDERR_FILENO);
	gt_assert(cap->saved >= 0);
	dup2(cap->fds[1], STDERR_FILENO);
	log_init("tester", 0, LOG_INFO);
}

static void capture_end(struct capture *cap, char *buf, size_t size)
{
	ssize_t n;

	fflush(stderr);
	dup2(cap->saved, STDERR_FILENO);
	close(cap->saved);
	close(cap->fds[1]);
	n = read_full(cap->fds[0], buf, size - 1);
	close(cap->fds[0]);
	gt_assert(n >= 0);
	buf[n] = '\0';
	log_init("tester", 0, LOG_NOTICE);
}

static const struct policy_case *find_case(const char *what)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (!strcmp(cases[i].what, what))
			return &cases[i];
	gt_assert_f(0, "no case '%s'", what);
	return NULL;
}

/* An ioctl on the in-process file as uid (root: admin too). */
static int ioctl_as(uid_t uid, unsigned long cmd, void *arg)
{
	struct gem_call call = {
		.caller_pid = GTI_PID, .caller_uid = uid, .caller_admin = uid == 0,
		.fd_in = -1, .fd_out = -1,
	};

	return gem_ioctl_dispatch(gti_file, (unsigned int)cmd, arg, &call);
}

/* GEM_OPEN of a name OWNER made, by uid: the errno, 0 if opened. */
static int open_name_as(bool share_names, uid_t uid)
{
	struct gem_device_config cfg = { .aperture_size = 16 << 20,
					 .share_names = share_names };
	struct drm_i915_gem_create create = { .size = 4096 };
	struct drm_gem_flink flink = { 0 };
	struct drm_gem_open open = { 0 };
	int ret;

	gt_assert_eq(gem_device_create(&cfg, &gti_dev), 0);
	gt_assert_eq(gem_file_open(gti_dev, GTI_PID, "test", &gti_file), 0);
	gt_assert_eq(ioctl_as(OWNER, DRM_IOCTL_I915_GEM_CREATE, &create), 0);
	flink.handle = create.handle;
	gt_assert_eq(ioctl_as(OWNER, DRM_IOCTL_GEM_FLINK, &flink), 0);
	open.name = flink.name;
	ret = ioctl_as(uid, DRM_IOCTL_GEM_OPEN, &open);
	if (!ret)
		gt_assert_eq(open.size, 4096);
	gti_teardown();
	return ret;
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	policy_set_clock(fake_clock);

	gemtest_subtest("table") {
		pid_t pid = 1000;
		char log[16384];
		struct capture cap;
		size_t i;

		capture_start(&cap);
		for (i = 0; i < ARRAY_SIZE(cases); i++) {
			const struct policy_case *c = &cases[i];
			int got[3];

			got[0] = check(0, pid++, "t", c);
			got[1] = check(OWNER, pid++, "t", c);
			got[2] = check(OTHER, pid++, "t", c);
			if (got[0] != c->root || got[1] != c->owner ||
			    got[2] != c->other) {
				capture_end(&cap, log, sizeof(log));
				gt_assert_f(0, "%s: root %d owner %d other %d, "
					    "expected %d %d %d", c->what, got[0],
					    got[1], got[2], c->root, c->owner,
					    c->other);
			}
		}
		capture_end(&cap, log, sizeof(log));
	}

	gemtest_subtest("debugfs-modes") {
		/* The modes the table judges by: the FUSE tree's. */
		gt_assert_eq(gem_debugfs_mode("i915_gem_objects"), 0444);
		gt_assert_eq(gem_debugfs_mode("gemkit_object_data/1") & 0077, 0);
		gt_assert_eq(gem_debugfs_mode("i915_error_state") & 0077, 0);
		gt_assert_eq(gem_debugfs_mode("i915_wedged") & 0022, 0);
		gt_assert_eq(gem_debugfs_mode("no_such_file"), -ENOENT);
		gt_assert_eq(gem_debugfs_mode(GEM_DEBUGFS_FDINFO), -ENOENT);
	}

	gemtest_subtest("log-lines") {
		char log[4096];
		struct capture cap;

		fake_now += 10 * SEC;
		capture_start(&cap);
		/* Audited and allowed: one notice.  Allowed reads: nothing. */
		gt_assert_eq(check(OWNER, 2001, "gemctl", find_case("suspend")), 0);
		gt_assert_eq(check(OTHER, 2002, "gemtop", find_case("READ i915_gem_objects")), 0);
		gt_assert_eq(check(0, 2003, "igt", find_case("I915_GEM_PIN")), 0);
		/* Refused: one warning each. */
		gt_assert_eq(check(OTHER, 2004, "evil", find_case("WRITE i915_wedged")),
			     -EACCES);
		gt_assert_eq(check(OTHER, 2005, "evil", find_case("READ gemkit_object_data/1")),
			     -EACCES);
		/* A write to nothing: ENOENT, and no line at all. */
		gt_assert_eq(check(OTHER, 2006, "evil", find_case("WRITE no_such_file")),
			     -ENOENT);
		gt_assert_eq(check(OWNER, 2007, "gemctl", find_case("WRITE no_such_file")),
			     -ENOENT);
		capture_end(&cap, log, sizeof(log));
		gt_assert_f(!strcmp(log,
			"tester: notice: uid 1000 pid 2001 (gemctl): driver control 0x1\n"
			"tester: notice: uid 0 pid 2003 (igt): I915_GEM_PIN 0xc0186455\n"
			"tester: warning: uid 1001 pid 2004 (evil): debugfs write 0x1 i915_wedged refused: EACCES\n"
			"tester: warning: uid 1001 pid 2005 (evil): debugfs read 0 gemkit_object_data/1 refused: EACCES\n"),
			"got \"%s\"", log);
		gt_assert(!strstr(log, "no_such_file"));
	}

	gemtest_subtest("refusals-once-a-second") {
		const struct policy_case *wedge = find_case("WRITE i915_wedged");
		const struct policy_case *data = find_case("READ gemkit_object_data/1");
		char log[4096];
		struct capture cap;
		int i;

		fake_now += 10 * SEC;
		capture_start(&cap);
		/* Five refusals in one instant: one line. */
		for (i = 0; i < 5; i++)
			gt_assert_eq(check(OTHER, 3001, "evil", wedge), -EACCES);
		/* Another rule of the same process, and the same rule of
		 * another process: lines of their own. */
		gt_assert_eq(check(OTHER, 3001, "evil", data), -EACCES);
		gt_assert_eq(check(OTHER, 3002, "evil2", wedge), -EACCES);
		/* One nanosecond short of a second: still quiet. */
		fake_now += SEC - 1;
		gt_assert_eq(check(OTHER, 3001, "evil", wedge), -EACCES);
		/* A second after the line: the next, counting the 5 missed. */
		fake_now += 1;
		gt_assert_eq(check(OTHER, 3001, "evil", wedge), -EACCES);
		/* And at once after it, quiet again. */
		gt_assert_eq(check(OTHER, 3001, "evil", wedge), -EACCES);
		/* A later window counts only what it suppressed. */
		fake_now += 5 * SEC;
		gt_assert_eq(check(OTHER, 3001, "evil", wedge), -EACCES);
		capture_end(&cap, log, sizeof(log));
		gt_assert_f(!strcmp(log,
			"tester: warning: uid 1001 pid 3001 (evil): debugfs write 0x1 i915_wedged refused: EACCES\n"
			"tester: warning: uid 1001 pid 3001 (evil): debugfs read 0 gemkit_object_data/1 refused: EACCES\n"
			"tester: warning: uid 1001 pid 3002 (evil2): debugfs write 0x1 i915_wedged refused: EACCES\n"
			"tester: warning: uid 1001 pid 3001 (evil): debugfs write 0x1 i915_wedged refused: EACCES (and 5 more since the last such line)\n"
			"tester: warning: uid 1001 pid 3001 (evil): debugfs write 0x1 i915_wedged refused: EACCES (and 1 more since the last such line)\n"),
			"got \"%s\"", log);
	}

	gemtest_subtest("ratelimit-window") {
		struct ratelimit rl = { 0 };
		unsigned long missed = 99;

		gt_assert(ratelimit_allow_at(&rl, 5 * SEC, &missed));
		gt_assert_eq(missed, 0);
		gt_assert(!ratelimit_allow_at(&rl, 5 * SEC, &missed));
		gt_assert(!ratelimit_allow_at(&rl, 6 * SEC - 1, &missed));
		gt_assert(ratelimit_allow_at(&rl, 6 * SEC, &missed));
		gt_assert_eq(missed, 2);
		/* The window starts at the allowed call, not at the first. */
		gt_assert(!ratelimit_allow_at(&rl, 7 * SEC - 1, &missed));
		gt_assert(ratelimit_allow_at(&rl, 9 * SEC, &missed));
		gt_assert_eq(missed, 1);
	}

	gemtest_subtest("flink-names") {
		gt_assert_eq(open_name_as(false, OWNER), 0);
		gt_assert_eq(open_name_as(false, 0), 0);
		gt_assert_eq(open_name_as(false, OTHER), -ENOENT);
		gt_assert_eq(open_name_as(true, OTHER), 0);
		gt_assert_eq(open_name_as(true, OWNER), 0);
	}

	policy_set_clock(NULL);
	return gemtest_exit();
}

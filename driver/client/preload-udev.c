/*
 * libudev's "kernel" monitors hear a hang of gemd's GPU as the uevent
 * Linux 6.1 sends for one: ACTION=change on card0 with ERROR=1
 * (intel_gt_reset_global's error_event, sent before the reset).  IGT's
 * hang detector (igt_fork_hang_detector) waits for exactly that: a
 * "kernel" monitor filtered to the drm subsystem, its fd polled, each
 * device's devnum compared with the card's st_rdev, its ERROR read.
 *
 * The monitor stays libudev's: creation, references, filters and
 * enable_receiving run in libudev untouched, and beside each "kernel"
 * monitor we only note what its filters admit.  When receiving is
 * enabled on one whose filters admit card0 and nothing else (drm
 * subsystem filters only, no tag filter: kernel uevents carry no tags),
 * it gets a connection to gemd waiting on GEM_MSG_HANG_WAIT.
 * udev_monitor_get_fd then returns that socket, which turns readable
 * when gemd answers with a hang, and udev_monitor_receive_device reads
 * the answer, asks for the next hang and returns a udev_device that
 * libudev builds itself from the uevent's properties
 * (udev_device_new_from_environment), so every udev_device call on it is
 * libudev's own.  Such a monitor hears only gemd's card: the machine's
 * real DRM devices are hidden under /dev/dri and /sys anyway.  Any other
 * monitor, or one that cannot reach gemd, is libudev's alone.
 *
 * Not modelled: the ERROR=0 the kernel sends once the reset is done (one
 * event per answer of gemd), filters changed after enable_receiving, and
 * a watched monitor used across fork() by both processes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "connect.h"
#include "preload.h"
#include "protocol.h"
#include "strbuf.h"
#include "util.h"
#include "wire.h"

#if __has_include(<libudev.h>)
/* Only so that the compiler checks our definitions against libudev's. */
#pragma GCC visibility push(default)
#include <libudev.h>
#pragma GCC visibility pop
#else
/* Without libudev's header, its declarations of what we define here
 * (libudev.h, as of libudev 252). */
struct udev;
struct udev_monitor;
struct udev_device;
struct udev_monitor *udev_monitor_new_from_netlink(struct udev *udev, const char *name);
struct udev_monitor *udev_monitor_ref(struct udev_monitor *udev_monitor);
struct udev_monitor *udev_monitor_unref(struct udev_monitor *udev_monitor);
int udev_monitor_filter_add_match_subsystem_devtype(struct udev_monitor *udev_monitor,
						    const char *subsystem, const char *devtype);
int udev_monitor_filter_add_match_tag(struct udev_monitor *udev_monitor, const char *tag);
int udev_monitor_filter_remove(struct udev_monitor *udev_monitor);
int udev_monitor_enable_receiving(struct udev_monitor *udev_monitor);
int udev_monitor_get_fd(struct udev_monitor *udev_monitor);
struct udev_device *udev_monitor_receive_device(struct udev_monitor *udev_monitor);
#endif

#define EXPORT __attribute__((visibility("default")))

#define CARD0_SYSPATH	PCI_DIR "/drm/card0"
#define UEVENT_MAX	16	/* properties of one event */
#define WATCH_MAX	16	/* "kernel" monitors noted at once */

/* libudev's own functions, resolved on first use. */
static struct {
	struct udev_monitor *(*new_from_netlink)(struct udev *, const char *);
	struct udev_monitor *(*ref)(struct udev_monitor *);
	struct udev_monitor *(*unref)(struct udev_monitor *);
	struct udev *(*get_udev)(struct udev_monitor *);
	int (*enable_receiving)(struct udev_monitor *);
	int (*get_fd)(struct udev_monitor *);
	struct udev_device *(*receive_device)(struct udev_monitor *);
	int (*match_subsystem)(struct udev_monitor *, const char *, const char *);
	int (*match_tag)(struct udev_monitor *, const char *);
	int (*filter_remove)(struct udev_monitor *);
	struct udev_device *(*from_environment)(struct udev *);
} real;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static void real_resolve(void)
{
	preload_init();		/* preload_real too, for the socket */
	real.new_from_netlink = dlsym(RTLD_NEXT, "udev_monitor_new_from_netlink");
	real.ref = dlsym(RTLD_NEXT, "udev_monitor_ref");
	real.unref = dlsym(RTLD_NEXT, "udev_monitor_unref");
	real.get_udev = dlsym(RTLD_NEXT, "udev_monitor_get_udev");
	real.enable_receiving = dlsym(RTLD_NEXT, "udev_monitor_enable_receiving");
	real.get_fd = dlsym(RTLD_NEXT, "udev_monitor_get_fd");
	real.receive_device = dlsym(RTLD_NEXT, "udev_monitor_receive_device");
	real.match_subsystem = dlsym(RTLD_NEXT,
				     "udev_monitor_filter_add_match_subsystem_devtype");
	real.match_tag = dlsym(RTLD_NEXT, "udev_monitor_filter_add_match_tag");
	real.filter_remove = dlsym(RTLD_NEXT, "udev_monitor_filter_remove");
	real.from_environment = dlsym(RTLD_NEXT, "udev_device_new_from_environment");
}

/* Whether fn resolved; else errno is ENOSYS (no libudev after us). */
#define REAL_OK(fn) \
	(pthread_once(&real_once, real_resolve), real.fn ? true : (errno = ENOSYS, false))

/* What we keep beside a "kernel" monitor. */
struct watch {
	struct udev_monitor *mon;	/* libudev's; NULL: a free slot */
	unsigned int refs;		/* mirrors libudev's count */
	bool drm;			/* a subsystem filter admits card0 */
	bool others;			/* one admits other devices only */
	bool tagged;			/* a tag filter: kernel events never pass */
	int sock;			/* gemd, waiting for a hang; -1: none */
	bool silenced;			/* gemd went away: sock never readable */
	uint64_t after;			/* the last hang delivered */
};

static struct watch watches[WATCH_MAX];
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;

/* With watch_lock held: mon's watch, or NULL. */
static struct watch *watch_find(const struct udev_monitor *mon)
{
	size_t i;

	if (!mon)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(watches); i++)
		if (watches[i].mon == mon)
			return &watches[i];
	return NULL;
}

/* A full table leaves the monitor libudev's alone. */
static void watch_add(struct udev_monitor *mon)
{
	size_t i;

	pthread_mutex_lock(&watch_lock);
	for (i = 0; i < ARRAY_SIZE(watches); i++) {
		if (!watches[i].mon) {
			watches[i] = (struct watch){ .mon = mon, .refs = 1,
						     .sock = -1,
						     .after = GEM_HANG_NEXT };
			break;
		}
	}
	pthread_mutex_unlock(&watch_lock);
}

static void watch_release(struct watch *w)
{
	if (w->sock >= 0)
		preload_real.close(w->sock);
	*w = (struct watch){ .sock = -1 };
}

/* Ask gemd for the hang after w->after. */
static int watch_request(struct watch *w)
{
	struct gem_hang_wait req;
	struct wire_call call;
	struct iovec iov;
	int ret;

	wire_hang_wait_init(&call, &req, &iov, NULL, w->after, 0);
	preload_busy++;
	ret = wire_call_send(w->sock, &call);
	preload_busy--;
	return ret;
}

/*
 * gemd is gone: the program polls the number it was given, so the
 * number stays, on an eventfd that never turns readable, as a quiet
 * netlink socket would (closed at the last unref).
 */
static void watch_silence(struct watch *w)
{
	int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

	if (fd >= 0) {
		if (preload_real.dup3(fd, w->sock, O_CLOEXEC) >= 0)
			w->silenced = true;
		preload_real.close(fd);
	}
}

/*
 * The number of the last hang, so that the monitor hears every hang
 * after enable_receiving returns, as a bound netlink socket does (asking
 * for GEM_HANG_NEXT would count from whenever gemd reads the request).
 * gemd answers a wait for a hang after n with hang n + 1, or the oldest
 * it keeps: step through them until a wait of 1 ms finds none.
 */
static int hang_seq_now(int sock, uint64_t *seq)
{
	struct strbuf reply = STRBUF_INIT;
	struct gem_hang_event ev;
	struct gem_hang_wait req;
	struct wire_call call;
	struct iovec iov;
	int ret;

	*seq = 0;
	for (;;) {
		strbuf_setlen(&reply, 0);
		wire_hang_wait_init(&call, &req, &iov, &reply, *seq, 1);
		ret = wire_call(sock, &call);
		if (ret || call.result < 0)
			break;
		memcpy(&ev, reply.buf, sizeof(ev));
		if (ev.seq <= *seq) {
			ret = -EPROTO;
			break;
		}
		*seq = ev.seq;
	}
	strbuf_release(&reply);
	if (!ret && call.result != -ETIMEDOUT)
		ret = call.result;
	return ret;
}

/* Connect to gemd and ask for the next hang; on failure w stays unarmed. */
static void watch_arm(struct watch *w)
{
	const char *path = gem_device_path(NULL);
	int sock, ret;

	if (!path)
		return;
	preload_busy++;
	sock = channel_connect(path, GEM_MSG_HELLO, false, true, NULL, 0);
	ret = sock < 0 ? sock : hang_seq_now(sock, &w->after);
	preload_busy--;
	if (sock < 0)
		return;
	w->sock = sock;
	if (ret || watch_request(w)) {
		preload_real.close(sock);
		w->sock = -1;
	}
}

/*
 * The uevent of hang ev as a udev_device: the kernel's ACTION, DEVPATH
 * and SUBSYSTEM, the driver's ERROR=1, card0's uevent file (dev_uevent)
 * and a SEQNUM.  libudev reads the properties from environ, which is
 * swapped for the call: a getenv in another thread meanwhile sees them.
 */
static struct udev_device *hang_device(struct udev *udev,
				       const struct gem_hang_event *ev)
{
	struct strbuf sb = STRBUF_INIT;
	struct udev_device *dev = NULL;
	char *strv[UEVENT_MAX + 1], **saved, *p, *nl;
	size_t n = 0;

	if (strbuf_addf(&sb, "ACTION=change\nDEVPATH=%s\nSUBSYSTEM=drm\nERROR=1\n"
			"%sSEQNUM=%llu\n", &CARD0_SYSPATH[strlen("/sys")],
			DRM_MINOR_UEVENT("card0", 0), (unsigned long long)ev->seq)) {
		errno = ENOMEM;
		return NULL;
	}
	for (p = sb.buf; n < UEVENT_MAX && (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		strv[n++] = p;
	}
	strv[n] = NULL;
	saved = environ;
	environ = strv;
	dev = real.from_environment(udev);
	environ = saved;
	strbuf_release(&sb);
	return dev;
}

/* With watch_lock held: the hang gemd announced on w->sock, or NULL and
 * EAGAIN when none came (the socket is non-blocking, as netlink's is). */
static struct udev_device *watch_receive(struct watch *w)
{
	struct pollfd pfd = { .fd = w->sock, .events = POLLIN };
	struct strbuf reply = STRBUF_INIT;
	struct udev_device *dev = NULL;
	struct gem_hang_event ev;
	struct gem_hang_wait req;
	struct wire_call call;
	struct iovec iov;
	int ret;

	if (w->silenced || preload_real.poll(&pfd, 1, 0) <= 0 || !REAL_OK(from_environment)) {
		errno = EAGAIN;
		return NULL;
	}
	wire_hang_wait_init(&call, &req, &iov, &reply, 0, 0);
	preload_busy++;
	ret = wire_call_recv(w->sock, &call);
	preload_busy--;
	if (ret) {
		watch_silence(w);
	} else if (call.result >= 0) {
		memcpy(&ev, reply.buf, sizeof(ev));
		w->after = ev.seq;
		dev = hang_device(real.get_udev(w->mon), &ev);
	}
	if (!ret && watch_request(w))
		watch_silence(w);
	strbuf_release(&reply);
	if (!dev)
		errno = EAGAIN;
	return dev;
}

EXPORT struct udev_monitor *udev_monitor_new_from_netlink(struct udev *udev,
							  const char *name)
{
	struct udev_monitor *mon;

	if (!REAL_OK(new_from_netlink))
		return NULL;
	mon = real.new_from_netlink(udev, name);
	if (mon && name && !strcmp(name, "kernel"))
		watch_add(mon);
	return mon;
}

EXPORT struct udev_monitor *udev_monitor_ref(struct udev_monitor *mon)
{
	struct watch *w;

	if (!REAL_OK(ref))
		return NULL;
	pthread_mutex_lock(&watch_lock);
	w = watch_find(mon);
	if (w)
		w->refs++;
	pthread_mutex_unlock(&watch_lock);
	return real.ref(mon);
}

EXPORT struct udev_monitor *udev_monitor_unref(struct udev_monitor *mon)
{
	struct watch *w;

	if (!REAL_OK(unref))
		return NULL;
	pthread_mutex_lock(&watch_lock);
	w = watch_find(mon);
	if (w && !--w->refs)
		watch_release(w);
	pthread_mutex_unlock(&watch_lock);
	return real.unref(mon);
}

EXPORT int udev_monitor_filter_add_match_subsystem_devtype(struct udev_monitor *mon,
							   const char *subsystem,
							   const char *devtype)
{
	struct watch *w;
	int ret;

	if (!REAL_OK(match_subsystem))
		return -ENOSYS;
	ret = real.match_subsystem(mon, subsystem, devtype);
	pthread_mutex_lock(&watch_lock);
	w = watch_find(mon);
	if (w && ret >= 0) {
		if (subsystem && !strcmp(subsystem, "drm") &&
		    (!devtype || !strcmp(devtype, "drm_minor")))
			w->drm = true;
		else
			w->others = true;
	}
	pthread_mutex_unlock(&watch_lock);
	return ret;
}

EXPORT int udev_monitor_filter_add_match_tag(struct udev_monitor *mon,
					     const char *tag)
{
	struct watch *w;
	int ret;

	if (!REAL_OK(match_tag))
		return -ENOSYS;
	ret = real.match_tag(mon, tag);
	pthread_mutex_lock(&watch_lock);
	w = watch_find(mon);
	if (w && ret >= 0)
		w->tagged = true;
	pthread_mutex_unlock(&watch_lock);
	return ret;
}

EXPORT int udev_monitor_filter_remove(struct udev_monitor *mon)
{
	struct watch *w;
	int ret;

	if (!REAL_OK(filter_remove))
		return -ENOSYS;
	ret = real.filter_remove(mon);
	pthread_mutex_lock(&watch_lock);
	w = watch_find(mon);
	if (w && ret >= 0)
		w->drm = w->others = w->tagged = false;
	pthread_mutex_unlock(&watch_lock);
	return ret;
}

EXPORT int udev_monitor_enable_receiving(struct udev_monitor *mon)
{
	struct watch *w;
	int ret;

	if (!REAL_OK(enable_receiving))
		return -ENOSYS;
	ret = real.enable_receiving(mon);
	if (ret < 0)
		return ret;
	pthread_mutex_lock(&watch_lock);
	w = watch_find(mon);
	if (w && w->sock < 0 && w->drm && !w->others && !w->tagged)
		watch_arm(w);
	pthread_mutex_unlock(&watch_lock);
	return ret;
}

EXPORT int udev_monitor_get_fd(struct udev_monitor *mon)
{
	struct watch *w;
	int fd = -1;

	if (!REAL_OK(get_fd))
		return -ENOSYS;
	pthread_mutex_lock(&watch_lock);
	w = watch_find(mon);
	if (w)
		fd = w->sock;
	pthread_mutex_unlock(&watch_lock);
	return fd >= 0 ? fd : real.get_fd(mon);
}

EXPORT struct udev_device *udev_monitor_receive_device(struct udev_monitor *mon)
{
	struct udev_device *dev;
	struct watch *w;

	if (!REAL_OK(receive_device))
		return NULL;
	pthread_mutex_lock(&watch_lock);
	w = watch_find(mon);
	if (!w || w->sock < 0) {
		pthread_mutex_unlock(&watch_lock);
		return real.receive_device(mon);
	}
	dev = watch_receive(w);
	pthread_mutex_unlock(&watch_lock);
	return dev;
}

/*
 * libgemdebugfs: gemd's control requests, for the tools.  Suspend and
 * resume the device (gemctl suspend/resume) and wait for the next GPU hang
 * (gemctl wait-hang, tests).
 *
 * Why here and not in libgem: libgem is the installed library that does
 * what ioctl(2) and mmap(2) do on /dev/dri/card0, and nothing else; these
 * requests have no ioctl (the kernel's equivalents are the power states
 * in sysfs and the error uevent).  Like the debugfs files they need no
 * drm_file, and the tools already reach gemd's non-ioctl side through
 * this library, so a tool links libgem for the device and libgemdebugfs
 * for the driver, and includes no protocol header.
 *
 * A struct gdfs_control holds one connection to gemd without a drm_file,
 * made on first use and made again after a request that lost it.  Each
 * call returns 0 when gemd answered, with the answer (0 or -errno, as the
 * driver gives it) in *result; or -errno when it could not ask:
 * -ENOENT/-ECONNREFUSED (no gemd there), -ENOTCONN (gemd went away),
 * -EPROTO (its reply broke the protocol), -ETIMEDOUT (no answer within
 * the wait's timeout: gemd may still finish the request), -EINTR (the
 * wait's stop flag was set).
 */
#ifndef GEMKIT_GEMCONTROL_H
#define GEMKIT_GEMCONTROL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gdfs_control;

/* For the gemd at device (NULL: the device path rule); connects on first
 * use.  -ENOENT if no path can be worked out, -ENOMEM. */
int gdfs_control_open(const char *device, struct gdfs_control **out);
void gdfs_control_close(struct gdfs_control *ctl);

/* How long a call waits for gemd's answer. */
struct gdfs_wait {
	uint64_t timeout_ns;			/* 0: for ever */
	const volatile sig_atomic_t *stop;	/* set (SIGINT): give up */
};

/* Idle the GPU, unbind every unpinned object and refuse execbuffer
 * (EBUSY) until resume; gemd answers -EALREADY when already so. */
int gdfs_suspend(struct gdfs_control *ctl, const struct gdfs_wait *w, int *result);
int gdfs_resume(struct gdfs_control *ctl, const struct gdfs_wait *w, int *result);
/* Unbind the driver (open files -ENODEV, opens refused) or bind it again;
 * gemd answers -ENODEV when already unbound, -EBUSY when already bound. */
int gdfs_unbind(struct gdfs_control *ctl, const struct gdfs_wait *w, int *result);
int gdfs_bind(struct gdfs_control *ctl, const struct gdfs_wait *w, int *result);

/* One GPU hang as gemd announces it. */
struct gdfs_hang {
	uint64_t seq;		/* 1, 2, ...: hangs since gemd started */
	uint64_t time_ns;	/* CLOCK_REALTIME of the detection */
	uint64_t detect_ns;	/* guilty request's submission to detection */
	uint32_t seqno;		/* the guilty request */
	uint32_t pid;		/* its client, 0 if none */
	uint32_t file;		/* its drm_file id, 0 if none */
	uint32_t acthd;
	uint32_t ipehr;
	bool recovered;		/* ring reset and running; false: wedged */
	char kind[16];		/* "hangcheck", "runaway", "fault", "badop", "wedged",
				 * "watchdog" */
};

#define GDFS_HANG_NEXT	UINT64_MAX	/* the next hang from now */

/*
 * Wait for a hang numbered above after (GDFS_HANG_NEXT: the next one from
 * now), gemd timing the wait: timeout_ms (0: for ever) passing is the
 * answer -ETIMEDOUT.  w's timeout is a backstop for a gemd that does not
 * answer.  On answer 0, *ev is the oldest such hang gemd still keeps.
 */
int gdfs_hang_wait(struct gdfs_control *ctl, uint64_t after, uint32_t timeout_ms,
		   const struct gdfs_wait *w, struct gdfs_hang *ev, int *result);

#ifdef __cplusplus
}
#endif
#endif

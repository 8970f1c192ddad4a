/* gemd's control requests over a channel without a drm_file (gemcontrol.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "connect.h"
#include "gemcontrol.h"
#include "protocol.h"
#include "util.h"
#include "wire.h"

struct gdfs_control {
	char *path;
	int sock;		/* -1: connect on next use */
};

int gdfs_control_open(const char *device, struct gdfs_control **out)
{
	const char *path = gem_device_path(device);
	struct gdfs_control *ctl;

	if (!path)
		return -ENOENT;
	ctl = calloc(1, sizeof(*ctl));
	if (!ctl)
		return -ENOMEM;
	ctl->path = strdup(path);
	if (!ctl->path) {
		free(ctl);
		return -ENOMEM;
	}
	ctl->sock = -1;
	*out = ctl;
	return 0;
}

static void control_drop(struct gdfs_control *ctl)
{
	if (ctl->sock >= 0)
		close(ctl->sock);
	ctl->sock = -1;
}

void gdfs_control_close(struct gdfs_control *ctl)
{
	if (!ctl)
		return;
	control_drop(ctl);
	free(ctl->path);
	free(ctl);
}

/* One request; a failed one drops the connection (its answer would come
 * out of turn), and the next call connects again. */
static int control_call(struct gdfs_control *ctl, struct wire_call *call,
			const struct gdfs_wait *w, int *result)
{
	int ret;

	if (ctl->sock < 0) {
		ret = channel_connect(ctl->path, GEM_MSG_HELLO, false, true, NULL, 0);
		if (ret < 0)
			return ret;
		ctl->sock = ret;
	}
	if (w) {
		call->deadline_ns = w->timeout_ns ? now_ns() + w->timeout_ns : 0;
		call->stop = w->stop;
	}
	ret = wire_call(ctl->sock, call);
	if (ret) {
		control_drop(ctl);
		if (wire_call_bad_reply(ret))
			return -EPROTO;
		if (ret == -ETIMEDOUT || ret == -EINTR || ret == -ENOMEM)
			return ret;
		return -ENOTCONN;
	}
	*result = call->result;
	return 0;
}

static int control_op(struct gdfs_control *ctl, enum gem_control_op op,
		      const struct gdfs_wait *w, int *result)
{
	struct wire_call call = { .type = GEM_MSG_CONTROL, .request = op };

	return control_call(ctl, &call, w, result);
}

int gdfs_suspend(struct gdfs_control *ctl, const struct gdfs_wait *w, int *result)
{
	return control_op(ctl, GEM_CONTROL_SUSPEND, w, result);
}

int gdfs_resume(struct gdfs_control *ctl, const struct gdfs_wait *w, int *result)
{
	return control_op(ctl, GEM_CONTROL_RESUME, w, result);
}

int gdfs_unbind(struct gdfs_control *ctl, const struct gdfs_wait *w, int *result)
{
	return control_op(ctl, GEM_CONTROL_UNBIND, w, result);
}

int gdfs_bind(struct gdfs_control *ctl, const struct gdfs_wait *w, int *result)
{
	return control_op(ctl, GEM_CONTROL_BIND, w, result);
}

int gdfs_hang_wait(struct gdfs_control *ctl, uint64_t after, uint32_t timeout_ms,
		   const struct gdfs_wait *w, struct gdfs_hang *ev, int *result)
{
	struct strbuf reply = STRBUF_INIT;
	struct gem_hang_wait req;
	struct gem_hang_event e;
	struct wire_call call;
	struct iovec iov;
	int ret;

	wire_hang_wait_init(&call, &req, &iov, &reply,
			    after == GDFS_HANG_NEXT ? GEM_HANG_NEXT : after,
			    timeout_ms);
	ret = control_call(ctl, &call, w, result);
	if (!ret && *result >= 0) {
		memcpy(&e, reply.buf, sizeof(e));
		*ev = (struct gdfs_hang){
			.seq = e.seq, .time_ns = e.time_ns, .detect_ns = e.detect_ns,
			.seqno = e.seqno, .pid = e.pid, .file = e.file,
			.acthd = e.acthd, .ipehr = e.ipehr,
			.recovered = e.recovered != 0,
		};
		/* gemd's text, but never trusted to be terminated */
		memcpy(ev->kind, e.kind, sizeof(ev->kind) - 1);
		ev->kind[sizeof(ev->kind) - 1] = '\0';
	}
	strbuf_release(&reply);
	return ret;
}

/*
 * A capture of the running driver, read through libgemdebugfs only.
 *
 * The structured files are each one consistent snapshot, but they are
 * read one after the other: an object freed between gemkit_objects and
 * its gemkit_object_data read is kept without contents (and said so),
 * never an error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "gemdebugfs.h"
#include "regs.h"
#include "util.h"

/* The last events kept: enough for the recent past, not the whole ring. */
#define MAX_EVENTS 4096

static int read_parse(const struct gd_ctx *ctx, struct gdfs *src, const char *name,
		      struct strbuf *sb)
{
	int ret;

	strbuf_reset(sb);
	ret = gdfs_read(src, name, sb);
	if (ret)
		gd_error(ctx, "reading %s/%s: %s", gdfs_describe(src), name, gdfs_strerror(ret));
	return ret;
}

/* The gen3 FENCE_REG value of a fenced object (945G layout). */
uint64_t gd_fence_value(uint64_t start, uint64_t size, uint32_t stride, bool y_tiled)
{
	uint32_t size_bits = 0, pitch_bits = 0;

	while (size_bits < 15 && (1ull << (20 + size_bits)) < size)
		size_bits++;
	while (pitch_bits < 15 && (512u << pitch_bits) < stride)
		pitch_bits++;
	return (start & 0x0ff00000) | (y_tiled ? 1u << 12 : 0) | size_bits << 8 |
	       pitch_bits << 4 | 1;
}

/* Streaming object bytes from the debugfs into the capture file. */
struct live_fill {
	struct gdfs *src;
	struct strbuf buf;	/* reused: its pages are faulted in once */
	const struct gd_ctx *ctx;
};

#define FILL_CHUNK (8u << 20)

static int live_fill(void *arg, const struct gd_rec_object *o, int fd, uint64_t off)
{
	struct live_fill *lf = arg;
	uint64_t done;
	char name[48];
	int ret;

	snprintf(name, sizeof(name), "gemkit_object_data/%u", o->id);
	for (done = 0; done < o->size; done += lf->buf.len) {
		size_t want = (size_t)MIN(o->size - done, FILL_CHUNK);

		strbuf_reset(&lf->buf);
		ret = gdfs_read_range(lf->src, name, done, want, &lf->buf);
		if (ret == -ENOENT)
			return ret;	/* freed since the list was read */
		if (ret) {
			gd_error(lf->ctx, "reading %s/%s: %s", gdfs_describe(lf->src), name,
				 strerror(-ret));
			return ret;
		}
		if (lf->buf.len != want)
			return -ENODATA;	/* it changed size under us */
		if (lseek(fd, (off_t)(off + done), SEEK_SET) < 0)
			return -errno;
		if (write_full(fd, lf->buf.buf, want) < 0)
			return -errno;
	}
	return 0;
}

static void live_fill_release(void *arg)
{
	struct live_fill *lf = arg;

	gdfs_close(lf->src);
	strbuf_release(&lf->buf);
	free(lf);
}

static bool selected(const struct gd_live_opts *o, uint32_t id)
{
	size_t i;

	if (!o->ids)
		return true;
	for (i = 0; i < o->nids; i++)
		if (o->ids[i] == id)
			return true;
	return false;
}

static int add_objects(const struct gd_ctx *ctx, struct gdfs *src, struct gd_capture *c,
		       const struct gd_live_opts *o, struct strbuf *sb)
{
	struct strbuf err = STRBUF_INIT;
	struct gdfs_objects objs;
	size_t i, j;
	int ret;

	ret = read_parse(ctx, src, "gemkit_objects", sb);
	if (ret)
		return ret;
	ret = gdfs_parse_objects(sb->buf, sb->len, &objs, &err);
	if (ret) {
		gd_error(ctx, "%s", err.buf);
		goto out;
	}
	for (i = 0; i < objs.n; i++) {
		const struct gdfs_object *s = &objs.v[i];
		struct gd_rec_object *r;

		if (!selected(o, s->id))
			continue;
		r = gd_capture_add_object(c);
		if (!r)
			goto out_nomem;
		r->id = s->id;
		r->size = s->size;
		r->gtt_offset = s->gtt_offset;
		r->gtt_size = s->gtt_size;
		r->flags = (s->gtt_size ? GD_OBJ_BOUND : 0) | (s->dirty ? GD_OBJ_DIRTY : 0) |
			   (s->active ? GD_OBJ_ACTIVE : 0);
		r->read = s->read;
		r->write = s->write;
		r->pin = s->pin;
		r->user_pin = s->user_pin;
		r->fence = s->fence;
		r->tiling = s->tiling;
		r->stride = s->stride;
		r->madv = s->madv;
		r->cache = s->cache;
		r->list = s->list;
		r->last_read_seqno = s->last_read_seqno;
		r->last_write_seqno = s->last_write_seqno;
		r->name = s->name;
		r->handles = s->handles;
		r->creator_pid = s->creator_pid;
		r->created_ns = s->created_ns;
		r->binds = s->binds;
		r->evicts = s->evicts;
		r->nowners = s->nowners;
		for (j = 0; j < s->nowners; j++) {
			struct gd_rec_owner *w = gd_capture_add_owner(c);

			if (!w)
				goto out_nomem;
			w->obj = s->id;
			w->file = s->owners[j].file;
			w->handle = s->owners[j].handle;
			w->pid = s->owners[j].pid;
			memcpy(w->comm, s->owners[j].comm, sizeof(w->comm) - 1);
		}
		if (s->fence >= 0) {
			struct gd_rec_fence *f = gd_capture_add_fence(c);

			if (!f)
				goto out_nomem;
			f->index = (uint32_t)s->fence;
			f->obj = s->id;
			f->value = gd_fence_value(s->gtt_offset, s->gtt_size, s->stride,
						  s->tiling == GDFS_TILING_Y);
		}
		/* The bytes are streamed into the file when it is written
		 * (live_fill), not held here: an aperture's worth of objects
		 * need not fit in memory twice. */
		if (o->contents && s->size && s->madv != GDFS_MADV_PURGED)
			r->flags |= GD_OBJ_CAPTURED;
	}
	ret = 0;
	goto out;
out_nomem:
	ret = -ENOMEM;
	gd_error(ctx, "out of memory");
out:
	gdfs_objects_release(&objs);
	strbuf_release(&err);
	return ret;
}

static int add_ring(const struct gd_ctx *ctx, struct gdfs *src, struct gd_capture *c,
		    struct strbuf *sb)
{
	struct strbuf err = STRBUF_INIT;
	struct gd_rec_ring *r;
	struct gdfs_ring ring;
	size_t i;
	int ret;

	ret = read_parse(ctx, src, "gemkit_ring", sb);
	if (ret)
		return ret;
	ret = gdfs_parse_ring(sb->buf, sb->len, &ring, &err);
	if (ret) {
		gd_error(ctx, "%s", err.buf);
		strbuf_release(&err);
		return ret;
	}
	ret = -ENOMEM;
	r = gd_capture_add_ring(c);
	if (!r)
		goto out;
	snprintf(r->name, sizeof(r->name), "%s", ring.name);
	r->head = ring.head;
	r->tail = ring.tail;
	r->acthd = ring.acthd;
	r->start = ring.start;
	r->ctl = ring.ctl;
	r->size = ring.size;
	r->emitted_seqno = ring.emitted_seqno;
	r->completed_seqno = ring.completed_seqno;
	r->waiting_seqno = ring.waiting_seqno;
	r->irq_seqno = ring.irq_seqno;
	r->outstanding = ring.outstanding;
	r->flags = (ring.idle ? GD_RING_IDLE : 0) | (ring.stopped ? GD_RING_STOPPED : 0) |
		   (ring.wedged ? GD_RING_WEDGED : 0);
	for (i = 0; i < c->nobjects; i++) {
		struct gd_rec_object *o = &c->objects[i];

		if ((o->flags & GD_OBJ_BOUND) && o->gtt_offset == ring.start) {
			o->flags |= GD_OBJ_RING;
			r->ring_obj = o->id;
		}
	}
	for (i = 0; i < ring.nrequests; i++) {
		struct gd_rec_request *q = gd_capture_add_request(c);

		if (!q)
			goto out;
		q->seqno = ring.requests[i].seqno;
		q->tail = ring.requests[i].tail;
		q->file = ring.requests[i].file;
		q->pid = ring.requests[i].pid;
		q->age_ns = ring.requests[i].age_ns;
		snprintf(q->ring, sizeof(q->ring), "%s", ring.name);
	}
	if (!gd_capture_add_register(c, "HEAD", ring.head) ||
	    !gd_capture_add_register(c, "TAIL", ring.tail) ||
	    !gd_capture_add_register(c, "ACTHD", ring.acthd) ||
	    !gd_capture_add_register(c, "START", ring.start) ||
	    !gd_capture_add_register(c, "CTL", ring.ctl))
		goto out;
	ret = 0;
out:
	if (ret == -ENOMEM)
		gd_error(ctx, "out of memory");
	gdfs_ring_release(&ring);
	strbuf_release(&err);
	return ret;
}

static int add_clients(const struct gd_ctx *ctx, struct gdfs *src, struct gd_capture *c,
		       struct strbuf *sb)
{
	struct strbuf err = STRBUF_INIT;
	struct gdfs_clients cl;
	size_t i;
	int ret;

	ret = read_parse(ctx, src, "gemkit_clients", sb);
	if (ret)
		return ret;
	ret = gdfs_parse_clients(sb->buf, sb->len, &cl, &err);
	if (ret) {
		gd_error(ctx, "%s", err.buf);
		strbuf_release(&err);
		return ret;
	}
	for (i = 0; i < cl.n; i++) {
		struct gd_rec_client *r = gd_capture_add_client(c);

		if (!r) {
			ret = -ENOMEM;
			break;
		}
		r->file = cl.v[i].file;
		r->pid = cl.v[i].pid;
		memcpy(r->comm, cl.v[i].comm, sizeof(r->comm) - 1);
		r->handles = cl.v[i].handles;
		r->requests = cl.v[i].requests;
		r->handle_bytes = cl.v[i].handle_bytes;
		r->bound_bytes = cl.v[i].bound_bytes;
	}
	gdfs_clients_release(&cl);
	strbuf_release(&err);
	return ret;
}

static int add_events(const struct gd_ctx *ctx, struct gdfs *src, struct gd_capture *c)
{
	struct strbuf err = STRBUF_INIT;
	struct gdfs_events ev;
	size_t i;
	int ret;

	ret = gdfs_read_events(src, 0, &ev, &err);
	if (ret) {
		gd_error(ctx, "reading events: %s", err.len ? err.buf : strerror(-ret));
		strbuf_release(&err);
		return ret;
	}
	for (i = ev.n > MAX_EVENTS ? ev.n - MAX_EVENTS : 0; i < ev.n; i++) {
		const struct gdfs_event *s = &ev.v[i];
		struct gd_rec_event *r = gd_capture_add_event(c);

		if (!r) {
			ret = -ENOMEM;
			break;
		}
		r->seq = s->seq;
		r->ts_ns = s->ts_ns;
		r->type = s->type;
		memcpy(r->type_name, s->type_name, sizeof(r->type_name) - 1);
		r->obj = s->obj;
		r->offset = s->offset;
		r->size = s->size;
		r->old_read = s->old_read;
		r->old_write = s->old_write;
		r->read = s->read;
		r->write = s->write;
		r->seqno = s->seqno;
		r->file = s->file;
		r->wait_ns = s->wait_ns;
		r->result = s->result;
	}
	gdfs_events_release(&ev);
	strbuf_release(&err);
	return ret;
}

void gd_capture_add_live_device(struct gdfs *src, struct gd_capture *c, struct strbuf *sb)
{
	struct gdfs_counters cnt;
	uint64_t v = 0;

	c->device.pci_id = 0x2772;
	c->device.gen = 3;
	c->device.nfences = GEN3_NUM_FENCES;
	strbuf_reset(sb);
	if (gdfs_read(src, "gemkit_counters", sb) ||
	    gdfs_parse_counters(sb->buf, sb->len, &cnt, NULL))
		return;
	if (gdfs_counter(&cnt, "aperture", &v))
		c->device.aperture = v;
	gdfs_counters_release(&cnt);
}

/*
 * The newest hang record into sb: the highest gemkit_errors/<n>, else
 * i915_error_state (the first since the last clear, or an older gemd
 * that keeps no records).
 */
static int read_latest_error(struct gdfs *src, struct strbuf *sb)
{
	struct strbuf names = STRBUF_INIT, name = STRBUF_INIT;
	unsigned long long n, newest = 0;
	const char *p;
	char *end;
	int ret;

	if (gdfs_list(src, &names) == 0) {
		for (p = names.buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			if (strncmp(p, "gemkit_errors/", 14))
				continue;
			n = strtoull(p + 14, &end, 10);
			if (*end == '\n' && n > newest)
				newest = n;
		}
	}
	if (newest)
		strbuf_addf(&name, "gemkit_errors/%llu", newest);
	else
		strbuf_addstr(&name, "i915_error_state");
	strbuf_reset(sb);
	ret = gdfs_read(src, name.buf, sb);
	strbuf_release(&names);
	strbuf_release(&name);
	return ret;
}

/* An object id no live object has. */
static uint32_t next_object_id(const struct gd_capture *c)
{
	uint32_t id = 0;
	size_t i;

	for (i = 0; i < c->nobjects; i++)
		if (c->objects[i].id > id)
			id = c->objects[i].id;
	return id + 1;
}

/*
 * Where the state came from.  The capture keeps 127 bytes of it: when the
 * whole origin does not fit, which gemd it was matters more than the
 * mount's path.
 */
static void set_source(const struct gd_ctx *ctx, struct gdfs *src,
		       struct gd_capture *c)
{
	const char *origin = gdfs_origin(src), *path;
	struct strbuf sb = STRBUF_INIT;
	pid_t pid;
	uid_t uid;

	path = gem_device_path(ctx->device);
	if (strlen(origin) < sizeof(c->header.source) || !path ||
	    gdfs_peer(src, &pid, &uid)) {
		gd_capture_set_source(c, origin);
		return;
	}
	strbuf_addf(&sb, "gemd %s (pid %d), %s", path, (int)pid,
		    gdfs_kind(src) == GDFS_SOCKET ? "over the socket" : "mount");
	gd_capture_set_source(c, sb.buf);
	strbuf_release(&sb);
}

int gd_capture_live(const struct gd_ctx *ctx, struct gd_capture *c,
		    const struct gd_live_opts *o)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct gdfs_error_state es;
	struct gdfs *src;
	int ret;

	gd_capture_init(c);
	ret = gd_open_live(ctx, &src);
	if (ret)
		return ret;
	c->header.reason = GD_REASON_LIVE;
	c->header.time_ns = now_realtime_ns();
	snprintf(c->header.tool_version, sizeof(c->header.tool_version), "gemdump %s",
		 PACKAGE_VERSION);
	set_source(ctx, src, c);
	gd_capture_add_live_device(src, c, &sb);
	ret = add_objects(ctx, src, c, o, &sb);
	if (!ret)
		ret = add_ring(ctx, src, c, &sb);
	if (!ret)
		ret = add_clients(ctx, src, c, &sb);
	if (!ret)
		ret = add_events(ctx, src, c);
	/* The latest recorded hang: its registers, hangcheck's verdict and
	 * the batch as the GPU had it, whatever the object holds now. */
	if (!ret && read_latest_error(src, &sb) == 0 &&
	    !gdfs_parse_error_state(sb.buf, sb.len, &es, &err)) {
		if (es.present)
			ret = gd_capture_add_error_regs(c, &es);
		if (es.present && !ret)
			ret = gd_capture_add_error_buffers(c, &es, true, next_object_id(c));
		gdfs_error_state_release(&es);
	}
	strbuf_release(&sb);
	strbuf_release(&err);
	/* The source stays open for the contents, until release. */
	if (!ret) {
		struct live_fill *lf = calloc(1, sizeof(*lf));

		if (lf) {
			lf->src = src;
			lf->ctx = ctx;
			strbuf_init(&lf->buf, 0);
			c->fill = live_fill;
			c->fill_release = live_fill_release;
			c->fill_arg = lf;
			return 0;
		}
		ret = -ENOMEM;
		gd_error(ctx, "out of memory");
	}
	gdfs_close(src);
	gd_capture_release(c);
	return ret;
}

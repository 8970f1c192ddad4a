/*
 * gemdump list/info/hang --json: one JSON document (one line) a command,
 * through the tools' one writer (tools/gj.h).  Machine output is always
 * raw: bytes and ns as numbers, the unit in the field name; registers and
 * addresses as numbers too (a reader formats them).
 */
#include <inttypes.h>
#include <string.h>

#include "core.h"
#include "gemdebugfs.h"
#include "gemdump.h"
#include "gj.h"
#include "json-out.h"

#define GD_JSON_SCHEMA 1

static gj *doc(const char *command)
{
	gj *d = gj_doc("gemdump", GD_JSON_SCHEMA);

	gj_str(d, "command", command);
	return d;
}

static int emit(gj *d)
{
	int ret = gj_write(stdout, d);

	gj_free(d);
	return ret ? GD_EXIT_FAIL : GD_EXIT_OK;
}

static gj *object_json(const struct gd_capture *c, const struct gd_rec_object *o)
{
	gj *j = gj_object(), *owners = gj_array();
	char dom[20];
	size_t i;

	gdfs_domains_str(o->read, o->write, dom, sizeof(dom));
	gj_uint(j, "id", o->id);
	gj_uint(j, "size_bytes", o->size);
	gj_str(j, "list", gdfs_list_name((enum gdfs_list)o->list));
	gj_str(j, "domains", dom);
	gj_uint(j, "read_domains", o->read);
	gj_uint(j, "write_domain", o->write);
	if (o->flags & GD_OBJ_BOUND)
		gj_uint(j, "gtt_offset", o->gtt_offset);
	else
		gj_null(j, "gtt_offset");
	gj_uint(j, "pin_count", o->pin);
	gj_bool(j, "user_pinned", o->user_pin);
	if (o->fence >= 0)
		gj_int(j, "fence", o->fence);
	else
		gj_null(j, "fence");
	gj_str(j, "tiling", gdfs_tiling_name((enum gdfs_tiling)o->tiling));
	gj_bool(j, "dirty", o->flags & GD_OBJ_DIRTY);
	gj_bool(j, "active", o->flags & GD_OBJ_ACTIVE);
	gj_uint(j, "last_read_seqno", o->last_read_seqno);
	gj_uint(j, "last_write_seqno", o->last_write_seqno);
	gj_uint(j, "flink_name", o->name);
	gj_bool(j, "ring", o->flags & GD_OBJ_RING);
	gj_bool(j, "batch", o->flags & GD_OBJ_BATCH);
	gj_bool(j, "captured", gd_capture_data(c, o) != NULL);
	for (i = 0; i < c->nowners; i++) {
		gj *w;

		if (c->owners[i].obj != o->id)
			continue;
		w = gj_object();
		gj_uint(w, "file", c->owners[i].file);
		gj_int(w, "pid", c->owners[i].pid);
		gj_str(w, "comm", c->owners[i].comm);
		gj_uint(w, "handle", c->owners[i].handle);
		gj_push(owners, w);
	}
	gj_set(j, "owners", owners);
	return j;
}

int gd_json_list(const struct gd_capture *c)
{
	gj *d = doc("list"), *arr = gj_array();
	size_t i;

	for (i = 0; i < c->nobjects; i++)
		gj_push(arr, object_json(c, &c->objects[i]));
	gj_set(d, "objects", arr);
	return emit(d);
}

static gj *ring_json(const struct gd_rec_ring *r)
{
	gj *j = gj_object();

	gj_str(j, "name", r->name);
	gj_uint(j, "head", r->head);
	gj_uint(j, "head_offset", r->head & 0x001ffffc);
	gj_uint(j, "head_wraps", r->head >> 21);
	gj_uint(j, "tail", r->tail);
	gj_uint(j, "acthd", r->acthd);
	gj_uint(j, "start", r->start);
	gj_uint(j, "ring_object", r->ring_obj);
	gj_uint(j, "emitted_seqno", r->emitted_seqno);
	gj_uint(j, "completed_seqno", r->completed_seqno);
	gj_uint(j, "outstanding", r->outstanding);
	gj_bool(j, "idle", r->flags & GD_RING_IDLE);
	gj_bool(j, "stopped", r->flags & GD_RING_STOPPED);
	gj_bool(j, "wedged", r->flags & GD_RING_WEDGED);
	return j;
}

static void hang_fields(gj *j, const struct gd_capture *c)
{
	gj *h;

	if (!c->header.hang_kind[0] && !c->header.guilty_pid) {
		gj_null(j, "hang");
		return;
	}
	h = gj_object();
	gj_str(h, "kind", c->header.hang_kind);
	gj_int(h, "guilty_pid", c->header.guilty_pid);
	gj_str(h, "guilty_comm", c->header.guilty_comm);
	gj_uint(h, "guilty_file", c->header.guilty_file);
	gj_uint(h, "guilty_seqno", c->header.guilty_seqno);
	gj_uint(h, "detect_ns", c->header.detect_ns);
	gj_set(j, "hang", h);
}

int gd_json_info(const struct gd_capture *c)
{
	gj *d = doc("info"), *dev = gj_object(), *objs = gj_object();
	gj *rings = gj_array(), *clients = gj_array(), *regs = gj_object();
	struct gd_totals t;
	size_t i;

	gj_uint(d, "capture_schema", c->header.schema);
	gj_str(d, "reason", c->header.reason == GD_REASON_LIVE ? "live" :
			    c->header.reason == GD_REASON_ERROR_STATE ? "error_state" :
			    "unknown");
	gj_str(d, "written_by", c->header.tool_version);
	gj_uint(d, "time_ns", c->header.time_ns);
	gj_str(d, "source", c->header.source);
	gj_str(d, "error_time", c->header.error_time);
	gj_uint(dev, "pci_id", c->device.pci_id);
	gj_uint(dev, "gen", c->device.gen);
	gj_uint(dev, "aperture_bytes", c->device.aperture);
	gj_uint(dev, "fences", c->device.nfences);
	gj_set(d, "device", dev);
	gd_capture_totals(c, &t);
	gj_uint(objs, "count", t.n);
	gj_uint(objs, "bytes", t.bytes);
	gj_uint(objs, "bound", t.bound);
	gj_uint(objs, "bound_bytes", t.bound_bytes);
	gj_uint(objs, "captured", t.captured);
	gj_uint(objs, "captured_bytes", t.captured_bytes);
	gj_set(d, "objects", objs);
	for (i = 0; i < c->nrings; i++)
		gj_push(rings, ring_json(&c->rings[i]));
	gj_set(d, "rings", rings);
	gj_uint(d, "requests", c->nrequests);
	for (i = 0; i < c->nclients; i++) {
		gj *cl = gj_object();

		gj_uint(cl, "file", c->clients[i].file);
		gj_int(cl, "pid", c->clients[i].pid);
		gj_str(cl, "comm", c->clients[i].comm);
		gj_uint(cl, "handles", c->clients[i].handles);
		gj_uint(cl, "handle_bytes", c->clients[i].handle_bytes);
		gj_push(clients, cl);
	}
	gj_set(d, "clients", clients);
	gj_uint(d, "fences_in_use", c->nfences);
	for (i = 0; i < c->nregs; i++)
		gj_uint(regs, c->regs[i].name, c->regs[i].value);
	gj_set(d, "registers", regs);
	gj_uint(d, "events", c->nevents);
	hang_fields(d, c);
	return emit(d);
}

/* One fence register as intel_error_decode decodes it, in numbers. */
static gj *fence_json(uint32_t index, uint64_t f)
{
	gj *j = gj_object();

	gj_uint(j, "index", index);
	gj_uint(j, "value", f);
	gj_bool(j, "valid", f & 1);
	gj_str(j, "tiling", f & (1u << 12) ? "y" : "x");
	gj_uint(j, "pitch_bytes", 512u << ((f >> 4) & 0xf));
	gj_uint(j, "start", f & 0x0ff00000);
	gj_uint(j, "size_bytes", (uint64_t)1 << (20 + ((f >> 8) & 0xf)));
	return j;
}

/* Where addr lies: the object and the offset in it, or null in it. */
static gj *where_json(uint64_t addr, const struct gd_rec_object *in)
{
	gj *j = gj_object();

	gj_uint(j, "address", addr);
	if (in) {
		gj_uint(j, "object", in->id);
		gj_uint(j, "offset", addr - in->gtt_offset);
	} else {
		gj_null(j, "object");
		gj_null(j, "offset");
	}
	return j;
}

int gd_json_hang(const struct gd_capture *c, const struct gd_rec_ring *r,
		 const struct gd_rec_object *acthd_in, bool fault, uint64_t fault_addr,
		 const struct gd_rec_object *fault_in)
{
	gj *d = doc("hang"), *fences = gj_array(), *ring, *at;
	size_t i;

	gj_str(d, "source", c->header.source);
	gj_str(d, "error_time", c->header.error_time);
	hang_fields(d, c);
	if (r) {
		ring = ring_json(r);
		gj_uint(ring, "eir", r->eir);
		gj_uint(ring, "ipeir", r->ipeir);
		gj_uint(ring, "ipehr", r->ipehr);
		gj_uint(ring, "instdone", r->instdone);
		gj_uint(ring, "pgtbl_er", r->pgtbl_er);
		if (r->flags & GD_RING_HAS_FADDR)
			gj_uint(ring, "faddr", r->err_faddr);
		gj_set(d, "ring", ring);
	} else {
		gj_null(d, "ring");
	}
	if (r && acthd_in) {
		at = gj_object();
		gj_uint(at, "object", acthd_in->id);
		gj_uint(at, "offset", r->acthd - acthd_in->gtt_offset);
		gj_bool(at, "batch", acthd_in->flags & GD_OBJ_BATCH);
		gj_bool(at, "ring", acthd_in->flags & GD_OBJ_RING);
		gj_set(d, "acthd_in", at);
	} else {
		gj_null(d, "acthd_in");
	}
	if (fault)
		gj_set(d, "fault", where_json(fault_addr, fault_in));
	else
		gj_null(d, "fault");
	for (i = 0; i < c->nfences; i++)
		gj_push(fences, fence_json(c->fences[i].index, c->fences[i].value));
	gj_set(d, "fence_registers", fences);
	return emit(d);
}

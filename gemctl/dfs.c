/* Structured debugfs files for the inspection verbs (dfs.h). */
#include <string.h>
#include <unistd.h>

#include "dfs.h"
#include "session.h"

typedef int (*parse_fn)(const char *buf, size_t len, void *out, struct strbuf *err);

static int read_parsed(struct gemctl *ctl, const char *name, parse_fn parse, void *out)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	struct gdfs *src;
	int ret;

	ret = gemctl_debugfs(ctl, &src);
	if (ret)
		return ret;
	ret = gdfs_read(src, name, &buf);
	if (ret >= 0)
		ret = parse(buf.buf, buf.len, out, &err);
	if (ret < 0)
		ret = gemctl_error(ctl, GEMCTL_FAILED, "%s (%s): %s", name,
				   gdfs_describe(src), err.len ? err.buf : gdfs_strerror(ret));
	else
		ret = 0;
	strbuf_release(&buf);
	strbuf_release(&err);
	return ret;
}

static int p_objects(const char *b, size_t n, void *o, struct strbuf *e)
{
	return gdfs_parse_objects(b, n, o, e);
}

static int p_clients(const char *b, size_t n, void *o, struct strbuf *e)
{
	return gdfs_parse_clients(b, n, o, e);
}

static int p_gtt(const char *b, size_t n, void *o, struct strbuf *e)
{
	return gdfs_parse_gtt(b, n, o, e);
}

static int p_counters(const char *b, size_t n, void *o, struct strbuf *e)
{
	return gdfs_parse_counters(b, n, o, e);
}

int gemctl_read_objects(struct gemctl *ctl, struct gdfs_objects *out)
{
	memset(out, 0, sizeof(*out));
	return read_parsed(ctl, "gemkit_objects", p_objects, out);
}

int gemctl_read_clients(struct gemctl *ctl, struct gdfs_clients *out)
{
	memset(out, 0, sizeof(*out));
	return read_parsed(ctl, "gemkit_clients", p_clients, out);
}

int gemctl_read_gtt(struct gemctl *ctl, struct gdfs_gtt *out)
{
	memset(out, 0, sizeof(*out));
	return read_parsed(ctl, "gemkit_gtt", p_gtt, out);
}

int gemctl_read_counters(struct gemctl *ctl, struct gdfs_counters *out)
{
	memset(out, 0, sizeof(*out));
	return read_parsed(ctl, "gemkit_counters", p_counters, out);
}

uint32_t gemctl_my_file(struct gemctl *ctl)
{
	struct gdfs_clients c;
	uint32_t file = 0;
	size_t i;

	if (ctl->fd < 0 || gemctl_read_clients(ctl, &c))
		return 0;
	for (i = 0; i < c.n; i++)
		if (c.v[i].pid == getpid())
			file = c.v[i].file;
	gdfs_clients_release(&c);
	return file;
}

gj *gemctl_object_json(const struct gdfs_object *o)
{
	gj *j = gj_object(), *owners = gj_array();
	uint32_t i;

	gj_uint(j, "id", o->id);
	gj_uint(j, "size", o->size);
	gj_str(j, "list", gdfs_list_name(o->list));
	if (o->gtt_size)
		gj_uint(j, "gtt_offset", o->gtt_offset);
	else
		gj_null(j, "gtt_offset");
	gj_uint(j, "gtt_size", o->gtt_size);
	gj_uint(j, "read_domains", o->read);
	gj_uint(j, "write_domain", o->write);
	gj_uint(j, "pin", o->pin);
	gj_uint(j, "user_pin", o->user_pin);
	gj_int(j, "fence", o->fence);
	gj_str(j, "tiling", gdfs_tiling_name(o->tiling));
	gj_uint(j, "stride", o->stride);
	gj_str(j, "madv", gdfs_madv_name(o->madv));
	gj_str(j, "cache", gdfs_cache_name(o->cache));
	gj_bool(j, "dirty", o->dirty);
	gj_bool(j, "active", o->active);
	gj_uint(j, "last_read_seqno", o->last_read_seqno);
	gj_uint(j, "last_write_seqno", o->last_write_seqno);
	gj_uint(j, "name", o->name);
	gj_uint(j, "handles", o->handles);
	gj_int(j, "creator_pid", o->creator_pid);
	gj_uint(j, "created_ns", o->created_ns);
	gj_uint(j, "binds", o->binds);
	gj_uint(j, "evicts", o->evicts);
	for (i = 0; i < o->nowners; i++) {
		gj *w = gj_object();

		gj_uint(w, "file", o->owners[i].file);
		gj_uint(w, "handle", o->owners[i].handle);
		gj_int(w, "pid", o->owners[i].pid);
		gj_str(w, "comm", o->owners[i].comm);
		gj_push(owners, w);
	}
	gj_set(j, "owners", owners);
	return j;
}

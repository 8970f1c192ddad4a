/* The debugfs reads the driver tests share (gemtest-dfs.h). */
#include <string.h>
#include <unistd.h>

#include "gemtest.h"
#include "gemtest-dfs.h"
#include "strbuf.h"

uint64_t gt_dfs_counter(struct gdfs *src, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	struct gdfs_counters c;
	uint64_t v = 0;

	gt_assert_eq(gdfs_read(src, "gemkit_counters", &sb), 0);
	gt_assert_eq(gdfs_parse_counters(sb.buf, sb.len, &c, NULL), 0);
	gt_assert_f(gdfs_counter(&c, key, &v), "no counter %s", key);
	gdfs_counters_release(&c);
	strbuf_release(&sb);
	return v;
}

uint32_t gt_dfs_object_id(struct gdfs *src, uint32_t handle)
{
	struct strbuf sb = STRBUF_INIT;
	struct gdfs_objects objs;
	uint32_t id = 0;
	size_t i, k;

	gt_assert_eq(gdfs_read(src, "gemkit_objects", &sb), 0);
	gt_assert_eq(gdfs_parse_objects(sb.buf, sb.len, &objs, NULL), 0);
	for (i = 0; i < objs.n && !id; i++)
		for (k = 0; k < objs.v[i].nowners; k++)
			if (objs.v[i].owners[k].pid == getpid() &&
			    objs.v[i].owners[k].handle == handle)
				id = objs.v[i].id;
	gt_assert_f(id, "no object of pid %d handle %u", (int)getpid(), handle);
	gdfs_objects_release(&objs);
	strbuf_release(&sb);
	return id;
}

void gt_dfs_expect(struct gdfs *src, const char *name, const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	gt_assert_eq(gdfs_read(src, name, &sb), 0);
	gt_assert_f(!strcmp(sb.buf, text), "%s reads '%s', expected '%s'",
		    name, sb.buf, text);
	strbuf_release(&sb);
}

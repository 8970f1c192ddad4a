/* The debugfs reads the driver tests share (gemtest-dfs.h). */
#include <string.h>

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

void gt_dfs_expect(struct gdfs *src, const char *name, const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	gt_assert_eq(gdfs_read(src, name, &sb), 0);
	gt_assert_f(!strcmp(sb.buf, text), "%s reads '%s', expected '%s'",
		    name, sb.buf, text);
	strbuf_release(&sb);
}

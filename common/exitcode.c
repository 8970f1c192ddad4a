/* The tools' exit status table and the "no gemd" message (exitcode.h). */
#include <errno.h>
#include <string.h>

#include "exitcode.h"
#include "util.h"

static const struct {
	int status;
	const char *meaning;
} exits[] = {
#define GEM_EXIT(name, status, meaning) { status, meaning },
#include "exitcodes.def"
#undef GEM_EXIT
};

#define DESCRIBE_WIDTH 72

void gem_exit_describe(struct strbuf *sb)
{
	size_t i, col, start = sb->len;

	strbuf_addstr(sb, "exit status:");
	col = sb->len - start;
	for (i = 0; i < ARRAY_SIZE(exits); i++) {
		struct strbuf item = STRBUF_INIT;

		strbuf_addf(&item, "%d %s%s", exits[i].status, exits[i].meaning,
			    i + 1 < ARRAY_SIZE(exits) ? "," : ".");
		if (col + 1 + item.len > DESCRIBE_WIDTH) {
			strbuf_addch(sb, '\n');
			col = 0;
		} else {
			strbuf_addch(sb, ' ');
			col++;
		}
		strbuf_addstr(sb, item.buf);
		col += item.len;
		strbuf_release(&item);
	}
	strbuf_addch(sb, '\n');
}

enum gem_exit gem_exit_for_errno(int err)
{
	switch (err) {
	case EIO:
		return GEM_EXIT_HUNG;
	case ETIME:
	case ETIMEDOUT:
		return GEM_EXIT_TIMEOUT;
	default:
		return GEM_EXIT_FAILED;
	}
}

enum gem_exit gem_unreachable(struct strbuf *sb, const char *path, int err)
{
	if (!path)
		path = "(no device path)";
	switch (err) {
	case ENOENT:
	case ECONNREFUSED:
		strbuf_addf(sb, "no gemd at %s (is gemd running? start it with "
			    "`gemd --daemon`)", path);
		return GEM_EXIT_NODEV;
	case ETIME:
	case ETIMEDOUT:
		strbuf_addf(sb, "gemd at %s does not answer (is it stopped or hung?)",
			    path);
		return GEM_EXIT_TIMEOUT;
	case ENODEV:
		/* The device node is gone (driver/gem/unbind.c), or gemd
		 * with it: libgem's errno for a device that went away. */
		strbuf_addf(sb, "no device at %s: gemd's driver is unbound "
			    "(`gemctl bind`), or gemd went away", path);
		return GEM_EXIT_NODEV;
	default:
		strbuf_addf(sb, "cannot reach gemd at %s: %s", path, strerror(err));
		return GEM_EXIT_NODEV;
	}
}

/*
 * gemtoprc: the settings the setup screen (F2) saves, as htop keeps
 * ~/.config/htop/htoprc.  One "key=value" a line; '#' starts a comment;
 * an unknown key is skipped (a newer gemtop's file still loads).  The
 * file is read before the command line, so an option always wins.
 *
 *	$XDG_CONFIG_HOME/gemtop/gemtoprc, else ~/.config/gemtop/gemtoprc
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gemtop.h"
#include "util.h"

int gt_rc_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && *xdg)
		n = snprintf(buf, len, "%s/gemtop/gemtoprc", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.config/gemtop/gemtoprc", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int col_by_name(const char *name)
{
	int c;

	for (c = 0; c < GT_COL_COUNT; c++)
		if (!strcmp(gt_col_name((enum gt_col)c), name))
			return c;
	return -1;
}

/* One line; a bad value is an error naming the line. */
static int rc_line(struct gt_rc *rc, char *line, unsigned int lineno, struct strbuf *err)
{
	char *eq, *key = line, *val;
	uint64_t v;
	int c;

	line[strcspn(line, "\r\n")] = '\0';
	key += strspn(key, " \t");
	if (!*key || *key == '#')
		return 0;
	eq = strchr(key, '=');
	if (!eq) {
		strbuf_addf(err, "line %u: expected key=value", lineno);
		return -EINVAL;
	}
	*eq = '\0';
	val = eq + 1;
	if (!strcmp(key, "delay")) {
		if (gt_parse_delay(val, &rc->delay_ns))
			goto bad;
	} else if (!strcmp(key, "color") || !strcmp(key, "ascii") ||
		   !strcmp(key, "invert")) {
		if (strcmp(val, "0") && strcmp(val, "1"))
			goto bad;
		if (key[0] == 'c')
			rc->color = *val == '1';
		else if (key[0] == 'a')
			rc->ascii = *val == '1';
		else
			rc->invert = *val == '1';
	} else if (!strcmp(key, "view")) {
		if (parse_u64(val, &v) || v < 1 || v > gt_view_count())
			goto bad;
		rc->view = (int)v;
	} else if (!strcmp(key, "sort")) {
		c = col_by_name(val);
		if (c < 0)
			goto bad;
		rc->sort = c;
	} else if (!strcmp(key, "filter")) {
		snprintf(rc->filter, sizeof(rc->filter), "%s", val);
	}
	return 0;
bad:
	strbuf_addf(err, "line %u: bad %s '%s'", lineno, key, val);
	return -EINVAL;
}

void gt_rc_defaults(struct gt_rc *rc)
{
	memset(rc, 0, sizeof(*rc));
	rc->delay_ns = 1000000000ull;
	rc->color = true;
	rc->view = 1;
	rc->sort = GT_COL_SIZE;
}

int gt_rc_load(const char *path, struct gt_rc *rc, struct strbuf *err)
{
	FILE *f = fopen(path, "r");
	char line[256];
	unsigned int n = 0;
	int ret = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (!ret && fgets(line, sizeof(line), f))
		ret = rc_line(rc, line, ++n, err);
	fclose(f);
	return ret;
}

int gt_rc_save(const char *path, const struct gt_rc *rc)
{
	struct strbuf tmp = STRBUF_INIT;
	FILE *f;
	int ret = make_parent_dirs(path, 0700);

	if (ret)
		return ret;
	/* Whole or not at all: a crash mid-write keeps the old file. */
	strbuf_addf(&tmp, "%s.tmp.%d", path, (int)getpid());
	f = fopen(tmp.buf, "w");
	if (!f) {
		ret = -errno;
		goto out;
	}
	fprintf(f, "# gemtop settings (F2 writes this file; options override it)\n"
		"delay=%.3f\ncolor=%d\nascii=%d\nview=%d\nsort=%s\ninvert=%d\nfilter=%s\n",
		(double)rc->delay_ns / 1e9, rc->color, rc->ascii, rc->view,
		gt_col_name((enum gt_col)rc->sort), rc->invert, rc->filter);
	if (fclose(f) || rename(tmp.buf, path)) {
		ret = -errno;
		unlink(tmp.buf);
	}
out:
	strbuf_release(&tmp);
	return ret;
}

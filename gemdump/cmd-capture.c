/* gemdump capture: write a capture file, of the live driver or of an error state. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture.h"
#include "gemdump.h"
#include "util.h"

/* "1,2,7" into ids (malloc'd). */
static int parse_ids(const char *s, uint32_t **ids, size_t *n)
{
	size_t cap = 1;
	const char *p;
	uint32_t *v;

	for (p = s; *p; p++)
		cap += *p == ',';
	v = calloc(cap, sizeof(*v));
	if (!v)
		return -ENOMEM;
	*n = 0;
	while (*s) {
		char tok[24];
		size_t len = strcspn(s, ",");
		uint64_t x;

		if (!len || len >= sizeof(tok))
			goto bad;
		memcpy(tok, s, len);
		tok[len] = '\0';
		if (parse_u64(tok, &x) || !x || x > UINT32_MAX)
			goto bad;
		v[(*n)++] = (uint32_t)x;
		s += len;
		if (*s == ',' && !*++s)
			goto bad;
	}
	*ids = v;
	return 0;
bad:
	free(v);
	return -EINVAL;
}

static uint64_t captured_bytes(const struct gd_capture *c, size_t *nc)
{
	uint64_t sum = 0;
	size_t i;

	*nc = 0;
	for (i = 0; i < c->nobjects; i++) {
		if (c->data[i] || (c->objects[i].flags & GD_OBJ_CAPTURED)) {
			sum += c->objects[i].size;
			(*nc)++;
		}
	}
	return sum;
}

static int run(struct gd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "from-error-state", required_argument, NULL, 'e' },
		{ "no-contents", no_argument, NULL, 'n' },
		{ "objects", required_argument, NULL, 'O' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct gd_live_opts lo = { .contents = true };
	struct strbuf err = STRBUF_INIT, in = STRBUF_INIT, def = STRBUF_INIT;
	const char *out = NULL, *errstate = NULL;
	uint32_t *ids = NULL;
	struct gd_capture c;
	bool quiet = false;
	size_t nc;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "o:q", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'e':
			errstate = optarg;
			break;
		case 'n':
			lo.contents = false;
			break;
		case 'O':
			free(ids);
			ids = NULL;
			if (parse_ids(optarg, &ids, &lo.nids))
				return gd_usage_error(ctx, "invalid --objects '%s': object ids "
						      "separated by commas", optarg);
			lo.ids = ids;
			break;
		case 'q':
			quiet = true;
			break;
		default:
			free(ids);
			return gd_option_error(ctx, opts, "o:q", argc, argv);
		}
	}
	if (optind < argc) {
		free(ids);
		return gd_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
	}
	if (!out) {
		time_t t = time(NULL);
		struct tm tm;
		char stamp[32];

		gmtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		strbuf_addf(&def, "gemkit-%s.core", stamp);
		out = def.buf;
	}
	if (errstate) {
		ret = gd_read_file(errstate, GD_MAX_INPUT, &in);
		if (ret) {
			gd_error(ctx, "cannot read '%s': %s", errstate, strerror(-ret));
			goto out;
		}
		ret = gd_capture_from_error_state(in.buf, in.len,
						  strcmp(errstate, "-") ? errstate : "stdin",
						  &c, &err);
		if (ret) {
			gd_error(ctx, "'%s': %s", errstate, err.len ? err.buf : strerror(-ret));
			goto out;
		}
	} else {
		ret = gd_capture_live(ctx, &c, &lo);
		if (ret)
			goto out;
	}
	ret = gd_capture_write(&c, out, &err);
	if (ret)
		gd_error(ctx, "%s", err.buf);
	else if (!quiet) {
		uint64_t bytes = captured_bytes(&c, &nc);

		printf("%s: %zu objects, %zu with contents (%llu bytes)\n", out, c.nobjects,
		       nc, (unsigned long long)bytes);
	}
	gd_capture_release(&c);
out:
	free(ids);
	strbuf_release(&err);
	strbuf_release(&in);
	strbuf_release(&def);
	return ret ? GD_EXIT_FAIL : GD_EXIT_OK;
}

const struct gd_cmd gd_cmd_capture = {
	.name = "capture",
	.args = "[-o FILE] [--from-error-state FILE|-] [--no-contents] [--objects LIST]",
	.summary = "write a capture (an ELF core) of the driver or of an error state",
	.options =
	"  -o, --output FILE          where to write (default gemkit-DATE-TIME.core);\n"
	"                             written whole under a temporary name, then renamed\n"
	"      --from-error-state F   convert an i915_error_state text ('-': stdin)\n"
	"      --no-contents          the objects' records without their bytes\n"
	"      --objects LIST         only these object ids (comma-separated)\n"
	"  -q, --quiet                print nothing on success\n",
	.complete = "--output --from-error-state --no-contents --objects --quiet",
	.run = run,
};

/*
 * gemdump bo: one object's bytes, from the live driver (its debugfs
 * gemkit_object_data/<id>) or from a capture (-i FILE).  OBJ is a global
 * id, @GTTADDR (the object holding that address) or name:FLINK.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "core.h"
#include "gemdebugfs.h"
#include "gemdump.h"
#include "objmap.h"
#include "util.h"

enum spec_kind { SPEC_ID, SPEC_ADDR, SPEC_NAME };

struct spec {
	enum spec_kind kind;
	uint64_t v;
};

static int parse_spec(const char *s, struct spec *sp)
{
	if (*s == '@') {
		sp->kind = SPEC_ADDR;
		return parse_u64(s + 1, &sp->v);
	}
	if (!strncmp(s, "name:", 5)) {
		sp->kind = SPEC_NAME;
		return parse_u64(s + 5, &sp->v) || !sp->v || sp->v > UINT32_MAX ? -EINVAL : 0;
	}
	sp->kind = SPEC_ID;
	return parse_u64(s, &sp->v) || !sp->v || sp->v > UINT32_MAX ? -EINVAL : 0;
}

/* What we know of the chosen object, wherever it came from. */
struct target {
	uint32_t id;
	uint64_t size, gtt_offset;
	bool bound;
};

static bool match(const struct spec *sp, uint32_t id, uint64_t size, bool bound,
		  uint64_t gtt, uint32_t name)
{
	switch (sp->kind) {
	case SPEC_ID:
		return id == sp->v;
	case SPEC_NAME:
		return name == sp->v;
	case SPEC_ADDR:
		return bound && sp->v >= gtt && sp->v - gtt < size;
	}
	return false;
}

static int from_capture(const struct gd_ctx *ctx, const char *file, const struct spec *sp,
			struct target *t, struct gd_capture *c, const uint8_t **data)
{
	size_t i;
	int ret;

	ret = gd_load_capture(ctx, file, c);
	if (ret)
		return ret;
	for (i = 0; i < c->nobjects; i++) {
		const struct gd_rec_object *o = &c->objects[i];

		if (!match(sp, o->id, o->size, o->flags & GD_OBJ_BOUND, o->gtt_offset, o->name))
			continue;
		t->id = o->id;
		t->size = o->size;
		t->gtt_offset = o->gtt_offset;
		t->bound = o->flags & GD_OBJ_BOUND;
		*data = c->data[i];
		if (!*data) {
			gd_error(ctx, "'%s': object %u was captured without its contents",
				 file, o->id);
			return -ENODATA;
		}
		return 0;
	}
	return -ENOENT;
}

static int from_live(const struct gd_ctx *ctx, struct gdfs *src, const struct spec *sp,
		     struct target *t)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct gdfs_objects objs;
	size_t i;
	int ret;

	ret = gdfs_read(src, "gemkit_objects", &sb);
	if (ret) {
		gd_error(ctx, "reading %s/gemkit_objects: %s", gdfs_describe(src), gdfs_strerror(ret));
		goto out;
	}
	ret = gdfs_parse_objects(sb.buf, sb.len, &objs, &err);
	if (ret) {
		gd_error(ctx, "%s", err.buf);
		goto out;
	}
	ret = -ENOENT;
	for (i = 0; i < objs.n; i++) {
		const struct gdfs_object *o = &objs.v[i];

		if (!match(sp, o->id, o->size, o->gtt_size != 0, o->gtt_offset, o->name))
			continue;
		t->id = o->id;
		t->size = o->size;
		t->gtt_offset = o->gtt_offset;
		t->bound = o->gtt_size != 0;
		ret = 0;
		break;
	}
	gdfs_objects_release(&objs);
out:
	strbuf_release(&sb);
	strbuf_release(&err);
	return ret;
}

static void hexdump(const uint8_t *p, size_t len, uint64_t addr)
{
	size_t i, j;

	for (i = 0; i < len; i += 16) {
		printf("0x%08" PRIx64 ":", addr + i);
		for (j = i; j < i + 16 && j + 4 <= len; j += 4)
			printf(" %08x", (uint32_t)p[j] | (uint32_t)p[j + 1] << 8 |
			       (uint32_t)p[j + 2] << 16 | (uint32_t)p[j + 3] << 24);
		for (; j < i + 16 && j < len; j++)
			printf(" %02x", p[j]);
		printf("\n");
	}
}

struct bo_opts {
	enum { OUT_AUTO, OUT_HEX, OUT_RAW, OUT_DECODE } mode;
	uint64_t offset, length;
	bool has_length;
	const char *out, *in;
};

static int emit(struct gd_ctx *ctx, const struct bo_opts *o, const uint8_t *p, size_t len,
		const struct target *t)
{
	uint64_t addr = (t->bound ? t->gtt_offset : 0) + o->offset;
	int mode = o->mode, fd = 1, ret = 0;

	if (o->out) {
		fd = open(o->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0)
			return gd_error(ctx, "cannot create '%s': %s", o->out, strerror(errno)),
			       -errno;
		if (mode == OUT_AUTO)
			mode = OUT_RAW;
	}
	if (mode == OUT_AUTO)
		mode = isatty(1) ? OUT_HEX : OUT_RAW;
	if (mode == OUT_RAW) {
		ssize_t n;

		fflush(stdout);
		n = write_full(fd, p, len);
		if (n < 0) {
			ret = (int)n;
			gd_error(ctx, "writing %s: %s", o->out ? o->out : "stdout", strerror(-ret));
		}
	} else if (mode == OUT_HEX) {
		gd_output_begin(ctx);
		hexdump(p, len, addr);
	} else {
		uint32_t *dw = malloc(len / 4 * sizeof(*dw) + 4);
		size_t i;

		if (!dw)
			return -ENOMEM;
		for (i = 0; i + 4 <= len; i += 4)
			dw[i / 4] = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
				    (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
		gd_output_begin(ctx);
		ret = gd_decode_text(stdout, dw, len / 4, (uint32_t)addr, (uint32_t)addr,
				     0x2772, false);
		if (ret)
			gd_error(ctx, "no decoder: %s", strerror(-ret));
		free(dw);
	}
	if (fd != 1 && close(fd) && !ret) {
		ret = -errno;
		gd_error(ctx, "writing '%s': %s", o->out, strerror(-ret));
	}
	return ret;
}

static int run(struct gd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hex", no_argument, NULL, 'x' },
		{ "raw", no_argument, NULL, 'r' },
		{ "decode", no_argument, NULL, 'd' },
		{ "offset", required_argument, NULL, 'O' },
		{ "length", required_argument, NULL, 'L' },
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	struct bo_opts o = { .mode = OUT_AUTO };
	struct strbuf live = STRBUF_INIT;
	const uint8_t *data = NULL;
	struct gd_capture c;
	struct gdfs *src = NULL;
	struct target t = { 0 };
	struct spec sp;
	uint64_t len;
	int opt, ret;

	gd_capture_init(&c);
	while ((opt = getopt_long(argc, argv, "o:i:", opts, NULL)) != -1) {
		switch (opt) {
		case 'x':
			o.mode = OUT_HEX;
			break;
		case 'r':
			o.mode = OUT_RAW;
			break;
		case 'd':
			o.mode = OUT_DECODE;
			break;
		case 'O':
		case 'L':
			if (parse_size(optarg, opt == 'O' ? &o.offset : &o.length))
				return gd_usage_error(ctx, "invalid --%s '%s'",
						      opt == 'O' ? "offset" : "length", optarg);
			o.has_length |= opt == 'L';
			break;
		case 'o':
			o.out = optarg;
			break;
		case 'i':
			o.in = optarg;
			break;
		default:
			return gd_option_error(ctx, opts, "o:i:", argc, argv);
		}
	}
	if (argc - optind != 1)
		return gd_usage_error(ctx, "one object expected (ID, @GTTADDR or name:FLINK)");
	if (parse_spec(argv[optind], &sp))
		return gd_usage_error(ctx, "invalid object '%s': ID, @GTTADDR or name:FLINK",
				      argv[optind]);
	if (o.in) {
		ret = from_capture(ctx, o.in, &sp, &t, &c, &data);
		if (ret && ret != -ENOENT)
			goto out;
	} else {
		ret = gd_open_live(ctx, &src);
		if (ret)
			return GD_EXIT_FAIL;
		ret = from_live(ctx, src, &sp, &t);
		if (ret && ret != -ENOENT)
			goto out;
	}
	if (ret == -ENOENT) {
		gd_error(ctx, "no object '%s' in %s", argv[optind],
			 o.in ? o.in : gdfs_describe(src));
		goto out;
	}
	if (o.offset > t.size) {
		ret = -EINVAL;
		gd_error(ctx, "--offset %" PRIu64 " is past the end of object %u (%" PRIu64
			 " bytes)", o.offset, t.id, t.size);
		goto out;
	}
	len = o.has_length ? MIN(o.length, t.size - o.offset) : t.size - o.offset;
	if (sp.kind == SPEC_ADDR && !o.has_length && !o.offset) {
		/* @ADDR without a range: from that address on. */
		o.offset = sp.v - t.gtt_offset;
		len = t.size - o.offset;
	}
	if (!o.in) {
		char name[48];

		snprintf(name, sizeof(name), "gemkit_object_data/%u", t.id);
		ret = gdfs_read_range(src, name, o.offset, len, &live);
		if (ret) {
			gd_error(ctx, "reading %s/%s: %s", gdfs_describe(src), name,
				 strerror(-ret));
			goto out;
		}
		data = (const uint8_t *)live.buf;
		len = live.len;
		ret = emit(ctx, &o, data, len, &t);
	} else {
		ret = emit(ctx, &o, data + o.offset, len, &t);
	}
out:
	gd_capture_release(&c);
	if (src)
		gdfs_close(src);
	strbuf_release(&live);
	return ret ? GD_EXIT_FAIL : GD_EXIT_OK;
}

const struct gd_cmd gd_cmd_bo = {
	.name = "bo",
	.args = "[OPTIONS] OBJ",
	.summary = "an object's bytes (OBJ: ID, @GTTADDR or name:FLINK), live or from -i FILE",
	.options =
	"      --hex            dwords in hex (the default on a terminal)\n"
	"      --raw            the bytes as they are (the default into a pipe)\n"
	"      --decode         decode as a gen3 batch\n"
	"      --offset SIZE    start SIZE bytes into the object (4096, 2M, 0x1000)\n"
	"      --length SIZE    at most SIZE bytes\n"
	"  -o, --output FILE    write the bytes to FILE\n"
	"  -i, --input FILE     the object of this capture, not the live driver's\n",
	.complete = "--hex --raw --decode --offset --length --output --input",
	.run = run,
};

/*
 * gemdump decode: a batch or ring as text (libdrm_intel's decoder, as
 * intel_dump_decode prints it), as a per-command summary, or as JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "core.h"
#include "gemdump.h"
#include "gj.h"
#include "objmap.h"
#include "util.h"

enum mode { MODE_TEXT, MODE_SUMMARY, MODE_JSON };

struct count {
	const char *name;
	size_t n;
};

static int cmp_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void print_target(const struct gd_objmap *map, uint32_t addr)
{
	const struct gd_objmap_ent *e, *border;

	if (!map)
		return;
	e = gd_objmap_find(map, addr, &border);
	if (e)
		printf("  obj %u + 0x%llx", e->id, (unsigned long long)(addr - e->start));
	else if (border)
		printf("  (none; just past obj %u)", border->id);
	else
		printf("  (no object)");
}

static int summary(const struct gd_dwords *d, uint32_t base, bool past_end,
		   const struct gd_objmap *map)
{
	struct count *counts = NULL;
	size_t ncounts = 0, ncmds = 0, i = 0, j, k;
	struct strbuf refs = STRBUF_INIT;
	struct gd_cmdinfo ci;

	counts = calloc(64, sizeof(*counts));
	if (!counts)
		return -ENOMEM;
	printf("%-40s %s\n", "command", "count");
	while (i < d->n) {
		uint32_t addr[2], idx[2];
		size_t na;

		gd_command_info(&d->v[i], d->n - i, &ci);
		ncmds++;
		for (j = 0; j < ncounts && strcmp(counts[j].name, ci.name); j++)
			;
		if (j == ncounts && ncounts < 64)
			counts[ncounts++].name = ci.name;
		if (j < ncounts)
			counts[j].n++;
		if (ci.len <= d->n - i) {
			na = gd_cmd_addresses(&d->v[i], &ci, addr, idx, 2);
			for (k = 0; k < na; k++)
				strbuf_addf(&refs, "%08x %u %s %08x\n",
					    base + (uint32_t)(4 * i), idx[k], ci.name, addr[k]);
		}
		if (ci.end && !past_end) {
			i++;
			break;
		}
		i += MIN((size_t)ci.len, d->n - i);
	}
	qsort(counts, ncounts, sizeof(*counts), cmp_count);
	for (j = 0; j < ncounts; j++)
		printf("%-40s %zu\n", counts[j].name, counts[j].n);
	printf("%zu commands in %zu dwords", ncmds, i);
	if (i < d->n)
		printf(" (%zu dwords after MI_BATCH_BUFFER_END)", d->n - i);
	printf("\n");
	if (refs.len) {
		const char *p = refs.buf;

		printf("\naddresses:\n");
		while (*p) {
			unsigned int at, dw, target;
			char name[48];

			if (sscanf(p, "%x %u %47s %x", &at, &dw, name, &target) == 4) {
				printf("  0x%08x %s dw%u 0x%08x", at, name, dw, target);
				print_target(map, target);
				printf("\n");
			}
			p = strchr(p, '\n') + 1;
		}
	}
	strbuf_release(&refs);
	free(counts);
	return 0;
}

/* One JSON record per command, one a line (the tools' writer, gj.h). */
static gj *json_command(const struct gd_dwords *d, size_t i, uint32_t base,
			const struct gd_cmdinfo *ci, size_t len,
			const struct gd_objmap *map)
{
	gj *o = gj_object(), *dw = gj_array(), *targets;
	uint32_t addr[2], idx[2];
	char hex[16];
	size_t j, k, na = 0;

	snprintf(hex, sizeof(hex), "0x%08x", base + (uint32_t)(4 * i));
	gj_str(o, "address", hex);
	gj_str(o, "opcode", ci->name);
	gj_uint(o, "length", ci->len);
	for (j = 0; j < len; j++) {
		snprintf(hex, sizeof(hex), "0x%08x", d->v[i + j]);
		gj_push(dw, gj_new_str(hex));
	}
	gj_set(o, "dwords", dw);
	if (!ci->known)
		gj_bool(o, "known", false);
	if (ci->bad_len)
		gj_bool(o, "bad_length", true);
	if (len < ci->len)
		gj_bool(o, "truncated", true);
	if (len == ci->len)
		na = gd_cmd_addresses(&d->v[i], ci, addr, idx, 2);
	if (!na)
		return o;
	targets = gj_array();
	for (k = 0; k < na; k++) {
		const struct gd_objmap_ent *e =
			map ? gd_objmap_find(map, addr[k], NULL) : NULL;
		gj *t = gj_object();

		gj_uint(t, "dword", idx[k]);
		snprintf(hex, sizeof(hex), "0x%08x", addr[k]);
		gj_str(t, "address", hex);
		if (e) {
			gj_uint(t, "object", e->id);
			gj_uint(t, "offset", addr[k] - e->start);
		}
		gj_push(targets, t);
	}
	gj_set(o, "targets", targets);
	return o;
}

static void json(const struct gd_dwords *d, uint32_t base, bool past_end,
		 const struct gd_objmap *map)
{
	struct gd_cmdinfo ci;
	size_t i = 0, len;

	while (i < d->n) {
		gj *o;

		gd_command_info(&d->v[i], d->n - i, &ci);
		len = MIN((size_t)ci.len, d->n - i);
		o = json_command(d, i, base, &ci, len, map);
		gj_write(stdout, o);
		gj_free(o);
		if (ci.end && !past_end)
			break;
		i += len;
	}
}

static int run(struct gd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "devid", required_argument, NULL, 'd' },
		{ "base", required_argument, NULL, 'b' },
		{ "head", required_argument, NULL, 'H' },
		{ "summary", no_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "past-end", no_argument, NULL, 'p' },
		{ "capture", required_argument, NULL, 'i' },
		{ "live", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	uint64_t devid = 0x2772, base = 0, head = 0, v;
	bool has_base = false, has_head = false, past_end, force_past = false, live = false;
	const char *file = "-", *capture = NULL;
	struct gd_objmap map = { 0 };
	struct gd_capture cap;
	enum mode mode = MODE_TEXT;
	struct gd_dwords d;
	bool have_map = false;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "i:", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
		case 'b':
		case 'H':
			if (parse_u64(optarg, &v) || v > UINT32_MAX)
				return gd_usage_error(ctx, "invalid --%s '%s': a 32-bit number",
						      opt == 'd' ? "devid" : opt == 'b' ? "base" : "head",
						      optarg);
			if (opt == 'd')
				devid = v;
			else if (opt == 'b')
				base = v, has_base = true;
			else
				head = v, has_head = true;
			break;
		case 's':
			mode = MODE_SUMMARY;
			break;
		case 'j':
			mode = MODE_JSON;
			break;
		case 'p':
			force_past = true;
			break;
		case 'i':
			capture = optarg;
			break;
		case 'l':
			live = true;
			break;
		default:
			return gd_option_error(ctx, opts, "i:", argc, argv);
		}
	}
	if (argc - optind > 1)
		return gd_usage_error(ctx, "one input at most");
	if (optind < argc)
		file = argv[optind];
	ret = gd_read_file(file, GD_MAX_INPUT, &in);
	if (ret) {
		gd_error(ctx, "cannot read '%s': %s", file, strerror(-ret));
		goto out;
	}
	ret = gd_parse_dwords(in.buf, in.len, &d, &err);
	if (ret) {
		gd_error(ctx, "'%s': %s", file, err.len ? err.buf : strerror(-ret));
		goto out;
	}
	/* As intel_dump_decode: binary input decodes past MI_BATCH_BUFFER_END. */
	past_end = force_past || !d.text;
	if (!has_base && d.has_base)
		base = d.base;
	if (!has_head)
		head = base;
	if (capture) {
		ret = gd_capture_load(capture, &cap, &err);
		if (ret) {
			gd_error(ctx, "%s", err.buf);
			goto out_d;
		}
		ret = gd_objmap_from_capture(&map, &cap);
		gd_capture_release(&cap);
		if (ret)
			goto out_d;
		have_map = true;
	} else if (live) {
		ret = gd_objmap_from_live(&map, ctx);
		if (ret)
			goto out_d;
		have_map = true;
	}
	if (mode == MODE_TEXT) {
		gd_output_begin(ctx);
		/* The decoder prints a line per dword: buffer them in bulk. */
		if (!isatty(1))
			setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		ret = gd_decode_text(stdout, d.v, d.n, (uint32_t)base, (uint32_t)head,
				     (uint32_t)devid, past_end);
		if (ret == -ENODEV)
			gd_error(ctx, "libdrm_intel has no decoder for devid 0x%04llx",
				 (unsigned long long)devid);
		else if (ret == -ENOTSUP)
			gd_error(ctx, "built without libdrm_intel: use --summary or --json");
	} else if (mode == MODE_SUMMARY) {
		ret = summary(&d, (uint32_t)base, past_end, have_map ? &map : NULL);
	} else {
		json(&d, (uint32_t)base, past_end, have_map ? &map : NULL);
	}
	gd_objmap_release(&map);
out_d:
	gd_dwords_release(&d);
out:
	strbuf_release(&in);
	strbuf_release(&err);
	return ret ? GD_EXIT_FAIL : GD_EXIT_OK;
}

const struct gd_cmd gd_cmd_decode = {
	.name = "decode",
	.args = "[OPTIONS] [FILE|-]",
	.summary = "decode a batch or ring: raw dwords or '%08x : %08x' text",
	.options =
	"      --devid ID       PCI id of the decoder's GPU (default 0x2772, 945G)\n"
	"      --base ADDR      GTT address of the first dword (default: the\n"
	"                       input's '--- gtt_offset = ' header, else 0)\n"
	"      --head ADDR      the address to tag HEAD (default: the base)\n"
	"      --summary        count each command, list the addresses they carry\n"
	"      --json           one JSON record per command\n"
	"      --past-end       go on after MI_BATCH_BUFFER_END (always for binary\n"
	"                       input, as intel_dump_decode does)\n"
	"  -i, --capture FILE   resolve addresses to the objects of this capture\n"
	"      --live           resolve addresses against the running driver\n",
	.complete = "--devid --base --head --summary --json --past-end --capture --live",
	.run = run,
};

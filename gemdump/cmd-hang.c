/*
 * gemdump hang: the one-page post-mortem of a GPU hang, from the live
 * i915_error_state, a saved error-state text or a capture.  Every input
 * becomes a capture first (capture-errstate.c), so one renderer serves
 * all three.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "3d.h"
#include "batch.h"
#include "capture.h"
#include "gemdebugfs.h"
#include "gemdump.h"
#include "json-out.h"
#include "ps.h"
#include "regs.h"
#include "util.h"

#define DEFAULT_WINDOW 5	/* instructions shown each side of ACTHD */

struct hang_opts {
	bool all, json;
	unsigned int window;
	/* live: the hangs recorded after the one shown (gemkit_errors/) */
	unsigned int later;
	unsigned long long newest;
};

static const char *bold(const struct gd_ctx *ctx)
{
	return ctx->use_color ? "\033[1m" : "";
}

static const char *red(const struct gd_ctx *ctx)
{
	return ctx->use_color ? "\033[1;31m" : "";
}

static const char *reset(const struct gd_ctx *ctx)
{
	return ctx->use_color ? "\033[0m" : "";
}

static void print_bits(uint32_t v, const uint32_t *bits, const char *const *names, size_t n)
{
	uint32_t left = v;
	size_t i;
	bool first = true;

	for (i = 0; i < n; i++) {
		if (v & bits[i]) {
			printf("%s%s", first ? " (" : ", ", names[i]);
			first = false;
			left &= ~bits[i];
		}
	}
	if (left)
		printf("%sother bits 0x%08x", first ? " (" : ", ", left);
	printf("%s\n", v ? ")" : "");
}

static void print_eir(uint32_t eir)
{
	static const uint32_t bits[] = { 1u << 0, 1u << 1, 1u << 4 };
	static const char *const names[] = {
		"instruction error", "memory refresh error", "page table error",
	};

	printf("  EIR       0x%08x", eir);
	if (!eir)
		printf(" (no error)");
	print_bits(eir, bits, names, ARRAY_SIZE(bits));
}

static void print_pgtbl(uint32_t v)
{
	static const uint32_t bits[] = { 1u << 2, 1u << 4, 1u << 20 };
	static const char *const names[] = {
		"blitter: invalid PTE", "render: invalid page table entry",
		"CS instruction: invalid GTT PTE",
	};

	printf("  PGTBL_ER  0x%08x", v);
	if (!v)
		printf(" (no fault)");
	print_bits(v, bits, names, ARRAY_SIZE(bits));
}

static void print_instdone(uint32_t v)
{
	uint32_t busy = ~v & 0x7fffffc0u;
	int b;

	printf("  INSTDONE  0x%08x", v);
	if (!busy) {
		printf(" (idle)\n");
		return;
	}
	printf(" (busy:");
	for (b = 6; b < 31; b++) {
		if (!(busy & (1u << b)))
			continue;
		if (b == 26)
			printf(" instruction parser");
		else
			printf(" unit%d", b);
	}
	printf(")\n");
}

static void print_ipehr(uint32_t v)
{
	struct gd_cmdinfo ci;

	gd_command_info(&v, 1, &ci);
	printf("  IPEHR     0x%08x (%s%s)\n", v, ci.name,
	       ci.known ? "" : ": not a gen3 command");
}

/* Object holding addr, or NULL; *border the one it lies just past. */
static const struct gd_rec_object *locate(const struct gd_capture *c, uint64_t addr,
					  const struct gd_rec_object **border)
{
	const struct gd_rec_object *best = NULL;
	size_t i;

	*border = NULL;
	/* The error state's copy of a batch or ring first: a live capture
	 * may also hold whatever is at that address now. */
	for (i = 0; i < c->nobjects; i++) {
		const struct gd_rec_object *o = &c->objects[i];

		if ((o->flags & GD_OBJ_BOUND) && (o->flags & (GD_OBJ_BATCH | GD_OBJ_RING)) &&
		    addr >= o->gtt_offset && addr - o->gtt_offset < o->size)
			return o;
	}
	for (i = 0; i < c->nobjects; i++) {
		const struct gd_rec_object *o = &c->objects[i];

		if (!(o->flags & GD_OBJ_BOUND))
			continue;
		if (addr >= o->gtt_offset && addr - o->gtt_offset < o->size)
			return o;
		if (o->gtt_offset + o->size <= addr &&
		    (!best || o->gtt_offset > best->gtt_offset))
			best = o;
	}
	*border = best;
	return NULL;
}

static void print_where(const char *what, uint64_t addr, const struct gd_capture *c)
{
	const struct gd_rec_object *b, *o = locate(c, addr, &b);

	printf("  %-9s 0x%08" PRIx64, what, addr);
	if (o)
		printf(" == %s%sobj %u [0x%08" PRIx64 ", 0x%08" PRIx64 ") + 0x%" PRIx64 "\n",
		       o->flags & GD_OBJ_RING ? "ring" : o->flags & GD_OBJ_BATCH ? "batch" : "",
		       o->flags & (GD_OBJ_RING | GD_OBJ_BATCH) ? " " : "",
		       o->id, o->gtt_offset, o->gtt_offset + o->size, addr - o->gtt_offset);
	else if (c->device.aperture && addr >= c->device.aperture)
		printf(": outside the aperture [0, 0x%08" PRIx64 "), in no object\n",
		       c->device.aperture);
	else if (b)
		printf(" >= obj %u [0x%08" PRIx64 ", 0x%08" PRIx64 "): 0x%" PRIx64
		       " bytes past its end, in no object\n", b->id, b->gtt_offset, b->gtt_offset + b->size,
		       addr - b->gtt_offset - b->size);
	else
		printf(": in no object\n");
}

/* A page-table error: PGTBL_ER, or EIR's page table bit. */
static bool has_fault(const struct gd_rec_ring *r)
{
	return (r->flags & GD_RING_HAS_ERROR_REGS) && (r->pgtbl_er || (r->eir & (1u << 4)));
}

/* The faulting address is FADDR's (gemd and 3.10+ print it); an older
 * error state has only ACTHD, the command that faulted. */
static uint64_t fault_addr(const struct gd_rec_ring *r)
{
	return r->flags & GD_RING_HAS_FADDR ? r->err_faddr : r->acthd;
}

static void print_fences(const struct gd_capture *c)
{
	size_t i, shown = 0;

	for (i = 0; i < c->nfences; i++) {
		uint64_t f = c->fences[i].value;
		const struct gd_rec_object *b, *o;
		uint64_t start = f & 0x0ff00000, size = 1ull << (20 + ((f >> 8) & 0xf));

		if (!(f & 1))
			continue;
		o = locate(c, start, &b);
		printf("  fence %-2u  0x%08" PRIx64 ": %c-tiled, pitch %u, start 0x%08" PRIx64
		       ", size %" PRIu64 " KiB", c->fences[i].index, f, f & (1u << 12) ? 'Y' : 'X',
		       512u << ((f >> 4) & 0xf), start, size >> 10);
		if (o)
			printf(", obj %u", o->id);
		printf("\n");
		shown++;
	}
	if (!shown)
		printf("  fences    none in use\n");
}

/*
 * Every fence register as intel_error_decode (IGT 1.27) decodes a gen3
 * one, line for line, so the two tools can be compared: valid or not,
 * the tiling, the pitch (512 bytes << bits 7:4), the start (bits 27:20)
 * and the size (1 MiB << bits 11:8).
 */
static void print_fence_regs(const struct gd_capture *c)
{
	size_t i;

	if (!c->nfences)
		return;
	printf("\nfence registers (as intel_error_decode)\n");
	for (i = 0; i < c->nfences; i++) {
		uint64_t f = c->fences[i].value;

		printf("  fence[%u] = %08" PRIx64 "\n", c->fences[i].index, f);
		printf("    %svalid, %c-tiled, pitch: %u, start: 0x%08" PRIx64 ", size: %" PRIu64 "\n",
		       f & 1 ? "" : "in", f & (1u << 12) ? 'y' : 'x',
		       512u << ((f >> 4) & 0xf), f & 0x0ff00000,
		       (uint64_t)1 << (20 + ((f >> 8) & 0xf)));
	}
}

/* The dwords of a captured object, or NULL. */
static uint32_t *object_dwords(const struct gd_capture *c, const struct gd_rec_object *o,
			       size_t *n)
{
	const uint8_t *p = gd_capture_data(c, o);
	uint32_t *v;
	size_t i;

	if (!p)
		return NULL;
	*n = o->size / 4;
	v = malloc(*n * sizeof(*v) + 4);
	if (!v)
		return NULL;
	for (i = 0; i < *n; i++)
		v[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
		       (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
	return v;
}

/*
 * A pixel shader program that stopped the parser: the instruction the
 * model refused (lib/gen3/ps.c, the same decoder gemd runs) and why, so
 * the decode can mark its "PSnnn:" line.  Zeroed when ACTHD is not on a
 * program or the program decodes.
 */
struct ps_fault {
	char tag[16];		/* "PS003: ", on the instruction's first line */
	const char *why;
};

static void find_ps_fault(const uint32_t *dw, size_t n, const struct gd_rec_ring *r,
			  struct ps_fault *pf)
{
	struct gen3_ps_program *prog;
	struct gen3_ps_error err;
	uint32_t len;

	memset(pf, 0, sizeof(*pf));
	if (!n || !(r->eir & I915_ERROR_INSTRUCTION) || dw[0] >> 29 != 3 ||
	    OPC_3D(dw[0]) != OP3D_1D || OPC_3D_1D(dw[0]) != OP1D_PIXEL_SHADER_PROGRAM)
		return;
	len = (dw[0] & 0xff) + 2;
	if (len > n || (len - 1) % 3)
		return;
	prog = malloc(sizeof(*prog));
	if (!prog)
		return;
	if (gen3_ps_decode(dw + 1, (len - 1) / 3, prog, &err) && err.insn >= 0) {
		snprintf(pf->tag, sizeof(pf->tag), "PS%03d: ", err.insn);
		pf->why = err.why;
	}
	free(prog);
}

/* Decode dw[from, to) at base, marking the line of the instruction at mark
 * (and a refused shader instruction, when pf names one). */
static void decode_marked(const struct gd_ctx *ctx, const uint32_t *dw, size_t from,
			  size_t to, uint64_t base, uint64_t mark,
			  const struct ps_fault *pf)
{
	char *text = NULL, *p, *eol;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	char tag[24];

	if (!f)
		return;
	if (gd_decode_text(f, dw + from, to - from, (uint32_t)(base + 4 * from),
			   (uint32_t)mark, 0x2772, true)) {
		fclose(f);
		free(text);
		printf("  (no decoder: built without libdrm_intel)\n");
		return;
	}
	fclose(f);
	snprintf(tag, sizeof(tag), "0x%08x: HEAD", (uint32_t)mark);
	for (p = text; p && *p; p = eol ? eol + 1 : NULL) {
		bool hit = !strncmp(p, tag, strlen(tag));

		eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		if (hit)
			printf("%s> %s  <- ACTHD%s\n", red(ctx), p, reset(ctx));
		else if (pf->why && strstr(p, pf->tag))
			printf("%s> %s  <- refused: %s%s\n", red(ctx), p, pf->why,
			       reset(ctx));
		else
			printf("  %s\n", p);
	}
	free(text);
}

/* The instructions around ACTHD in the object holding it. */
static void print_window(const struct gd_ctx *ctx, const struct gd_capture *c,
			 const struct gd_rec_object *o, const struct gd_rec_ring *r,
			 const struct hang_opts *ho)
{
	uint64_t acthd = r->acthd;
	uint64_t limit = MAX(r->head & 0x1ffffc, r->tail & 0x1ffffc);
	size_t n, i = 0, k = 0, nstarts = 0, at = SIZE_MAX, from, to;
	uint32_t *dw = object_dwords(c, o, &n);
	size_t *starts;
	struct gd_cmdinfo ci;
	struct ps_fault pf;

	if (!dw) {
		printf("  (obj %u was captured without its contents)\n", o->id);
		return;
	}
	starts = malloc((n + 1) * sizeof(*starts));
	if (!starts) {
		free(dw);
		return;
	}
	/* Instruction boundaries from the start of the object. */
	while (i < n) {
		starts[nstarts++] = i;
		if (o->gtt_offset + 4 * i <= acthd)
			at = nstarts - 1;
		gd_command_info(&dw[i], n - i, &ci);
		i += MIN((size_t)ci.len, n - i);
		if (at != SIZE_MAX && nstarts > at + ho->window && !ho->all)
			break;
		/* A batch ends at its MI_BATCH_BUFFER_END once past ACTHD; a
		 * ring holds nothing beyond its tail. */
		if (ci.end && at != SIZE_MAX && !(o->flags & GD_OBJ_RING))
			break;
		if ((o->flags & GD_OBJ_RING) && at != SIZE_MAX && 4 * i >= limit)
			break;
	}
	starts[nstarts] = i;
	if (ho->all || at == SIZE_MAX) {
		from = 0;
		to = i;
	} else {
		k = at > ho->window ? at - ho->window : 0;
		from = starts[k];
		to = starts[MIN(at + ho->window + 1, nstarts)];
	}
	find_ps_fault(at == SIZE_MAX ? dw : dw + starts[at],
		      at == SIZE_MAX ? 0 : n - starts[at], r, &pf);
	decode_marked(ctx, dw, from, to, o->gtt_offset, acthd, &pf);
	free(starts);
	free(dw);
}

static void report(const struct gd_ctx *ctx, const struct gd_capture *c,
		   const struct hang_opts *ho)
{
	const struct gd_rec_ring *r = c->nrings ? &c->rings[0] : NULL;
	const struct gd_rec_object *in, *b, *batch = NULL;
	struct gd_rec_ring err_ring;
	size_t i;

	if (ho->json && !r) {
		gd_json_hang(c, NULL, NULL, false, 0, NULL);
		return;
	}
	if (!ho->json) {
		printf("%sGPU hang%s%s%s\n", bold(ctx), c->header.hang_kind[0] ? ": " : "",
		       c->header.hang_kind, reset(ctx));
		char etime[192];

		gd_fmt_error_time(ctx, c->header.error_time, etime, sizeof(etime));
		printf("  source    %s%s%s\n", c->header.source,
		       c->header.error_time[0] ? ", " : "", etime);
	}
	if (ho->later && !ho->json)
		printf("  later     %u more hang%s recorded, the newest %llu "
		       "(gemkit_errors/%llu; gemdump capture holds it)\n", ho->later,
		       ho->later == 1 ? "" : "s", ho->newest, ho->newest);
	if (!r) {
		printf("  (no ring in this capture)\n");
		return;
	}
	/* A live capture holds the ring as it is now and as it was at the error. */
	if (r->flags & GD_RING_HAS_ERROR_REGS) {
		err_ring = *r;
		err_ring.head = r->err_head;
		err_ring.tail = r->err_tail;
		err_ring.acthd = r->err_acthd;
		err_ring.completed_seqno = r->err_seqno;
		if (c->header.guilty_seqno && c->header.guilty_seqno > err_ring.emitted_seqno)
			err_ring.emitted_seqno = c->header.guilty_seqno;
		r = &err_ring;
	}
	in = locate(c, r->acthd, &b);
	if (ho->json) {
		const struct gd_rec_object *fault_in = NULL;

		if (has_fault(r))
			fault_in = locate(c, fault_addr(r), &b);
		gd_json_hang(c, r, in, has_fault(r), fault_addr(r), fault_in);
		return;
	}
	for (i = 0; i < c->nobjects; i++)
		if (c->objects[i].flags & GD_OBJ_BATCH)
			batch = &c->objects[i];
	if (in && !(in->flags & GD_OBJ_RING))
		batch = in;
	printf("  guilty    ");
	if (c->header.guilty_pid || c->header.guilty_comm[0])
		printf("pid %d (%s), file %u, seqno %u", c->header.guilty_pid,
		       c->header.guilty_comm, c->header.guilty_file, c->header.guilty_seqno);
	else
		printf("unknown client (the error state does not say)");
	if (batch)
		printf("; batch obj %u at 0x%08" PRIx64, batch->id, batch->gtt_offset);
	printf("\n");
	if (r->emitted_seqno >= r->completed_seqno)
		printf("  seqno     emitted %u, completed %u: %u behind", r->emitted_seqno,
		       r->completed_seqno, r->emitted_seqno - r->completed_seqno);
	else
		printf("  seqno     emitted unknown, completed %u", r->completed_seqno);
	if (c->header.detect_ns)
		printf("; detected %" PRIu64 " ms after submission",
		       c->header.detect_ns / 1000000);
	for (i = c->nevents; i-- > 0;) {
		if (c->events[i].type == GDFS_EV_RETIRE) {
			printf("; last retire %" PRIu64 " ms before the last event",
			       (c->events[c->nevents - 1].ts_ns - c->events[i].ts_ns) / 1000000);
			break;
		}
	}
	printf("\n");
	printf("  ring %-4s HEAD 0x%08x TAIL 0x%08x ACTHD 0x%08x\n", r->name, r->head, r->tail,
	       r->acthd);
	/* HEAD's bits 31:21 count the times the ring wrapped (as
	 * intel_error_decode says it). */
	printf("  HEAD      head = 0x%08x, wraps = %u\n", r->head & 0x001ffffc,
	       r->head >> 21);
	print_where("ACTHD", r->acthd, c);
	if (r->flags & GD_RING_HAS_ERROR_REGS) {
		print_eir(r->eir);
		print_ipehr(r->ipehr);
		print_instdone(r->instdone);
		print_pgtbl(r->pgtbl_er);
		if (has_fault(r))
			print_where("fault", fault_addr(r), c);
	}
	print_fences(c);
	print_fence_regs(c);
	printf("\n%s%s around ACTHD%s\n", bold(ctx),
	       in ? (in->flags & GD_OBJ_RING ? "ring" : "batch") : "nothing", reset(ctx));
	if (in)
		print_window(ctx, c, in, r, ho);
	else
		printf("  (ACTHD is in no captured object)\n");
	if (ho->all) {
		for (i = 0; i < c->nobjects; i++) {
			const struct gd_rec_object *o = &c->objects[i];

			if (o == in || !(o->flags & (GD_OBJ_RING | GD_OBJ_BATCH)))
				continue;
			printf("\n%s%s obj %u at 0x%08" PRIx64 "%s\n", bold(ctx),
			       o->flags & GD_OBJ_RING ? "ring" : "batch", o->id, o->gtt_offset,
			       reset(ctx));
			print_window(ctx, c, o, r, ho);
		}
	}
}

/* The records of hangs after the one in text (its "gemd hang number"). */
static void count_later(struct gdfs *src, const struct strbuf *text,
			struct hang_opts *ho)
{
	static const char key[] = "\ngemd hang number: ";
	struct strbuf names = STRBUF_INIT;
	unsigned long long first = 0, n;
	const char *p = strstr(text->buf ? text->buf : "", key);
	char *end;

	if (p)
		first = strtoull(p + strlen(key), NULL, 10);
	if (!first || gdfs_list(src, &names))
		goto out;
	for (p = names.buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, "gemkit_errors/", 14))
			continue;
		n = strtoull(p + 14, &end, 10);
		if (*end != '\n' || n <= first)
			continue;
		ho->later++;
		if (n > ho->newest)
			ho->newest = n;
	}
out:
	strbuf_release(&names);
}

/* A capture, or an error state, that holds no hang says so: status 1. */
static bool has_hang(const struct gd_capture *c)
{
	return c->header.hang_kind[0] ||
	       (c->nrings && (c->rings[0].flags & GD_RING_HAS_ERROR_REGS));
}

static int load(const struct gd_ctx *ctx, const char *file, struct gd_capture *c,
		struct hang_opts *ho)
{
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT, live = STRBUF_INIT;
	const char *what = file;
	struct gdfs *src = NULL;
	int ret;

	if (!file) {
		ret = gd_open_live(ctx, &src);
		if (ret)
			return ret;
		ret = gdfs_read(src, "i915_error_state", &in);
		/* Which gemd's error state: its source line says so. */
		strbuf_addf(&live, "i915_error_state of %s", gdfs_origin(src));
		what = live.buf;
		if (ret) {
			gd_error(ctx, "reading %s/i915_error_state: %s", gdfs_describe(src),
				 gdfs_strerror(ret));
			goto out;
		}
		count_later(src, &in, ho);
	} else {
		ret = gd_read_file(file, GD_MAX_INPUT * 4, &in);
		if (ret) {
			gd_error(ctx, "cannot read '%s': %s", file, strerror(-ret));
			goto out;
		}
		if (!strcmp(file, "-"))
			what = "stdin";
	}
	if (in.len >= 4 && !memcmp(in.buf, "\177ELF", 4)) {
		size_t len;
		void *buf = strbuf_detach(&in, &len);

		ret = buf ? gd_capture_parse(buf, len, c, &err) : -ENOMEM;
	} else {
		ret = gd_capture_from_error_state(in.buf, in.len, what, c, &err);
	}
	/* Live, the aperture is known: a fault outside it is said so. */
	if (!ret && src)
		gd_capture_add_live_device(src, c, &err);
	if (!ret && !has_hang(c)) {
		gd_capture_release(c);
		ret = -ENOENT;
	}
	if (ret == -ENOENT)
		gd_error(ctx, "%s: no GPU hang recorded", what);
	else if (ret)
		gd_error(ctx, "%s: %s", what, err.len ? err.buf : strerror(-ret));
out:
	if (src)
		gdfs_close(src);
	strbuf_release(&in);
	strbuf_release(&err);
	strbuf_release(&live);
	return ret;
}

static int run(struct gd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "window", required_argument, NULL, 'w' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct hang_opts ho = { .window = DEFAULT_WINDOW };
	struct gd_capture c;
	uint64_t v;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "a", opts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			ho.all = true;
			break;
		case 'j':
			ho.json = true;
			break;
		case 'w':
			if (parse_u64(optarg, &v) || v > 100000)
				return gd_usage_error(ctx, "invalid --window '%s'", optarg);
			ho.window = (unsigned int)v;
			break;
		default:
			return gd_option_error(ctx, opts, "a", argc, argv);
		}
	}
	if (argc - optind > 1)
		return gd_usage_error(ctx, "one input at most");
	ret = load(ctx, optind < argc ? argv[optind] : NULL, &c, &ho);
	if (ret)
		return GD_EXIT_FAIL;
	if (!ho.json)
		gd_output_begin(ctx);
	report(ctx, &c, &ho);
	gd_capture_release(&c);
	return GD_EXIT_OK;
}

const struct gd_cmd gd_cmd_hang = {
	.name = "hang",
	.args = "[--all] [--window N] [--json] [FILE|-]",
	.summary = "the post-mortem of a GPU hang: live, from an error state or a capture",
	.options =
	"  -a, --all            decode the whole batch and ring, not a window\n"
	"      --window N       instructions shown each side of ACTHD (default 5)\n"
	"      --json           one JSON document: the registers, the guilty client,\n"
	"                       where ACTHD is, every fence register (raw numbers)\n"
	"\n"
	"With no FILE, the live driver's i915_error_state.  FILE is an error-state\n"
	"text (Linux 2.6.34 to 3.4 layouts, gemd's, the later ascii85 ':' and '~'\n"
	"buffers) or a capture.  Pages through 'less -FRSi' on a terminal\n"
	"(--no-pager), in colour when --color allows.\n",
	.complete = "--all --window --json",
	.run = run,
};

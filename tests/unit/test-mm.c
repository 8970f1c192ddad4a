/*
 * Unit tests of the range allocator, in the spirit of the kernel's
 * drm_mm_test.c: invariant checkers after every step, exact -ENOSPC at the
 * boundaries, every insert mode, and seeded random runs whose placements
 * are predicted exactly by a byte-map reference model.
 */
#include <stdlib.h>
#include <time.h>

#include "gemtest.h"
#include "mm.h"
#include "strbuf.h"
#include "util.h"

#define PAGE 4096ULL

static const enum mm_insert_mode modes[] = {
	MM_INSERT_BEST, MM_INSERT_LOW, MM_INSERT_HIGH,
};
static const char *const mode_names[] = { "best", "low", "high" };
/* The random tests' seed: fixed, so a failure reproduces; GEMTEST_SEED varies it. */
static uint32_t seed;

static uint32_t seed_from_env(void)
{
	const char *s = getenv("GEMTEST_SEED");
	uint32_t v = s ? (uint32_t)strtoul(s, NULL, 0) : 0x6d6d5eedu;

	gemtest_diag("seed 0x%08x (set GEMTEST_SEED to change)", v);
	return v;
}

static uint64_t rnd(uint32_t *state, uint64_t n)
{
	uint64_t r = ((uint64_t)gt_rand(state) << 32) | gt_rand(state);

	return n ? r % n : 0;
}

static void shuffle(unsigned int *order, unsigned int n, uint32_t *state)
{
	unsigned int i, j, t;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = (unsigned int)rnd(state, i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

/* --- invariant checkers ------------------------------------------------ */

struct hole_list {
	uint64_t start[64], size[64];
	unsigned int count, seen;
	uint64_t total, largest;
	bool overflow;
};

static int collect_hole(uint64_t start, uint64_t size, void *data)
{
	struct hole_list *h = data;

	if (h->count < ARRAY_SIZE(h->start)) {
		h->start[h->count] = start;
		h->size[h->count] = size;
	} else {
		h->overflow = true;
	}
	h->count++;
	h->total += size;
	if (size > h->largest)
		h->largest = size;
	return 0;
}

struct hole_cmp {
	uint64_t expect_start, end;	/* the gap walk, to compare against */
	struct mm *mm;
	struct mm_node *next;
	unsigned int holes;
	bool bad;
	uint64_t total, largest;
};

/* Each hole reported must be exactly the next gap between nodes. */
static int compare_hole(uint64_t start, uint64_t size, void *data)
{
	struct hole_cmp *c = data;

	for (;;) {
		uint64_t gap_end = c->next ? c->next->start : c->end;

		if (gap_end > c->expect_start)
			break;
		if (!c->next) {
			c->bad = true;		/* a hole past the end */
			return 1;
		}
		c->expect_start = c->next->start + c->next->size;
		c->next = mm_next_node(c->mm, c->next);
	}
	if (start != c->expect_start ||
	    start + size != (c->next ? c->next->start : c->end)) {
		c->bad = true;
		return 1;
	}
	c->holes++;
	c->total += size;
	if (size > c->largest)
		c->largest = size;
	c->expect_start = start + size;
	return 0;
}

/*
 * Nodes in address order without overlap and inside the range; the holes
 * are exactly the gaps; free + used == size; largest hole agrees.
 */
static void check_mm(struct mm *mm)
{
	struct hole_cmp c = { .expect_start = mm->start, .mm = mm,
			      .end = mm->start + mm->size };
	uint64_t used = 0, prev_end = mm->start, largest = 0, gap;
	unsigned int count = 0, gaps = 0;
	struct mm_node *node;

	for (node = mm_first_node(mm); node; node = mm_next_node(mm, node)) {
		gt_assert(mm_node_allocated(node));
		gt_assert(node->size > 0);
		gt_assert_f(node->start >= prev_end, "node 0x%" PRIx64 "+0x%"
			    PRIx64 " overlaps or is out of order (prev end 0x%"
			    PRIx64 ")", node->start, node->size, prev_end);
		gt_assert(node->start + node->size <= mm->start + mm->size);
		gap = node->start - prev_end;
		if (gap) {
			gaps++;
			largest = MAX(largest, gap);
		}
		used += node->size;
		prev_end = node->start + node->size;
		count++;
	}
	gap = mm->start + mm->size - prev_end;
	if (gap) {
		gaps++;
		largest = MAX(largest, gap);
	}
	gt_assert_eq_u64(used + mm_free_bytes(mm), mm->size);
	gt_assert_eq(mm_clean(mm), count == 0);

	c.next = mm_first_node(mm);
	gt_assert_eq(mm_for_each_hole(mm, compare_hole, &c), 0);
	gt_assert_f(!c.bad, "hole list disagrees with the node list");
	gt_assert_eq(c.holes, gaps);
	gt_assert_eq_u64(c.total, mm_free_bytes(mm));
	gt_assert_eq_u64(mm_largest_hole(mm), largest);
}

static void assert_no_holes(struct mm *mm)
{
	check_mm(mm);
	gt_assert_eq_u64(mm_free_bytes(mm), 0);
	gt_assert_eq_u64(mm_largest_hole(mm), 0);
}

static void assert_one_hole(struct mm *mm, uint64_t start, uint64_t end)
{
	struct hole_list h = { 0 };

	check_mm(mm);
	mm_for_each_hole(mm, collect_hole, &h);
	gt_assert_eq(h.count, 1);
	gt_assert_eq_u64(h.start[0], start);
	gt_assert_eq_u64(h.size[0], end - start);
}

static void expect_insert(struct mm *mm, struct mm_node *node, uint64_t size,
			  uint64_t align, uint64_t rs, uint64_t re,
			  enum mm_insert_mode mode)
{
	int ret = mm_insert_node_in_range(mm, node, size, align, rs, re, mode);

	gt_assert_f(ret == 0, "insert size 0x%" PRIx64 " align 0x%" PRIx64
		    " mode %s: %s", size, align, mode_names[mode], strerror(-ret));
	gt_assert(mm_node_allocated(node));
	gt_assert_eq_u64(node->size, size);
	if (align > 1)
		gt_assert_f(node->start % align == 0, "0x%" PRIx64 " not aligned to 0x%" PRIx64,
			    node->start, align);
	gt_assert(node->start >= MAX(rs, mm->start));
	gt_assert(node->start + size <= MIN(re, mm->start + mm->size));
}

static void expect_insert_fail(struct mm *mm, uint64_t size, uint64_t align,
			       uint64_t rs, uint64_t re,
			       enum mm_insert_mode mode, int err)
{
	struct mm_node tmp = { 0 };
	int ret = mm_insert_node_in_range(mm, &tmp, size, align, rs, re, mode);

	if (ret == 0)
		mm_remove_node(&tmp);
	gt_assert_f(ret == err, "insert size 0x%" PRIx64 " align 0x%" PRIx64
		    " [0x%" PRIx64 ", 0x%" PRIx64 ") mode %s: got %d, expected %d",
		    size, align, rs, re, mode_names[mode], ret, err);
	gt_assert(!mm_node_allocated(&tmp));
}

static void remove_all(struct mm_node *nodes, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (mm_node_allocated(&nodes[i]))
			mm_remove_node(&nodes[i]);
}

/* Stops a hole walk at the second hole, with a value to pass back. */
static int stop_second(uint64_t start, uint64_t size, void *data)
{
	unsigned int *calls = data;

	return ++*calls == 2 ? 7 : 0;
}

/* --- the reference model ----------------------------------------------- */

/*
 * A byte map of a small space, independent of the allocator, that
 * predicts where each insert must land: the holes are the maximal free
 * runs, and each mode's choice among them is spelled out directly.
 */
#define REF_SIZE 8192
#define REF_START 1000		/* not aligned to anything: alignment is absolute */

struct ref {
	bool used[REF_SIZE];
};

static bool ref_fit(uint64_t a, uint64_t b, uint64_t size, uint64_t align,
		    uint64_t rs, uint64_t re, bool top, uint64_t *x)
{
	uint64_t lo = MAX(a, rs), hi = MIN(b, re), c;

	if (hi <= lo || hi - lo < size)
		return false;
	if (top) {
		c = (hi - size) / align * align;
		if (c < lo)
			return false;
	} else {
		c = (lo + align - 1) / align * align;
		if (c + size > hi)
			return false;
	}
	*x = c;
	return true;
}

static bool ref_predict(const struct ref *r, uint64_t size, uint64_t align,
			uint64_t rs, uint64_t re, enum mm_insert_mode mode,
			uint64_t *start)
{
	uint64_t a, b, x, best_size = UINT64_MAX;
	bool found = false;
	unsigned int i = 0;

	align = align ? align : 1;
	while (i < REF_SIZE) {
		if (r->used[i]) {
			i++;
			continue;
		}
		a = i;
		while (i < REF_SIZE && !r->used[i])
			i++;
		b = i;
		if (!ref_fit(a + REF_START, b + REF_START, size, align, rs, re,
			     mode == MM_INSERT_HIGH, &x))
			continue;
		if (mode == MM_INSERT_LOW) {
			*start = x;
			return true;
		}
		if (mode == MM_INSERT_HIGH) {
			*start = x;
			found = true;		/* keep going: the last one wins */
		} else if (b - a < best_size) {
			best_size = b - a;
			*start = x;
			found = true;
		}
	}
	return found;
}

static void ref_mark(struct ref *r, const struct mm_node *node, bool used)
{
	uint64_t i;

	for (i = node->start; i < node->start + node->size; i++) {
		gt_assert(r->used[i - REF_START] != used);
		r->used[i - REF_START] = used;
	}
}

static bool ref_range_free(const struct ref *r, uint64_t start, uint64_t size)
{
	uint64_t i;

	if (start < REF_START || start + size > REF_START + REF_SIZE)
		return false;
	for (i = start; i < start + size; i++)
		if (r->used[i - REF_START])
			return false;
	return true;
}

static const uint64_t ref_aligns[] = { 0, 1, 2, 3, 4, 7, 8, 16, 64, 100, 512, 4096 };

static void random_insert(struct mm *mm, struct ref *r, struct mm_node *node,
			  uint32_t *st)
{
	uint64_t size = 1 + rnd(st, rnd(st, 4) ? 64 : 1024);
	uint64_t align = ref_aligns[rnd(st, ARRAY_SIZE(ref_aligns))];
	enum mm_insert_mode mode = modes[rnd(st, 3)];
	uint64_t rs = 0, re = UINT64_MAX, expect = 0;
	bool fits;
	int ret;

	switch (rnd(st, 4)) {
	case 0:		/* exactly the managed range */
		rs = REF_START;
		re = REF_START + REF_SIZE;
		break;
	case 1:		/* a random sub-range, sometimes sticking out */
		rs = REF_START - 100 + rnd(st, REF_SIZE + 200);
		re = rs + rnd(st, REF_SIZE);
		break;
	default:	/* unrestricted */
		break;
	}
	fits = ref_predict(r, size, align, rs, re, mode, &expect);
	ret = mm_insert_node_in_range(mm, node, size, align, rs, re, mode);
	if (!fits) {
		gt_assert_f(ret == -ENOSPC, "size %" PRIu64 " align %" PRIu64
			    " [%" PRIu64 ", %" PRIu64 ") %s: expected -ENOSPC, got %d at %" PRIu64,
			    size, align, rs, re, mode_names[mode], ret, node->start);
		return;
	}
	gt_assert_f(ret == 0 && node->start == expect,
		    "size %" PRIu64 " align %" PRIu64 " [%" PRIu64 ", %" PRIu64
		    ") %s: got %d at %" PRIu64 ", expected %" PRIu64,
		    size, align, rs, re, mode_names[mode], ret, node->start, expect);
	ref_mark(r, node, true);
}

static void random_reserve(struct mm *mm, struct ref *r, struct mm_node *node,
			   uint32_t *st)
{
	bool ok;
	int ret;

	node->start = REF_START - 50 + rnd(st, REF_SIZE + 100);
	node->size = 1 + rnd(st, 200);
	ok = ref_range_free(r, node->start, node->size);
	ret = mm_reserve_node(mm, node);
	gt_assert_f(ret == (ok ? 0 : -ENOSPC), "reserve %" PRIu64 "+%" PRIu64
		    ": got %d, expected %d", node->start, node->size, ret,
		    ok ? 0 : -ENOSPC);
	if (ok)
		ref_mark(r, node, true);
}

/* --- scan helpers ------------------------------------------------------ */

/* Fill every free byte of mm with page-multiple nodes; returns nodes used. */
static unsigned int fill_pages(struct mm *mm, struct mm_node *nodes,
			       unsigned int n, uint32_t *st)
{
	unsigned int i, used = 0;

	for (i = 0; i < n; i++) {
		if (mm_node_allocated(&nodes[i]))
			continue;
		if (mm_insert_node_in_range(mm, &nodes[i], (1 + rnd(st, 8)) * PAGE,
					    0, 0, UINT64_MAX, MM_INSERT_LOW) &&
		    mm_insert_node_in_range(mm, &nodes[i], PAGE, 0, 0,
					    UINT64_MAX, MM_INSERT_LOW))
			break;
		used++;
	}
	return used;
}

static unsigned int count_allocated(const struct mm_node *nodes, unsigned int n)
{
	unsigned int i, c = 0;

	for (i = 0; i < n; i++)
		c += mm_node_allocated(&nodes[i]);
	return c;
}

/*
 * One eviction round as evict.c does it: scan the allocated nodes in LRU
 * order, unwind in reverse, evict exactly the victims, then insert.  The
 * space is full or nearly so; the insert must fail before and succeed after.
 */
static void scan_round(struct mm *mm, struct mm_node *nodes, unsigned int n,
		       uint64_t size, uint64_t align, bool full, uint32_t *st)
{
	unsigned int *order = calloc(n, sizeof(*order));
	unsigned int *added = calloc(n, sizeof(*added));
	uint64_t *starts = calloc(n, sizeof(*starts));
	bool *victim = calloc(n, sizeof(*victim));
	uint64_t vmin = UINT64_MAX, vmax = 0;
	struct mm_node fresh = { 0 }, *node;
	unsigned int i, nadded = 0, nvictims = 0;
	bool found = false;

	gt_assert(order && added && starts && victim);
	for (i = 0; i < n; i++)
		starts[i] = nodes[i].start;
	shuffle(order, n, st);

	mm_scan_init(mm, size, align);
	for (i = 0; i < n && !found; i++) {
		if (!mm_node_allocated(&nodes[order[i]]))
			continue;
		added[nadded++] = order[i];
		found = mm_scan_add_node(mm, &nodes[order[i]]);
	}
	/* While nodes are out of the list, the allocator refuses changes. */
	if (nadded)
		expect_insert_fail(mm, PAGE, 0, 0, UINT64_MAX, MM_INSERT_LOW, -EBUSY);
	while (nadded) {
		unsigned int k = added[--nadded];

		if (mm_scan_remove_node(mm, &nodes[k])) {
			victim[k] = true;
			nvictims++;
		}
	}
	/* The scan left the allocator exactly as it found it. */
	check_mm(mm);
	for (i = 0; i < n; i++)
		if (mm_node_allocated(&nodes[i]))
			gt_assert_eq_u64(nodes[i].start, starts[i]);
	gt_assert_f(found, "scan for 0x%" PRIx64 " found nothing", size);
	gt_assert(nvictims > 0 || mm_largest_hole(mm) >= size);

	for (i = 0; i < n; i++) {
		if (!victim[i])
			continue;
		vmin = MIN(vmin, nodes[i].start);
		vmax = MAX(vmax, nodes[i].start + nodes[i].size);
		mm_remove_node(&nodes[i]);
	}
	check_mm(mm);
	expect_insert(mm, &fresh, size, align, 0, UINT64_MAX, MM_INSERT_BEST);
	if (full) {
		/* Nothing else was free: the node went where the victims were. */
		gt_assert(fresh.start >= vmin && fresh.start + size <= vmax);
	}
	/* The victims are contiguous: no survivor sits between them. */
	for (node = mm_first_node(mm); node && nvictims; node = mm_next_node(mm, node))
		gt_assert(node == &fresh || node->start + node->size <= vmin ||
			  node->start >= vmax);
	mm_remove_node(&fresh);
	free(order);
	free(added);
	free(starts);
	free(victim);
}


static double elapsed_s(uint64_t t0)
{
	return (double)(now_ns() - t0) / 1e9;
}
static void test_init(void)
{
	struct mm mm;
	struct strbuf sb = STRBUF_INIT;

	mm_init(&mm, 0x10000, 0x100000);
	assert_one_hole(&mm, 0x10000, 0x110000);
	gt_assert(mm_clean(&mm));
	gt_assert(mm_first_node(&mm) == NULL);
	gt_assert_eq_u64(mm_largest_hole(&mm), 0x100000);
	gt_assert_eq_u64(mm_free_bytes(&mm), 0x100000);
	gt_assert_eq(mm_dump(&sb, &mm), 0);
	gt_assert_f(!strcmp(sb.buf, "0x00010000-0x00110000: 1048576: free\n"
			    "total: 1048576, used 0 free 1048576\n"), "%s", sb.buf);
	gt_assert_eq(mm_takedown(&mm), 0);
	strbuf_release(&sb);

	mm_init(&mm, 0, 0);
	check_mm(&mm);
	gt_assert_eq_u64(mm_largest_hole(&mm), 0);
	expect_insert_fail(&mm, 1, 0, 0, UINT64_MAX, MM_INSERT_BEST, -ENOSPC);
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_invalid(void)
{
	struct mm mm;
	struct mm_node a = { 0 }, b = { 0 };
	unsigned int m;

	mm_init(&mm, 0, 16 * PAGE);
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		expect_insert_fail(&mm, 0, 0, 0, UINT64_MAX, modes[m], -EINVAL);
		expect_insert_fail(&mm, 16 * PAGE + 1, 0, 0, UINT64_MAX, modes[m], -ENOSPC);
		expect_insert_fail(&mm, UINT64_MAX, 0, 0, UINT64_MAX, modes[m], -ENOSPC);
		/* Empty, inverted, disjoint and too small ranges. */
		expect_insert_fail(&mm, 1, 0, PAGE, PAGE, modes[m], -ENOSPC);
		expect_insert_fail(&mm, 1, 0, 2 * PAGE, PAGE, modes[m], -ENOSPC);
		expect_insert_fail(&mm, 1, 0, 16 * PAGE, UINT64_MAX, modes[m], -ENOSPC);
		expect_insert_fail(&mm, PAGE + 1, 0, PAGE, 2 * PAGE, modes[m], -ENOSPC);
		/* 0 is a multiple of everything. */
		expect_insert(&mm, &a, 1, UINT64_MAX, 0, UINT64_MAX, modes[m]);
		gt_assert_eq_u64(a.start, 0);
		mm_remove_node(&a);
		expect_insert_fail(&mm, 1, UINT64_MAX, 1, UINT64_MAX, modes[m], -ENOSPC);
	}
	expect_insert_fail(&mm, 1, 0, 0, UINT64_MAX, (enum mm_insert_mode)42, -EINVAL);
	expect_insert(&mm, &a, PAGE, 0, 0, UINT64_MAX, MM_INSERT_LOW);
	/* An allocated node cannot go in twice. */
	gt_assert_eq(mm_insert_node(&mm, &a, PAGE, 0), -EINVAL);
	gt_assert_eq(mm_reserve_node(&mm, &a), -EINVAL);
	b.start = 4 * PAGE;
	b.size = 0;
	gt_assert_eq(mm_reserve_node(&mm, &b), -EINVAL);
	check_mm(&mm);
	gt_assert_eq(mm_takedown(&mm), -EBUSY);
	mm_remove_node(&a);
	mm_remove_node(&a);		/* twice is harmless */
	gt_assert(!mm_node_allocated(&a));
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_reserve_boundaries(void)
{
	static const struct {
		const char *name;
		int64_t start, size;	/* in pages, relative to mm start */
	} bad[] = {
		{ "before-start", -1, 1 },
		{ "straddle-start", -1, 2 },
		{ "after-end", 16, 1 },
		{ "straddle-end", 15, 2 },
		{ "whole-plus-one", 0, 17 },
		{ "far-after", 1000, 1 },
	};
	const uint64_t base = 64 * PAGE;
	struct mm mm;
	struct mm_node n = { 0 }, tmp;
	unsigned int i;

	mm_init(&mm, base, 16 * PAGE);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		tmp = (struct mm_node){ .start = base + (uint64_t)(bad[i].start * (int64_t)PAGE),
					.size = (uint64_t)bad[i].size * PAGE };
		gt_assert_f(mm_reserve_node(&mm, &tmp) == -ENOSPC, "%s", bad[i].name);
	}
	/* Overflowing start + size. */
	tmp = (struct mm_node){ .start = base + PAGE, .size = UINT64_MAX };
	gt_assert_eq(mm_reserve_node(&mm, &tmp), -ENOSPC);
	tmp = (struct mm_node){ .start = UINT64_MAX, .size = 1 };
	gt_assert_eq(mm_reserve_node(&mm, &tmp), -ENOSPC);

	n.start = base;
	n.size = 16 * PAGE;
	gt_assert_eq(mm_reserve_node(&mm, &n), 0);
	assert_no_holes(&mm);
	mm_remove_node(&n);
	assert_one_hole(&mm, base, base + 16 * PAGE);
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_reserve_overlap(void)
{
	struct mm mm;
	struct mm_node nodes[16] = { { 0 } }, tmp;
	unsigned int i;

	mm_init(&mm, 0, 16 * PAGE);
	/* Every other page, in a shuffled-ish order. */
	for (i = 0; i < 8; i++) {
		struct mm_node *n = &nodes[(i * 5) % 8];

		n->start = (uint64_t)((i * 5) % 8) * 2 * PAGE;
		n->size = PAGE;
		gt_assert_eq(mm_reserve_node(&mm, n), 0);
		check_mm(&mm);
	}
	for (i = 0; i < 8; i++) {
		tmp = (struct mm_node){ .start = i * 2 * PAGE, .size = 1 };
		gt_assert_eq(mm_reserve_node(&mm, &tmp), -ENOSPC);
		tmp = (struct mm_node){ .start = i * 2 * PAGE + PAGE - 1, .size = 2 };
		gt_assert_eq(mm_reserve_node(&mm, &tmp), -ENOSPC);
		tmp = (struct mm_node){ .start = i * 2 * PAGE + PAGE, .size = PAGE + 1 };
		gt_assert_eq(mm_reserve_node(&mm, &tmp), -ENOSPC);
	}
	/* The holes fit exactly. */
	for (i = 0; i < 8; i++) {
		nodes[8 + i].start = i * 2 * PAGE + PAGE;
		nodes[8 + i].size = PAGE;
		gt_assert_eq(mm_reserve_node(&mm, &nodes[8 + i]), 0);
	}
	assert_no_holes(&mm);
	for (i = 0; i < ARRAY_SIZE(modes); i++)
		expect_insert_fail(&mm, 1, 0, 0, UINT64_MAX, modes[i], -ENOSPC);
	remove_all(nodes, 16);
	assert_one_hole(&mm, 0, 16 * PAGE);
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_fill_exact(void)
{
	static const uint64_t chunks[] = { 1, 2, 3, 5, 7, 4096, 4099, 65536 };
	struct mm_node *nodes = calloc(64, sizeof(*nodes));
	unsigned int c, m, i, count = 61;	/* prime */

	gt_assert(nodes);
	for (c = 0; c < ARRAY_SIZE(chunks); c++) {
		for (m = 0; m < ARRAY_SIZE(modes); m++) {
			uint64_t chunk = chunks[c], size = count * chunk;
			struct mm mm;
			struct mm_node spare = { 0 };

			mm_init(&mm, 12345, size);
			for (i = 0; i < count; i++)
				expect_insert(&mm, &nodes[i], chunk, 0, 0, UINT64_MAX, modes[m]);
			assert_no_holes(&mm);
			/* Full: even one byte does not fit, in any mode. */
			expect_insert_fail(&mm, 1, 0, 0, UINT64_MAX, MM_INSERT_BEST, -ENOSPC);
			expect_insert_fail(&mm, 1, 0, 0, UINT64_MAX, MM_INSERT_LOW, -ENOSPC);
			expect_insert_fail(&mm, 1, 0, 0, UINT64_MAX, MM_INSERT_HIGH, -ENOSPC);

			/* A freed chunk takes chunk bytes back, not chunk + 1. */
			mm_remove_node(&nodes[count / 2]);
			expect_insert_fail(&mm, chunk + 1, 0, 0, UINT64_MAX, modes[m], -ENOSPC);
			expect_insert(&mm, &spare, chunk, 0, 0, UINT64_MAX, modes[m]);
			gt_assert_eq_u64(spare.start, nodes[count / 2].start);
			assert_no_holes(&mm);
			mm_remove_node(&spare);

			/* Two neighbours freed make one hole of twice the size. */
			mm_remove_node(&nodes[count / 2 + 1]);
			expect_insert_fail(&mm, 2 * chunk + 1, 0, 0, UINT64_MAX, modes[m], -ENOSPC);
			expect_insert(&mm, &spare, 2 * chunk, 0, 0, UINT64_MAX, modes[m]);
			assert_no_holes(&mm);
			mm_remove_node(&spare);

			remove_all(nodes, count);
			assert_one_hole(&mm, 12345, 12345 + size);
			gt_assert_eq(mm_takedown(&mm), 0);
		}
	}
	free(nodes);
}

static void test_insert_order(void)
{
	struct mm_node nodes[32] = { { 0 } };
	struct mm mm;
	unsigned int i;

	/* Bottom-up is contiguous from the start, top-down from the end. */
	mm_init(&mm, PAGE, 32 * PAGE);
	for (i = 0; i < 32; i++) {
		expect_insert(&mm, &nodes[i], PAGE, 0, 0, UINT64_MAX, MM_INSERT_LOW);
		gt_assert_eq_u64(nodes[i].start, PAGE + i * PAGE);
	}
	remove_all(nodes, 32);
	for (i = 0; i < 32; i++) {
		expect_insert(&mm, &nodes[i], PAGE, 0, 0, UINT64_MAX, MM_INSERT_HIGH);
		gt_assert_eq_u64(nodes[i].start, 32 * PAGE - i * PAGE);
	}
	/* Empty space: best fit also packs from the bottom. */
	remove_all(nodes, 32);
	for (i = 0; i < 32; i++) {
		expect_insert(&mm, &nodes[i], PAGE, 0, 0, UINT64_MAX, MM_INSERT_BEST);
		gt_assert_eq_u64(nodes[i].start, PAGE + i * PAGE);
	}
	check_mm(&mm);
	remove_all(nodes, 32);
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_best_low_high(void)
{
	/*
	 * Holes (in pages) of 5 at 1, 3 at 7, 8 at 11, 3 at 20 and 4
	 * at 24 (the tail); fences of one page in between.
	 */
	static const uint64_t fences[] = { 0, 6, 10, 19, 23 };
	struct mm_node fence[5] = { { 0 } }, a = { 0 }, b = { 0 }, c = { 0 };
	struct mm mm;
	unsigned int i;

	mm_init(&mm, 0, 28 * PAGE);
	for (i = 0; i < 5; i++) {
		fence[i].start = fences[i] * PAGE;
		fence[i].size = PAGE;
		gt_assert_eq(mm_reserve_node(&mm, &fence[i]), 0);
	}
	check_mm(&mm);
	gt_assert_eq_u64(mm_largest_hole(&mm), 8 * PAGE);

	/* BEST: the smallest hole, the lowest of equal ones. */
	expect_insert(&mm, &a, 3 * PAGE, 0, 0, UINT64_MAX, MM_INSERT_BEST);
	gt_assert_eq_u64(a.start, 7 * PAGE);
	expect_insert(&mm, &b, 3 * PAGE, 0, 0, UINT64_MAX, MM_INSERT_BEST);
	gt_assert_eq_u64(b.start, 20 * PAGE);
	expect_insert(&mm, &c, 4 * PAGE, 0, 0, UINT64_MAX, MM_INSERT_BEST);
	gt_assert_eq_u64(c.start, 24 * PAGE);
	mm_remove_node(&a);
	mm_remove_node(&b);
	mm_remove_node(&c);

	/* BEST skips the small holes the alignment cannot use. */
	{
		static const struct {
			uint64_t size, align, start;	/* pages */
		} best[] = {
			{ 2, 4, 8 },	/* [7, 10) aligned: 8 */
			{ 3, 4, 20 },	/* [7, 10) cannot, [20, 23) can */
			{ 3, 8, 24 },	/* only [24, 28) among the small */
			{ 3, 16, 16 },	/* only the 8-page hole [11, 19) */
			{ 4, 8, 24 },	/* 4 pages < 5 pages */
			{ 5, 2, 12 },	/* [1, 6) misses at 2, so [11, 19) */
		};

		for (i = 0; i < ARRAY_SIZE(best); i++) {
			expect_insert(&mm, &a, best[i].size * PAGE, best[i].align * PAGE,
				      0, UINT64_MAX, MM_INSERT_BEST);
			gt_assert_f(a.start == best[i].start * PAGE, "case %u: got page %" PRIu64,
				    i, (uint64_t)(a.start / PAGE));
			mm_remove_node(&a);
		}
	}

	/* LOW: the first hole that fits; HIGH: the top of the last. */
	expect_insert(&mm, &a, 4 * PAGE, 0, 0, UINT64_MAX, MM_INSERT_LOW);
	gt_assert_eq_u64(a.start, 1 * PAGE);
	expect_insert(&mm, &b, 4 * PAGE, 0, 0, UINT64_MAX, MM_INSERT_HIGH);
	gt_assert_eq_u64(b.start, 24 * PAGE);
	expect_insert(&mm, &c, 4 * PAGE, 0, 0, UINT64_MAX, MM_INSERT_HIGH);
	gt_assert_eq_u64(c.start, 15 * PAGE);
	mm_remove_node(&a);
	mm_remove_node(&b);
	mm_remove_node(&c);
	expect_insert(&mm, &a, 3 * PAGE, 3 * PAGE, 0, UINT64_MAX, MM_INSERT_HIGH);
	gt_assert_eq_u64(a.start, 24 * PAGE);	/* 24 is a multiple of 3 */
	expect_insert(&mm, &b, 3 * PAGE, 3 * PAGE, 0, UINT64_MAX, MM_INSERT_HIGH);
	gt_assert_eq_u64(b.start, 15 * PAGE);	/* top of [11, 19) is 16, aligned 15 */
	expect_insert(&mm, &c, 3 * PAGE, 3 * PAGE, 0, UINT64_MAX, MM_INSERT_LOW);
	gt_assert_eq_u64(c.start, 3 * PAGE);	/* [1, 6): aligned 3 */
	check_mm(&mm);
	mm_remove_node(&a);
	mm_remove_node(&b);
	mm_remove_node(&c);
	remove_all(fence, 5);
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_align_pot(void)
{
	struct mm_node nodes[3][48] = { { { 0 } } };
	unsigned int m, k;
	struct mm mm;

	/* Start at an odd address: alignment is absolute, not relative. */
	mm_init(&mm, 4097, 1ULL << 42);
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		for (k = 0; k < 39; k++) {
			uint64_t align = 1ULL << k;

			expect_insert(&mm, &nodes[m][k], 1 + k, align, 0, UINT64_MAX, modes[m]);
			check_mm(&mm);
		}
	}
	remove_all(&nodes[0][0], 3 * 48);
	/* A hole just too short once aligned. */
	{
		struct mm_node x = { .start = 4097, .size = 4095 }, y = { 0 };

		gt_assert_eq(mm_reserve_node(&mm, &x), 0);	/* to 8192 */
		expect_insert(&mm, &y, 8192, 8192, 0, 8192 + 8192, MM_INSERT_LOW);
		gt_assert_eq_u64(y.start, 8192);
		mm_remove_node(&y);
		expect_insert_fail(&mm, 8192, 8192, 0, 8192 + 8191, MM_INSERT_LOW, -ENOSPC);
		expect_insert_fail(&mm, 8192, 8192, 0, 8192 + 8191, MM_INSERT_HIGH, -ENOSPC);
		expect_insert_fail(&mm, 8192, 8192, 0, 8192 + 8191, MM_INSERT_BEST, -ENOSPC);
		mm_remove_node(&x);
	}
	check_mm(&mm);
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_align_odd(void)
{
	static const uint64_t aligns[] = {
		3, 7, 12345, 3 * 4096, 5 * 4096, 1000003, 0x7fffffffffffffULL,
	};
	struct mm_node nodes[3][ARRAY_SIZE(aligns)][4];
	unsigned int m, a, i;
	struct mm mm;

	memset(nodes, 0, sizeof(nodes));
	mm_init(&mm, 1, UINT64_MAX - 1);
	for (m = 0; m < ARRAY_SIZE(modes); m++)
		for (a = 0; a < ARRAY_SIZE(aligns); a++)
			for (i = 0; i < 4; i++)
				expect_insert(&mm, &nodes[m][a][i], 1 + i * 4096,
					      aligns[a], 0, UINT64_MAX, modes[m]);
	check_mm(&mm);
	remove_all(&nodes[0][0][0], sizeof(nodes) / sizeof(nodes[0][0][0]));

	/* An alignment of 2^63 - 1 has two multiples in range. */
	{
		struct mm_node x = { 0 };

		expect_insert(&mm, &x, 1, INT64_MAX, 0, UINT64_MAX, MM_INSERT_LOW);
		gt_assert_eq_u64(x.start, INT64_MAX);
		mm_remove_node(&x);
		expect_insert(&mm, &x, 1, INT64_MAX, 0, UINT64_MAX, MM_INSERT_HIGH);
		gt_assert_eq_u64(x.start, UINT64_MAX - 1);
		mm_remove_node(&x);
		expect_insert(&mm, &x, 2, INT64_MAX, 0, UINT64_MAX, MM_INSERT_HIGH);
		gt_assert_eq_u64(x.start, INT64_MAX);
		mm_remove_node(&x);
	}

	/* A 3-page-aligned 3-page node in 5 pages fits only at 3 * 4096. */
	{
		struct mm small;
		struct mm_node x = { 0 }, y = { 0 };

		mm_init(&small, PAGE, 5 * PAGE);
		for (m = 0; m < ARRAY_SIZE(modes); m++) {
			expect_insert(&small, &x, 3 * PAGE, 3 * PAGE, 0, UINT64_MAX, modes[m]);
			gt_assert_eq_u64(x.start, 3 * PAGE);
			expect_insert_fail(&small, PAGE, 3 * PAGE, 0, UINT64_MAX,
					   modes[m], -ENOSPC);
			expect_insert(&small, &y, PAGE, 0, 0, UINT64_MAX, modes[m]);
			mm_remove_node(&y);
			mm_remove_node(&x);
		}
		gt_assert_eq(mm_takedown(&small), 0);
	}
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_top_of_address_space(void)
{
	struct mm mm;
	struct mm_node a = { 0 }, b = { 0 }, c = { 0 };
	const uint64_t start = UINT64_MAX - 16 * PAGE;

	/* start + size would wrap: the range is clamped to 2^64 - 1. */
	mm_init(&mm, start, UINT64_MAX);
	gt_assert_eq_u64(mm.size, 16 * PAGE);
	expect_insert(&mm, &a, PAGE, PAGE, 0, UINT64_MAX, MM_INSERT_HIGH);
	gt_assert_eq_u64(a.start, UINT64_MAX - PAGE - (PAGE - 1));
	expect_insert(&mm, &b, PAGE, 0, 0, UINT64_MAX, MM_INSERT_HIGH);
	gt_assert_eq_u64(b.start, a.start - PAGE);
	expect_insert(&mm, &c, 2 * PAGE, 4 * PAGE, 0, UINT64_MAX, MM_INSERT_LOW);
	gt_assert_eq_u64(c.start % (4 * PAGE), 0);
	expect_insert_fail(&mm, 16 * PAGE, 0, 0, UINT64_MAX, MM_INSERT_BEST, -ENOSPC);
	expect_insert_fail(&mm, PAGE, UINT64_MAX, 0, UINT64_MAX, MM_INSERT_LOW, -ENOSPC);
	check_mm(&mm);
	mm_remove_node(&a);
	mm_remove_node(&b);
	mm_remove_node(&c);
	a = (struct mm_node){ .start = UINT64_MAX - 1, .size = 1 };
	gt_assert_eq(mm_reserve_node(&mm, &a), 0);
	b = (struct mm_node){ .start = UINT64_MAX - 1, .size = 2 };
	gt_assert_eq(mm_reserve_node(&mm, &b), -ENOSPC);
	check_mm(&mm);
	mm_remove_node(&a);
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_range(void)
{
	struct mm_node nodes[64] = { { 0 } };
	struct mm mm;
	unsigned int m, i;

	mm_init(&mm, 0, 64 * PAGE);
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		/* Fill [16, 32) exactly; the rest stays free. */
		for (i = 0; i < 16; i++)
			expect_insert(&mm, &nodes[i], PAGE, 0, 16 * PAGE, 32 * PAGE, modes[m]);
		check_mm(&mm);
		gt_assert_eq_u64(mm_free_bytes(&mm), 48 * PAGE);
		expect_insert_fail(&mm, 1, 0, 16 * PAGE, 32 * PAGE, modes[m], -ENOSPC);
		/* Overlapping the edges, only the outside part is free. */
		expect_insert_fail(&mm, PAGE + 1, 0, 15 * PAGE, 33 * PAGE - 1, modes[m], -ENOSPC);
		expect_insert(&mm, &nodes[16], PAGE, 0, 15 * PAGE, 33 * PAGE, modes[m]);
		gt_assert(nodes[16].start == 15 * PAGE || nodes[16].start == 32 * PAGE);
		mm_remove_node(&nodes[16]);
		remove_all(nodes, 16);

		/* A range larger than the space is clipped. */
		expect_insert(&mm, &nodes[0], 64 * PAGE, 0, 0, UINT64_MAX, modes[m]);
		mm_remove_node(&nodes[0]);
	}
	/* LOW and HIGH go to the edges of the range, aligned. */
	expect_insert(&mm, &nodes[0], 100, 3, 1000, 50000, MM_INSERT_LOW);
	gt_assert_eq_u64(nodes[0].start, 1002);
	expect_insert(&mm, &nodes[1], 100, 3, 1000, 50000, MM_INSERT_HIGH);
	gt_assert_eq_u64(nodes[1].start, 49899);	/* (50000 - 100) / 3 * 3 */
	expect_insert(&mm, &nodes[2], 100, 0, 1000, 50000, MM_INSERT_BEST);
	gt_assert_eq_u64(nodes[2].start, 1102);
	/* BEST in a sub-range picks the smallest hole there. */
	nodes[3] = (struct mm_node){ .start = 1300, .size = 10 };
	gt_assert_eq(mm_reserve_node(&mm, &nodes[3]), 0);	/* hole [1202, 1300) */
	expect_insert(&mm, &nodes[4], 50, 0, 1000, 60000, MM_INSERT_BEST);
	gt_assert_eq_u64(nodes[4].start, 1202);
	check_mm(&mm);
	remove_all(nodes, 64);
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_holes(void)
{
	struct mm_node nodes[10] = { { 0 } };
	struct hole_list h = { 0 };
	struct mm mm;
	unsigned int i;

	mm_init(&mm, 0, 100);
	for (i = 0; i < 10; i++) {
		nodes[i].start = i * 10 + i % 3;
		nodes[i].size = 5;
		gt_assert_eq(mm_reserve_node(&mm, &nodes[i]), 0);
	}
	check_mm(&mm);
	gt_assert_eq(mm_for_each_hole(&mm, collect_hole, &h), 0);
	gt_assert_eq(h.count, 10);	/* none before node 0 at offset 0 */
	gt_assert_eq_u64(h.total, 50);
	gt_assert_eq_u64(h.largest, mm_largest_hole(&mm));
	for (i = 1; i < h.count; i++)
		gt_assert(h.start[i] > h.start[i - 1] + h.size[i - 1]);
	/* A callback's non-zero return stops the walk and is returned. */
	i = 0;
	gt_assert_eq(mm_for_each_hole(&mm, stop_second, &i), 7);
	gt_assert_eq(i, 2);
	remove_all(nodes, 10);
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_random_vs_reference(void)
{
	static struct ref r;
	struct mm_node *nodes = calloc(1024, sizeof(*nodes));
	uint32_t st = seed;
	unsigned int step, inserts = 0, reserves = 0, removes = 0;
	struct mm mm;

	gt_assert(nodes);
	memset(&r, 0, sizeof(r));
	mm_init(&mm, REF_START, REF_SIZE);
	for (step = 0; step < 30000; step++) {
		struct mm_node *node = &nodes[rnd(&st, 1024)];
		uint64_t op = rnd(&st, 10);

		if (mm_node_allocated(node)) {
			if (op < 6) {
				ref_mark(&r, node, false);
				mm_remove_node(node);
				removes++;
			}
		} else if (op < 8) {
			random_insert(&mm, &r, node, &st);
			inserts += mm_node_allocated(node);
		} else {
			random_reserve(&mm, &r, node, &st);
			reserves += mm_node_allocated(node);
		}
		if (step % 16 == 0)
			check_mm(&mm);
	}
	check_mm(&mm);
	gemtest_diag("%u inserts, %u reserves, %u removes, %u nodes left",
		     inserts, reserves, removes, count_allocated(nodes, 1024));
	remove_all(nodes, 1024);
	assert_one_hole(&mm, REF_START, REF_START + REF_SIZE);
	gt_assert_eq(mm_takedown(&mm), 0);
	free(nodes);
}

static void test_scan_evict(void)
{
	static const uint64_t aligns[] = { 0, PAGE, 2 * PAGE, 3 * PAGE, 16 * PAGE };
	const unsigned int n = 1024;	/* enough for 1024 one-page nodes */
	struct mm_node *nodes = calloc(n, sizeof(*nodes));
	uint32_t st = seed ^ 0x5ca7;
	unsigned int round;
	struct mm mm;

	gt_assert(nodes);
	mm_init(&mm, 0, 1024 * PAGE);
	for (round = 0; round < 200; round++) {
		uint64_t size = (1 + rnd(&st, 32)) * PAGE;
		uint64_t align = aligns[rnd(&st, ARRAY_SIZE(aligns))];
		unsigned int i;

		fill_pages(&mm, nodes, n, &st);
		gt_assert_eq_u64(mm_free_bytes(&mm), 0);
		expect_insert_fail(&mm, size, align, 0, UINT64_MAX, MM_INSERT_BEST, -ENOSPC);
		/* Sometimes leave some free space for the scan to merge. */
		if (round % 3 == 1)
			for (i = 0; i < n; i += 7)
				mm_remove_node(&nodes[i]);
		scan_round(&mm, nodes, n, size, align, round % 3 != 1, &st);
		check_mm(&mm);
	}
	remove_all(nodes, n);
	gt_assert_eq(mm_takedown(&mm), 0);
	free(nodes);
}

static void test_scan_not_found(void)
{
	struct mm_node nodes[16] = { { 0 } };
	struct mm mm;
	int i;

	mm_init(&mm, 0, 16 * PAGE);
	for (i = 0; i < 16; i++)
		expect_insert(&mm, &nodes[i], PAGE, 0, 0, UINT64_MAX, MM_INSERT_LOW);
	/* Only every other node is evictable: no 2 pages ever free up. */
	mm_scan_init(&mm, 2 * PAGE, 0);
	for (i = 0; i < 16; i += 2)
		gt_assert(!mm_scan_add_node(&mm, &nodes[i]));
	for (i = 14; i >= 0; i -= 2)
		gt_assert(!mm_scan_remove_node(&mm, &nodes[i]));
	assert_no_holes(&mm);

	/* Neighbours: the first two make the hole; both are victims. */
	mm_scan_init(&mm, 2 * PAGE, 0);
	gt_assert(!mm_scan_add_node(&mm, &nodes[5]));
	gt_assert(mm_scan_add_node(&mm, &nodes[6]));
	gt_assert(mm_scan_remove_node(&mm, &nodes[6]));
	gt_assert(mm_scan_remove_node(&mm, &nodes[5]));
	assert_no_holes(&mm);

	/* Aligned: 2 pages at 4-page alignment need nodes 4 and 5. */
	mm_scan_init(&mm, 2 * PAGE, 4 * PAGE);
	gt_assert(!mm_scan_add_node(&mm, &nodes[3]));
	gt_assert(!mm_scan_add_node(&mm, &nodes[2]));
	gt_assert(!mm_scan_add_node(&mm, &nodes[5]));
	gt_assert(mm_scan_add_node(&mm, &nodes[4]));
	gt_assert(mm_scan_remove_node(&mm, &nodes[4]));
	gt_assert(mm_scan_remove_node(&mm, &nodes[5]));
	gt_assert(!mm_scan_remove_node(&mm, &nodes[2]));
	gt_assert(!mm_scan_remove_node(&mm, &nodes[3]));
	assert_no_holes(&mm);

	/* A scan holding nothing blocks nothing. */
	mm_scan_init(&mm, PAGE, 0);
	mm_remove_node(&nodes[0]);
	expect_insert(&mm, &nodes[0], PAGE, 0, 0, UINT64_MAX, MM_INSERT_BEST);
	remove_all(nodes, 16);
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_dump(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct mm_node a = { .start = 0x1000, .size = 0x2000 };
	struct mm_node b = { .start = 0x3000, .size = 0x1000 };
	struct mm_node c = { .start = 0x8000, .size = 0x8000 };
	struct mm mm;

	mm_init(&mm, 0, 0x10000);
	gt_assert_eq(mm_reserve_node(&mm, &c), 0);
	gt_assert_eq(mm_reserve_node(&mm, &a), 0);
	gt_assert_eq(mm_reserve_node(&mm, &b), 0);
	gt_assert_eq(strbuf_addstr(&sb, "kept\n"), 0);
	gt_assert_eq(mm_dump(&sb, &mm), 0);
	gt_assert_f(!strcmp(sb.buf,
		"kept\n"
		"0x00000000-0x00001000: 4096: free\n"
		"0x00001000-0x00003000: 8192: used\n"
		"0x00003000-0x00004000: 4096: used\n"
		"0x00004000-0x00008000: 16384: free\n"
		"0x00008000-0x00010000: 32768: used\n"
		"total: 65536, used 45056 free 20480\n"), "%s", sb.buf);
	mm_remove_node(&a);
	mm_remove_node(&b);
	mm_remove_node(&c);
	strbuf_release(&sb);
	gt_assert_eq(mm_takedown(&mm), 0);
}

static void test_100k_nodes(void)
{
	const unsigned int n = 100000;
	struct mm_node *nodes = calloc(n, sizeof(*nodes));
	unsigned int *order = calloc(n, sizeof(*order));
	uint32_t st = seed ^ 0x100000;
	unsigned int i, m;
	uint64_t t0;
	struct mm mm;

	gt_assert(nodes && order);
	/* An arena: 4 KiB-aligned objects of 1-4 pages, best fit. */
	mm_init(&mm, 0, (uint64_t)n * 4 * PAGE);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		gt_assert_eq(mm_insert_node(&mm, &nodes[i], (1 + rnd(&st, 4)) * PAGE, PAGE), 0);
	check_mm(&mm);
	gemtest_diag("best: %u inserts in %.3f s", n, elapsed_s(t0));

	/* Churn: free a random half, refill, in random order. */
	t0 = now_ns();
	shuffle(order, n, &st);
	for (i = 0; i < n / 2; i++)
		mm_remove_node(&nodes[order[i]]);
	check_mm(&mm);
	for (i = 0; i < n / 2; i++)
		gt_assert_eq(mm_insert_node(&mm, &nodes[order[i]],
					    (1 + rnd(&st, 4)) * PAGE, PAGE), 0);
	check_mm(&mm);
	gemtest_diag("churn: %u removes + inserts in %.3f s", n / 2, elapsed_s(t0));
	t0 = now_ns();
	shuffle(order, n, &st);
	for (i = 0; i < n; i++)
		mm_remove_node(&nodes[order[i]]);
	gemtest_diag("remove: %u in %.3f s", n, elapsed_s(t0));
	assert_one_hole(&mm, 0, (uint64_t)n * 4 * PAGE);

	/* Streams of LOW and HIGH inserts into empty space. */
	for (m = 1; m < 3; m++) {
		t0 = now_ns();
		for (i = 0; i < n; i++)
			gt_assert_eq(mm_insert_node_in_range(&mm, &nodes[i], PAGE, 0, 0,
							     UINT64_MAX, modes[m]), 0);
		gt_assert_eq_u64(nodes[n - 1].start,
				 m == 1 ? (uint64_t)(n - 1) * PAGE : (uint64_t)3 * n * PAGE);
		check_mm(&mm);
		remove_all(nodes, n);
		gemtest_diag("%s: %u inserts + removes in %.3f s", mode_names[m], n,
			     elapsed_s(t0));
	}
	gt_assert_eq(mm_takedown(&mm), 0);
	free(order);
	free(nodes);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	seed = seed_from_env();

	gemtest_subtest("init")
		test_init();
	gemtest_subtest("invalid")
		test_invalid();
	gemtest_subtest("reserve-boundaries")
		test_reserve_boundaries();
	gemtest_subtest("reserve-overlap")
		test_reserve_overlap();
	gemtest_subtest("fill-exact")
		test_fill_exact();
	gemtest_subtest("insert-order")
		test_insert_order();
	gemtest_subtest("best-low-high")
		test_best_low_high();
	gemtest_subtest("align-pot")
		test_align_pot();
	gemtest_subtest("align-odd")
		test_align_odd();
	gemtest_subtest("top-of-address-space")
		test_top_of_address_space();
	gemtest_subtest("range")
		test_range();
	gemtest_subtest("holes")
		test_holes();
	gemtest_subtest("random-vs-reference")
		test_random_vs_reference();
	gemtest_subtest("scan-evict")
		test_scan_evict();
	gemtest_subtest("scan-not-found")
		test_scan_not_found();
	gemtest_subtest("dump")
		test_dump();
	gemtest_subtest("100k-nodes")
		test_100k_nodes();
	return gemtest_exit();
}

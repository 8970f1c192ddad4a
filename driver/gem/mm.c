/*
 * mm: a generic range allocator after the kernel's drm_mm.
 *
 * Allocated nodes sit on an address-ordered doubly linked list whose
 * sentinel is mm->head.  A hole is the gap after a node up to the next one
 * (or the end of the range); the sentinel's hole is the gap before the
 * first node.  The sentinel has start == mm->start and size 0, so "hole
 * start = node end" holds for it too.
 *
 * Each non-empty hole is kept, inside the node that owns it, in two
 * treaps (randomised search trees; the priority is a hash of the node's
 * address, so no per-node state or allocation is needed):
 *   - by address, augmented with the largest hole in each subtree, which
 *     finds the lowest (or highest) hole that is big enough and the hole
 *     containing a given address;
 *   - by (size, address), which finds the smallest hole that is big enough.
 *
 * Complexity, with n nodes and expected O(log n) treap depth:
 *   - remove, reserve, and insert without alignment: O(log n);
 *   - insert with alignment: O(log n) plus one step per hole that is big
 *     enough by size but not once aligned, as in drm_mm.  Heavily
 *     fragmented spaces with large alignments degrade towards O(n);
 *   - MM_INSERT_BEST restricted to a sub-range is a walk of the holes in
 *     that range that are big enough (the size tree knows no addresses);
 *   - largest hole: O(1); hole iteration: O(holes); dump: O(n).
 * Recursion depth follows the treap depth (about 3 log2 n, ~50 for the
 * 100,000 nodes of a busy arena), so stack use stays small.
 *
 * Limits: the managed range must satisfy start + size <= 2^64 - 1 (mm_init
 * clamps it); alignment is absolute (an offset is aligned when it is a
 * multiple of align, whatever mm->start is) and may be any value, which
 * costs a division per candidate hole.  Nothing here is thread-safe: the
 * owner serialises access.
 *
 * The eviction scan works as drm_mm's 2011 one: each node added is
 * unlinked from the address list, so the hole before it grows in O(1);
 * removing in reverse order relinks them exactly.  The treaps are left
 * alone during a scan, which is why nothing may be inserted or removed
 * while a scan holds nodes.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "mm.h"
#include "strbuf.h"

enum hole_tree { HOLE_ADDR, HOLE_SIZE };

/* A request for a hole: what to fit, where, and where it went. */
struct hole_query {
	uint64_t size, align;
	uint64_t range_start, range_end;
	enum mm_insert_mode mode;
	uint64_t start;		/* out: the placement in the chosen hole */
};

static inline uint64_t mm_end(const struct mm *mm)
{
	return mm->start + mm->size;
}

static inline uint64_t node_end(const struct mm_node *node)
{
	return node->start + node->size;
}

/* The hole after node ends where the next node (or the range) starts. */
static inline uint64_t hole_end_of(const struct mm *mm,
				   const struct mm_node *node)
{
	return node->next == &mm->head ? mm_end(mm) : node->next->start;
}

/* murmur3's finaliser: well-spread priorities from node addresses. */
static inline uint64_t prio(const struct mm_node *node)
{
	uint64_t x = (uint64_t)(uintptr_t)node;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static inline struct mm_node **left(struct mm_node *n, enum hole_tree t)
{
	return t == HOLE_ADDR ? &n->hole_addr_left : &n->hole_size_left;
}

static inline struct mm_node **right(struct mm_node *n, enum hole_tree t)
{
	return t == HOLE_ADDR ? &n->hole_addr_right : &n->hole_size_right;
}

static bool hole_before(enum hole_tree t, const struct mm_node *a,
			const struct mm_node *b)
{
	if (t == HOLE_SIZE && a->hole_size != b->hole_size)
		return a->hole_size < b->hole_size;
	return a->hole_start < b->hole_start;
}

/* Keep the address tree's augmentation: the largest hole below n. */
static void hole_update(enum hole_tree t, struct mm_node *n)
{
	struct mm_node *l, *r;
	uint64_t max;

	if (t != HOLE_ADDR)
		return;
	l = n->hole_addr_left;
	r = n->hole_addr_right;
	max = n->hole_size;
	if (l && l->hole_max > max)
		max = l->hole_max;
	if (r && r->hole_max > max)
		max = r->hole_max;
	n->hole_max = max;
}

/* Split root into the holes ordered before key and the rest. */
static void treap_split(enum hole_tree t, struct mm_node *root,
			const struct mm_node *key,
			struct mm_node **lo, struct mm_node **hi)
{
	if (!root) {
		*lo = *hi = NULL;
		return;
	}
	if (hole_before(t, root, key)) {
		treap_split(t, *right(root, t), key, right(root, t), hi);
		*lo = root;
	} else {
		treap_split(t, *left(root, t), key, lo, left(root, t));
		*hi = root;
	}
	hole_update(t, root);
}

static struct mm_node *treap_merge(enum hole_tree t, struct mm_node *lo,
				   struct mm_node *hi)
{
	if (!lo)
		return hi;
	if (!hi)
		return lo;
	if (prio(lo) > prio(hi)) {
		*right(lo, t) = treap_merge(t, *right(lo, t), hi);
		hole_update(t, lo);
		return lo;
	}
	*left(hi, t) = treap_merge(t, lo, *left(hi, t));
	hole_update(t, hi);
	return hi;
}

static struct mm_node *treap_insert(enum hole_tree t, struct mm_node *root,
				    struct mm_node *n)
{
	if (!root || prio(n) > prio(root)) {
		treap_split(t, root, n, left(n, t), right(n, t));
		hole_update(t, n);
		return n;
	}
	if (hole_before(t, n, root))
		*left(root, t) = treap_insert(t, *left(root, t), n);
	else
		*right(root, t) = treap_insert(t, *right(root, t), n);
	hole_update(t, root);
	return root;
}

/* n must be in the tree: its cached keys lead the way down. */
static struct mm_node *treap_erase(enum hole_tree t, struct mm_node *root,
				   struct mm_node *n)
{
	assert(root);
	if (root == n)
		return treap_merge(t, *left(n, t), *right(n, t));
	if (hole_before(t, n, root))
		*left(root, t) = treap_erase(t, *left(root, t), n);
	else
		*right(root, t) = treap_erase(t, *right(root, t), n);
	hole_update(t, root);
	return root;
}

/* Index the hole after node, if there is one. */
static void hole_add(struct mm *mm, struct mm_node *node)
{
	uint64_t start = node_end(node), end = hole_end_of(mm, node);

	node->hole_size = 0;
	if (end <= start)
		return;
	node->hole_start = start;
	node->hole_size = end - start;
	mm->holes_addr = treap_insert(HOLE_ADDR, mm->holes_addr, node);
	mm->holes_size = treap_insert(HOLE_SIZE, mm->holes_size, node);
}

static void hole_del(struct mm *mm, struct mm_node *node)
{
	if (!node->hole_size)
		return;		/* no hole, not indexed */
	mm->holes_addr = treap_erase(HOLE_ADDR, mm->holes_addr, node);
	mm->holes_size = treap_erase(HOLE_SIZE, mm->holes_size, node);
	node->hole_size = 0;
}

/*
 * Does the request fit in [start, end) clipped to its range?  If so, set
 * q->start: the lowest aligned offset, or for MM_INSERT_HIGH the highest.
 * Written to avoid overflow near 2^64.
 */
static bool range_fits(struct hole_query *q, uint64_t start, uint64_t end)
{
	uint64_t s = start > q->range_start ? start : q->range_start;
	uint64_t e = end < q->range_end ? end : q->range_end;
	uint64_t x, rem;

	if (e <= s || e - s < q->size)
		return false;
	if (q->mode == MM_INSERT_HIGH) {
		x = e - q->size;
		x -= x % q->align;
		if (x < s)
			return false;
	} else {
		x = s;
		rem = x % q->align;
		if (rem) {
			if (q->align - rem > e - s - q->size)
				return false;
			x += q->align - rem;
		}
	}
	q->start = x;
	return true;
}

static bool hole_fits(struct hole_query *q, const struct mm_node *hole)
{
	return range_fits(q, hole->hole_start,
			  hole->hole_start + hole->hole_size);
}

/*
 * Lowest fitting hole.  Holes in a left subtree end at or before the
 * node's hole starts, holes in a right subtree start after it ends; that
 * and hole_max prune everything outside the range or too small.
 */
static struct mm_node *find_low(struct mm_node *t, struct hole_query *q)
{
	struct mm_node *found;

	if (!t || t->hole_max < q->size)
		return NULL;
	if (t->hole_start > q->range_start) {
		found = find_low(t->hole_addr_left, q);
		if (found)
			return found;
	}
	if (t->hole_start >= q->range_end)
		return NULL;
	if (hole_fits(q, t))
		return t;
	return find_low(t->hole_addr_right, q);
}

static struct mm_node *find_high(struct mm_node *t, struct hole_query *q)
{
	struct mm_node *found;

	if (!t || t->hole_max < q->size)
		return NULL;
	if (t->hole_start + t->hole_size < q->range_end) {
		found = find_high(t->hole_addr_right, q);
		if (found)
			return found;
	}
	if (t->hole_start + t->hole_size <= q->range_start)
		return NULL;
	if (hole_fits(q, t))
		return t;
	return find_high(t->hole_addr_left, q);
}

/* Smallest fitting hole, ties to the lowest address: the size order. */
static struct mm_node *find_best(struct mm_node *t, struct hole_query *q)
{
	struct mm_node *found;

	while (t && t->hole_size < q->size)
		t = t->hole_size_right;
	if (!t)
		return NULL;
	found = find_best(t->hole_size_left, q);
	if (found)
		return found;
	if (hole_fits(q, t))
		return t;
	return find_best(t->hole_size_right, q);
}

/* Best fit within a sub-range: every big enough hole in the range. */
static void find_best_in_range(struct mm_node *t, struct hole_query *q,
			       struct mm_node **best)
{
	if (!t || t->hole_max < q->size)
		return;
	if (t->hole_start > q->range_start)
		find_best_in_range(t->hole_addr_left, q, best);
	if (t->hole_start >= q->range_end)
		return;
	/* In address order, so "strictly smaller" keeps the lowest of ties. */
	if (hole_fits(q, t) && (!*best || t->hole_size < (*best)->hole_size))
		*best = t;
	find_best_in_range(t->hole_addr_right, q, best);
}

/* Put node at [start, start + size) inside the hole after prev. */
static void place_node(struct mm *mm, struct mm_node *prev,
		       struct mm_node *node, uint64_t start, uint64_t size)
{
	hole_del(mm, prev);

	node->start = start;
	node->size = size;
	node->mm = mm;
	node->prev = prev;
	node->next = prev->next;
	prev->next->prev = node;
	prev->next = node;
	node->scan_prev = NULL;
	node->hole_addr_left = node->hole_addr_right = NULL;
	node->hole_size_left = node->hole_size_right = NULL;
	node->allocated = true;
	node->scanned = false;

	hole_add(mm, prev);
	hole_add(mm, node);
	mm->allocated_bytes += size;
	mm->node_count++;
}

void mm_init(struct mm *mm, uint64_t start, uint64_t size)
{
	memset(mm, 0, sizeof(*mm));
	if (size > UINT64_MAX - start)
		size = UINT64_MAX - start;	/* keep start + size representable */
	mm->start = start;
	mm->size = size;
	mm->head.start = start;
	mm->head.size = 0;
	mm->head.mm = mm;
	mm->head.prev = mm->head.next = &mm->head;
	hole_add(mm, &mm->head);
}

int mm_takedown(struct mm *mm)
{
	if (mm->node_count)
		return -EBUSY;
	hole_del(mm, &mm->head);
	return 0;
}

int mm_insert_node_in_range(struct mm *mm, struct mm_node *node,
			    uint64_t size, uint64_t align,
			    uint64_t range_start, uint64_t range_end,
			    enum mm_insert_mode mode)
{
	struct hole_query q = {
		.size = size,
		.align = align ? align : 1,
		.range_start = range_start > mm->start ? range_start : mm->start,
		.range_end = range_end < mm_end(mm) ? range_end : mm_end(mm),
		.mode = mode,
	};
	struct mm_node *hole = NULL;

	if (size == 0 || node->allocated)
		return -EINVAL;
	if (mm->scan_list)
		return -EBUSY;	/* scanned nodes are unlinked right now */
	if (q.range_end <= q.range_start || q.range_end - q.range_start < size)
		return -ENOSPC;

	switch (mode) {
	case MM_INSERT_BEST:
		if (q.range_start == mm->start && q.range_end == mm_end(mm))
			hole = find_best(mm->holes_size, &q);
		else
			find_best_in_range(mm->holes_addr, &q, &hole);
		/* find_best_in_range does not leave q.start at the winner. */
		if (hole && !hole_fits(&q, hole))
			hole = NULL;
		break;
	case MM_INSERT_LOW:
		hole = find_low(mm->holes_addr, &q);
		break;
	case MM_INSERT_HIGH:
		hole = find_high(mm->holes_addr, &q);
		break;
	default:
		return -EINVAL;
	}
	if (!hole)
		return -ENOSPC;

	place_node(mm, hole, node, q.start, size);
	return 0;
}

int mm_insert_node(struct mm *mm, struct mm_node *node, uint64_t size,
		   uint64_t align)
{
	return mm_insert_node_in_range(mm, node, size, align, mm->start,
				       mm_end(mm), MM_INSERT_BEST);
}

int mm_reserve_node(struct mm *mm, struct mm_node *node)
{
	uint64_t start = node->start, size = node->size;
	struct mm_node *t, *hole = NULL;

	if (size == 0 || node->allocated)
		return -EINVAL;
	if (mm->scan_list)
		return -EBUSY;
	if (start < mm->start || start > mm_end(mm) ||
	    size > mm_end(mm) - start)
		return -ENOSPC;

	/* The only hole that can contain start is the last starting at or before it. */
	for (t = mm->holes_addr; t; ) {
		if (t->hole_start <= start) {
			hole = t;
			t = t->hole_addr_right;
		} else {
			t = t->hole_addr_left;
		}
	}
	if (!hole || start + size > hole->hole_start + hole->hole_size)
		return -ENOSPC;

	place_node(mm, hole, node, start, size);
	return 0;
}

void mm_remove_node(struct mm_node *node)
{
	struct mm *mm = node->mm;
	struct mm_node *prev = node->prev;

	if (!node->allocated)
		return;
	assert(!node->scanned && !mm->scan_list);

	hole_del(mm, prev);
	hole_del(mm, node);
	prev->next = node->next;
	node->next->prev = prev;
	hole_add(mm, prev);

	mm->allocated_bytes -= node->size;
	mm->node_count--;
	node->prev = node->next = NULL;
	node->allocated = false;
}

struct mm_node *mm_first_node(struct mm *mm)
{
	return mm_next_node(mm, &mm->head);
}

struct mm_node *mm_next_node(struct mm *mm, struct mm_node *node)
{
	return node->next == &mm->head ? NULL : node->next;
}

struct mm_node *mm_prev_node(struct mm *mm, struct mm_node *node)
{
	return node->prev == &mm->head ? NULL : node->prev;
}

static int walk_holes(struct mm_node *t,
		      int (*fn)(uint64_t start, uint64_t size, void *data),
		      void *data)
{
	int ret;

	if (!t)
		return 0;
	ret = walk_holes(t->hole_addr_left, fn, data);
	if (ret)
		return ret;
	ret = fn(t->hole_start, t->hole_size, data);
	if (ret)
		return ret;
	return walk_holes(t->hole_addr_right, fn, data);
}

int mm_for_each_hole(struct mm *mm,
		     int (*fn)(uint64_t start, uint64_t size, void *data),
		     void *data)
{
	return walk_holes(mm->holes_addr, fn, data);
}

uint64_t mm_largest_hole(struct mm *mm)
{
	return mm->holes_addr ? mm->holes_addr->hole_max : 0;
}

uint64_t mm_free_bytes(const struct mm *mm)
{
	return mm->size - mm->allocated_bytes;
}

bool mm_clean(const struct mm *mm)
{
	return mm->node_count == 0;
}

void mm_scan_init(struct mm *mm, uint64_t size, uint64_t align)
{
	assert(!mm->scan_list);	/* the last scan was not unwound */
	mm->scan_list = NULL;
	mm->scan_size = size;
	mm->scan_align = align ? align : 1;
	mm->scan_hole_start = mm->scan_hole_end = 0;
	mm->scan_hit_start = 0;
	mm->scan_active = true;
}

/*
 * Take node out of the address list and see whether the hole it leaves
 * (merged with its neighbours' holes and any earlier scanned nodes) can
 * hold the request.  The first hole that can is kept; later adds only
 * report that one was found.
 */
bool mm_scan_add_node(struct mm *mm, struct mm_node *node)
{
	struct mm_node *prev = node->prev;
	struct hole_query q = {
		.size = mm->scan_size,
		.align = mm->scan_align,
		.range_start = mm->start,
		.range_end = mm_end(mm),
		.mode = MM_INSERT_LOW,
	};
	uint64_t start, end;

	assert(node->allocated && !node->scanned && node->mm == mm);
	node->scanned = true;
	prev->next = node->next;
	node->next->prev = prev;
	/* node->prev stays: mm_scan_remove_node relinks after it. */
	node->scan_prev = mm->scan_list;
	mm->scan_list = node;

	if (mm->scan_hole_end > mm->scan_hole_start)
		return true;
	start = node_end(prev);
	end = hole_end_of(mm, prev);
	if (!range_fits(&q, start, end))
		return false;
	mm->scan_hole_start = start;
	mm->scan_hole_end = end;
	mm->scan_hit_start = q.start;
	return true;
}

/*
 * Relink node (the most recently added one still out) and say whether it
 * overlaps the chosen placement, i.e. must really be evicted.  Nodes in
 * the hole but outside [hit, hit + size) can stay.
 */
bool mm_scan_remove_node(struct mm *mm, struct mm_node *node)
{
	struct mm_node *prev = node->prev;
	uint64_t hit_end;

	assert(node->scanned && mm->scan_list == node);
	mm->scan_list = node->scan_prev;
	node->scan_prev = NULL;
	node->scanned = false;
	node->next = prev->next;
	prev->next->prev = node;
	prev->next = node;
	if (!mm->scan_list)
		mm->scan_active = false;

	if (mm->scan_hole_end <= mm->scan_hole_start)
		return false;
	hit_end = mm->scan_hit_start + mm->scan_size;
	return node->start < hit_end && node_end(node) > mm->scan_hit_start;
}

static int dump_range(struct strbuf *sb, uint64_t start, uint64_t end,
		      const char *what)
{
	return strbuf_addf(sb, "0x%08llx-0x%08llx: %llu: %s\n",
			   (unsigned long long)start, (unsigned long long)end,
			   (unsigned long long)(end - start), what);
}

int mm_dump(struct strbuf *sb, struct mm *mm)
{
	size_t oldlen = sb->len;
	uint64_t used = 0, free_bytes = 0;
	struct mm_node *node = &mm->head;
	int ret;

	do {
		uint64_t hs = node_end(node), he = hole_end_of(mm, node);

		if (node != &mm->head) {
			ret = dump_range(sb, node->start, node_end(node), "used");
			if (ret)
				goto out_truncate;
			used += node->size;
		}
		if (he > hs) {
			ret = dump_range(sb, hs, he, "free");
			if (ret)
				goto out_truncate;
			free_bytes += he - hs;
		}
		node = node->next;
	} while (node != &mm->head);

	ret = strbuf_addf(sb, "total: %llu, used %llu free %llu\n",
			  (unsigned long long)(used + free_bytes),
			  (unsigned long long)used,
			  (unsigned long long)free_bytes);
	if (ret)
		goto out_truncate;
	return 0;

out_truncate:
	strbuf_setlen(sb, oldlen);	/* all or nothing, like one append */
	return ret;
}

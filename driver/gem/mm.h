/*
 * A generic range allocator in the spirit of the kernel's drm_mm: it hands
 * out [start, start + size) ranges of an address space.  gemd uses it for
 * the GTT aperture and for carving objects out of shared-memory arenas.
 *
 * Nodes are embedded in the caller's structures; the allocator never
 * allocates memory of its own per node, so insertion cannot fail with
 * -ENOMEM, only -ENOSPC.
 */
#ifndef GEMKIT_MM_H
#define GEMKIT_MM_H

#include <stdbool.h>
#include <stdint.h>

struct strbuf;
struct mm;

struct mm_node {
	uint64_t start;
	uint64_t size;
	/* private */
	struct mm *mm;
	struct mm_node *prev, *next;	/* address-ordered list of allocated nodes */
	struct mm_node *scan_prev;	/* eviction scan list */
	/*
	 * The hole that follows this node (the sentinel's is the one before
	 * the first node), kept while non-empty in two treaps: by address,
	 * augmented with the largest hole of the subtree, and by (size,
	 * address).  hole_start/hole_size are cached tree keys.
	 */
	struct mm_node *hole_addr_left, *hole_addr_right;
	struct mm_node *hole_size_left, *hole_size_right;
	uint64_t hole_start, hole_size, hole_max;
	bool allocated;
	bool scanned;
};

struct mm {
	uint64_t start;
	uint64_t size;
	/* private: sentinel head of the address-ordered node list */
	struct mm_node head;
	struct mm_node *holes_addr, *holes_size;	/* treap roots */
	uint64_t allocated_bytes;
	unsigned int node_count;
	/* scan state */
	struct mm_node *scan_list;
	uint64_t scan_size, scan_align;
	uint64_t scan_hole_start, scan_hole_end;
	uint64_t scan_hit_start;
	bool scan_active;
};

/* Insertion policy. */
enum mm_insert_mode {
	MM_INSERT_BEST,		/* smallest hole that fits */
	MM_INSERT_LOW,		/* lowest address that fits */
	MM_INSERT_HIGH,		/* highest address that fits */
};

void mm_init(struct mm *mm, uint64_t start, uint64_t size);
/* Returns 0, or -EBUSY (and logs nothing) when nodes are still allocated. */
int mm_takedown(struct mm *mm);

/*
 * Find a hole for size bytes aligned to align (0 or 1 = no alignment; any
 * value, not only powers of two) within [range_start, range_end) and insert
 * node there.  Returns 0 or -ENOSPC.  size == 0 returns -EINVAL.
 */
int mm_insert_node_in_range(struct mm *mm, struct mm_node *node,
			    uint64_t size, uint64_t align,
			    uint64_t range_start, uint64_t range_end,
			    enum mm_insert_mode mode);
int mm_insert_node(struct mm *mm, struct mm_node *node, uint64_t size,
		   uint64_t align);
/* Place node at exactly node->start/node->size: 0, -ENOSPC if occupied. */
int mm_reserve_node(struct mm *mm, struct mm_node *node);
void mm_remove_node(struct mm_node *node);
static inline bool mm_node_allocated(const struct mm_node *node)
{
	return node->allocated;
}

/* Walk allocated nodes in address order. */
struct mm_node *mm_first_node(struct mm *mm);
struct mm_node *mm_next_node(struct mm *mm, struct mm_node *node);
struct mm_node *mm_prev_node(struct mm *mm, struct mm_node *node);

/* Holes: calls fn for each free range in address order; stops on non-zero. */
int mm_for_each_hole(struct mm *mm,
		     int (*fn)(uint64_t start, uint64_t size, void *data),
		     void *data);
uint64_t mm_largest_hole(struct mm *mm);
uint64_t mm_free_bytes(const struct mm *mm);
bool mm_clean(const struct mm *mm);	/* no allocated nodes */

/*
 * Eviction scan (drm_mm_init_scan & co): to find a range of size/align
 * that could be freed by evicting some nodes, call mm_scan_init, then add
 * candidate nodes in eviction (LRU) order with mm_scan_add_node until it
 * returns true (a hole big enough would exist if all nodes added so far
 * were gone).  Then every added node MUST be passed to mm_scan_remove_node,
 * in the reverse order of addition; it returns true for the nodes that
 * overlap the found hole and must really be evicted.  Nodes must not be
 * inserted or removed while a scan is active.
 */
void mm_scan_init(struct mm *mm, uint64_t size, uint64_t align);
bool mm_scan_add_node(struct mm *mm, struct mm_node *node);
bool mm_scan_remove_node(struct mm *mm, struct mm_node *node);

/* Print "0x%08llx-0x%08llx: %llu: used|free" lines and a total, as drm_mm_dump_table. */
int mm_dump(struct strbuf *sb, struct mm *mm);

#endif

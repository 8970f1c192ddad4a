/* Marshalling of ioctl arguments between libgem and gemd (see wire.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* F_SEAL_* */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "memfd.h"
#include "usercopy.h"
#include "util.h"
#include "wire.h"

/* A read position in a payload; every segment starts 8-byte aligned. */
struct wire_cursor {
	uint8_t *p;
	size_t left;
};

/*
 * The four halves of moving one ioctl's user memory: the client appends
 * deep copies to the request, gemd points the struct at them (and at
 * scratch room for memory the driver only writes), gemd appends what the
 * driver wrote to the reply, the client copies that back.  Each hook gets
 * its codec, whose data says which fields or layout it works on.
 */
struct wire_codec;
typedef int (*client_pack_fn)(const struct wire_codec *co,
			      struct wire_client_call *c, struct strbuf *extra);
typedef int (*server_unpack_fn)(const struct wire_codec *co,
				struct wire_server_call *c,
				struct wire_cursor *cur);
typedef int (*server_reply_fn)(const struct wire_server_call *c, int result,
			       const struct gem_location *loc,
			       struct strbuf *out);
typedef int (*client_unpack_fn)(struct wire_client_call *c, int result,
				struct wire_cursor *cur);

/*
 * How one kind of struct travels: the user memory it points to, and the
 * pointers to restore in replies.  A codec without hooks (wire_codec_plain)
 * moves the bare struct.  lib/proto/ioctls.def names each ioctl's codec.
 */
struct wire_codec {
	unsigned int scratch;		/* server bytes for write-only memory */
	uint8_t fds;			/* WIRE_FD_IN / WIRE_FD_OUT */
	uint8_t fd_off;			/* where the struct holds the caller's fd */
	uint8_t nptr;			/* user pointers to restore in replies */
	uint8_t ptr_off[3];
	const void *data;		/* the hooks' parameters */
	client_pack_fn client_pack;
	server_unpack_fn server_unpack;
	server_reply_fn server_reply;
	client_unpack_fn client_unpack;
};

/*
 * One ioctl as both sides see it.  kcmd is the request code in the
 * kernel's own table: its size is the struct gemd hands the driver and
 * its direction limits what is copied in and out, as drm_ioctl() does
 * with (cmd & ioctl->cmd & IOC_IN/OUT).
 */
struct wire_ioctl {
	const char *name;
	unsigned int kcmd;
	const struct wire_codec *codec;
};

/* --- payload building blocks ------------------------------------------ */

static uint32_t rd32(const void *base, size_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)base + off, sizeof(v));
	return v;
}

static uint64_t rd64(const void *base, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)base + off, sizeof(v));
	return v;
}

static void wr64(void *base, size_t off, uint64_t v)
{
	memcpy((uint8_t *)base + off, &v, sizeof(v));
}

static void *u64_to_ptr(uint64_t v)
{
	return (void *)(uintptr_t)v;
}

static uint64_t ptr_to_u64(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* Append len bytes and the zero padding that keeps the next segment aligned. */
/* The zero padding after len bytes that keeps the next segment aligned. */
static int add_pad(struct strbuf *sb, size_t len)
{
	static const uint8_t zeros[WIRE_ALIGN];

	return strbuf_add(sb, zeros, ALIGN_UP(len, (size_t)WIRE_ALIGN) - len) ?
	       -ENOMEM : 0;
}

static int add_seg(struct strbuf *sb, const void *data, size_t len)
{
	if (strbuf_add(sb, data, len) || add_pad(sb, len))
		return -ENOMEM;
	return 0;
}

/* Append n bytes of user memory at src as a segment: 0, -EFAULT. */
static int add_user_seg(struct strbuf *sb, const void *src, size_t n)
{
	size_t at = sb->len;

	if (strbuf_grow(sb, ALIGN_UP(n, (size_t)WIRE_ALIGN)))
		return -ENOMEM;
	if (copy_from_user(sb->buf + at, src, n))
		return -EFAULT;
	strbuf_setlen(sb, at + n);
	return add_pad(sb, n);
}

static int add_u64(struct strbuf *sb, uint64_t v)
{
	return strbuf_add(sb, &v, sizeof(v));
}

/* Room for n more u64s at the end of sb, to be written by the caller:
 * where, or NULL.  One growth for an array, not one call per entry (an
 * execbuffer's reply carries up to 2 x 4096 of them). */
static uint8_t *add_u64s(struct strbuf *sb, size_t n)
{
	size_t at = sb->len;

	if (n > SIZE_MAX / sizeof(uint64_t) || strbuf_grow(sb, n * sizeof(uint64_t)))
		return NULL;
	strbuf_setlen(sb, at + n * sizeof(uint64_t));
	return (uint8_t *)sb->buf + at;
}

/* The next n bytes, without consuming them; NULL if the payload is short. */
static void *cur_peek(const struct wire_cursor *cur, uint64_t n)
{
	return n <= cur->left ? cur->p : NULL;
}

/*
 * Consume an n-byte segment and its padding.  n comes from the payload,
 * so it is compared before any arithmetic that could wrap.
 */
static void *cur_take(struct wire_cursor *cur, uint64_t n)
{
	void *p = cur->p;
	size_t step;

	if (n > cur->left)
		return NULL;
	step = ALIGN_UP((size_t)n, (size_t)WIRE_ALIGN);
	if (step > cur->left)
		return NULL;
	cur->p += step;
	cur->left -= step;
	return p;
}

/* Server side of a count * size segment: -EFAULT if the payload is short. */
static int take_array(struct wire_cursor *cur, uint64_t count, size_t size,
		      void **out)
{
	/* callers bound count first, so the product cannot wrap */
	*out = cur_take(cur, count * size);
	return *out ? 0 : -EFAULT;
}

/* --- VERSION and GET_UNIQUE: strings the driver fills ----------------- */

/*
 * gemd lends the driver WIRE_STRING_MAX bytes per non-NULL buffer, so it
 * always writes the whole string; the reply carries it as a u64 byte
 * count plus the bytes, and the client copies what fits into the caller's
 * buffer.  The lengths in the returned struct are the driver's (the full
 * lengths), exactly as drm_copy_field() reports them.
 */
struct str_field {
	uint8_t len_off;
	uint8_t ptr_off;
};

struct str_fields {
	const struct str_field *f;
	size_t n;
	bool all_or_nothing;	/* GET_UNIQUE copies only if it all fits */
};

static const struct str_field version_fields[] = {
	{ offsetof(struct drm_version, name_len), offsetof(struct drm_version, name) },
	{ offsetof(struct drm_version, date_len), offsetof(struct drm_version, date) },
	{ offsetof(struct drm_version, desc_len), offsetof(struct drm_version, desc) },
};

static const struct str_field unique_fields[] = {
	{ offsetof(struct drm_unique, unique_len), offsetof(struct drm_unique, unique) },
};

static const struct str_fields version_strings = {
	version_fields, ARRAY_SIZE(version_fields), false,
};

static const struct str_fields unique_strings = {
	unique_fields, ARRAY_SIZE(unique_fields), true,
};

static int strings_unpack(const struct wire_codec *co,
			  struct wire_server_call *c, struct wire_cursor *cur)
{
	void *karg = c->karg;
	uint8_t *scratch = c->scratch;
	const struct str_fields *sf = co->data;
	size_t i;

	for (i = 0; i < sf->n; i++) {
		if (!rd64(karg, sf->f[i].ptr_off))
			continue;	/* NULL: the driver only sets the length */
		wr64(karg, sf->f[i].ptr_off, ptr_to_u64(scratch + i * WIRE_STRING_MAX));
		wr64(karg, sf->f[i].len_off, WIRE_STRING_MAX);
	}
	return 0;
}

static int strings_reply(const struct wire_server_call *c, int result,
			 const struct gem_location *loc, struct strbuf *out)
{
	const struct str_fields *sf = c->desc->codec->data;
	size_t i;

	for (i = 0; i < sf->n; i++) {
		uint64_t len;

		if (!rd64(c->korig, sf->f[i].ptr_off))
			continue;
		len = MIN(rd64(c->karg, sf->f[i].len_off), (uint64_t)WIRE_STRING_MAX);
		if (add_u64(out, len) ||
		    add_seg(out, c->scratch + i * WIRE_STRING_MAX, len))
			return -ENOMEM;
	}
	return 0;
}

static int strings_client(struct wire_client_call *c, int result,
			  struct wire_cursor *cur)
{
	const struct str_fields *sf = c->desc->codec->data;
	size_t i;

	for (i = 0; i < sf->n; i++) {
		uint64_t room = rd64(c->kx, sf->f[i].len_off);
		char *buf = u64_to_ptr(rd64(c->kx, sf->f[i].ptr_off));
		uint64_t *lenp, len;
		void *data;

		if (!buf)
			continue;
		lenp = cur_take(cur, sizeof(*lenp));
		if (!lenp)
			return -EIO;
		memcpy(&len, lenp, sizeof(len));
		if (len > WIRE_STRING_MAX)
			return -EIO;
		data = cur_take(cur, len);
		if (!data)
			return -EIO;
		if (sf->all_or_nothing && len > room)
			continue;
		/* drm_copy_field's copy_to_user */
		if (copy_to_user(buf, data, MIN(len, room)))
			return -EFAULT;
	}
	return 0;
}

/* --- GETPARAM: int *value, written only on success -------------------- */

#define GETPARAM_VALUE	offsetof(struct drm_i915_getparam, value)

static int getparam_unpack(const struct wire_codec *co,
			   struct wire_server_call *c, struct wire_cursor *cur)
{
	void *karg = c->karg;
	uint8_t *scratch = c->scratch;
	if (rd64(karg, GETPARAM_VALUE))
		wr64(karg, GETPARAM_VALUE, ptr_to_u64(scratch));
	return 0;
}

static int getparam_reply(const struct wire_server_call *c, int result,
			  const struct gem_location *loc, struct strbuf *out)
{
	if (result < 0 || !rd64(c->korig, GETPARAM_VALUE))
		return 0;
	return add_seg(out, c->scratch, sizeof(int));
}

static int getparam_client(struct wire_client_call *c, int result,
			   struct wire_cursor *cur)
{
	int *value = u64_to_ptr(rd64(c->kx, GETPARAM_VALUE));
	void *p;

	if (result < 0 || !value)
		return 0;
	p = cur_take(cur, sizeof(int));
	if (!p)
		return -EIO;
	return copy_to_user(value, p, sizeof(int));	/* put_user */
}

/* --- EXECBUFFER and EXECBUFFER2: object list, relocations ------------- */

/*
 * Both versions start with buffers_ptr and buffer_count and their object
 * entries differ only in size and field offsets, so one walk serves both.
 * The payload holds the object array, then each object's relocations in
 * object order; the reply holds every object's offset, then every
 * relocation's presumed_offset, in the same order.
 *
 * Relocation arrays of more than WIRE_RELOC_INLINE_MAX bytes in all travel
 * out of line instead, the same entries in the same order in a memfd
 * (sealed against shrinking and growing) sent with the request: gemd maps
 * it shared, the driver writes presumed_offset there, and the client
 * copies them back from its own map.  The payload then holds the objects
 * alone and the reply their offsets alone.
 */
struct exec_layout {
	size_t obj_size;
	size_t count_off;	/* relocation_count */
	size_t relocs_off;	/* relocs_ptr */
	size_t offset_off;	/* offset */
};

#define EXEC_BUFFERS	offsetof(struct drm_i915_gem_execbuffer2, buffers_ptr)
#define EXEC_COUNT	offsetof(struct drm_i915_gem_execbuffer2, buffer_count)
#define RELOC_SIZE	sizeof(struct drm_i915_gem_relocation_entry)
#define RELOC_PRESUMED	offsetof(struct drm_i915_gem_relocation_entry, presumed_offset)

_Static_assert(offsetof(struct drm_i915_gem_execbuffer, buffers_ptr) == EXEC_BUFFERS &&
	       offsetof(struct drm_i915_gem_execbuffer, buffer_count) == EXEC_COUNT,
	       "execbuffer v1 and v2 must share their head");

static const struct exec_layout exec1_layout = {
	sizeof(struct drm_i915_gem_exec_object),
	offsetof(struct drm_i915_gem_exec_object, relocation_count),
	offsetof(struct drm_i915_gem_exec_object, relocs_ptr),
	offsetof(struct drm_i915_gem_exec_object, offset),
};

static const struct exec_layout exec2_layout = {
	sizeof(struct drm_i915_gem_exec_object2),
	offsetof(struct drm_i915_gem_exec_object2, relocation_count),
	offsetof(struct drm_i915_gem_exec_object2, relocs_ptr),
	offsetof(struct drm_i915_gem_exec_object2, offset),
};

/*
 * The rules both sides apply, in the same order: buffer_count bounded;
 * no object array if buffers_ptr is NULL (the driver judges that); per
 * object, a NULL relocs_ptr with relocations is -EFAULT (the kernel's
 * copy_from_user would fault), and in the payload relocation_count is
 * bounded.
 */
static int exec_check_relocs(uint32_t count, uint64_t ptr)
{
	if (!ptr && count)
		return -EFAULT;
	if (count > WIRE_MAX_RELOCS)
		return -EINVAL;
	return 0;
}

/* Bytes of all the relocation arrays objs points to: 0 or -EFAULT. */
static int exec_reloc_bytes(const struct exec_layout *l, const uint8_t *objs,
			    uint32_t count, uint64_t *total)
{
	uint32_t i;

	*total = 0;
	for (i = 0; i < count; i++) {
		const uint8_t *obj = objs + (size_t)i * l->obj_size;
		uint32_t n = rd32(obj, l->count_off);

		if (!rd64(obj, l->relocs_off) && n)
			return -EFAULT;
		if (rd64(obj, l->relocs_off))
			*total += (uint64_t)n * RELOC_SIZE;
	}
	return 0;
}

/* Every relocation array, each in its padded segment after the objects. */
static int exec_pack_inline(const struct exec_layout *l, struct strbuf *extra,
			    size_t start, uint32_t count)
{
	size_t total = extra->len, at;
	struct iovec *local, *user;
	uint32_t i, nseg = 0;
	int ret;

	for (i = 0; i < count; i++) {
		const uint8_t *obj = (uint8_t *)extra->buf + start + (size_t)i * l->obj_size;

		if (!rd64(obj, l->relocs_off))
			continue;
		total += ALIGN_UP((size_t)rd32(obj, l->count_off) * RELOC_SIZE,
				  (size_t)WIRE_ALIGN);
		nseg++;
	}
	/* All relocation arrays in one go (process_vm_readv takes 1024
	 * ranges a call), into their padded segments. */
	local = malloc(2 * (size_t)nseg * sizeof(*local));
	if (!local || strbuf_grow(extra, total - extra->len)) {
		free(local);
		return -ENOMEM;
	}
	user = local + nseg;
	memset(extra->buf + extra->len, 0, total - extra->len);
	at = extra->len;
	for (i = 0, nseg = 0; i < count; i++) {
		const uint8_t *obj = (uint8_t *)extra->buf + start + (size_t)i * l->obj_size;
		size_t bytes = (size_t)rd32(obj, l->count_off) * RELOC_SIZE;
		uint64_t relocs = rd64(obj, l->relocs_off);

		if (!relocs)
			continue;
		local[nseg] = (struct iovec){ extra->buf + at, bytes };
		user[nseg] = (struct iovec){ u64_to_ptr(relocs), bytes };
		at += ALIGN_UP(bytes, (size_t)WIRE_ALIGN);
		nseg++;
	}
	ret = copy_from_user_iov(local, user, nseg) == nseg ? 0 : -EFAULT;
	free(local);
	if (!ret)
		strbuf_setlen(extra, total);
	return ret;
}

/*
 * Out of line: all relocation arrays, back to back in object order, in a
 * memfd of exactly their size.  Copied in pieces of OOL_PIECE, OOL_IOVS a
 * call, so that no call asks for more than process_vm_readv moves at once
 * (MAX_RW_COUNT, 2 GiB).
 */
#define OOL_SEALS	(F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)
#define OOL_PIECE	((size_t)16 << 20)
#define OOL_IOVS	64

static int exec_pack_ool(const struct exec_layout *l, struct wire_client_call *c,
			 const uint8_t *objs, uint32_t count, uint64_t total)
{
	struct iovec local[OOL_IOVS], user[OOL_IOVS];
	uint64_t at = 0;
	size_t k = 0;
	uint32_t i;
	void *map;
	int fd;

	if (total > SIZE_MAX)
		return -ENOMEM;
	/* Whatever stops it, the kernel's allocation for them would fail. */
	fd = memfd_create_sealed("gemkit-relocs", total, OOL_SEALS);
	if (fd < 0)
		return -ENOMEM;
	map = mmap(NULL, (size_t)total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		close(fd);
		return -ENOMEM;
	}
	c->ool_fd = fd;
	c->ool = map;
	c->ool_len = total;
	for (i = 0; i < count; i++) {
		const uint8_t *obj = objs + (size_t)i * l->obj_size;
		uintptr_t src = (uintptr_t)rd64(obj, l->relocs_off);
		uint64_t left = (uint64_t)rd32(obj, l->count_off) * RELOC_SIZE;

		while (src && left) {
			size_t piece = (size_t)MIN(left, (uint64_t)OOL_PIECE);

			local[k] = (struct iovec){ c->ool + at, piece };
			user[k] = (struct iovec){ (void *)src, piece };
			at += piece;
			src += piece;
			left -= piece;
			if (++k < OOL_IOVS)
				continue;
			if (copy_from_user_iov(local, user, k) != k)
				goto out_fault;
			k = 0;
		}
	}
	if (copy_from_user_iov(local, user, k) != k)
		goto out_fault;
	return 0;

out_fault:
	wire_client_release(c);
	return -EFAULT;
}

/*
 * The object array and every relocation array are copied from the
 * caller's memory as the kernel copies them: an unreadable one is
 * -EFAULT.  Read-only memory is fine (writing back is best effort).
 */
static int exec_pack(const struct wire_codec *co,
		     struct wire_client_call *c, struct strbuf *extra)
{
	const struct exec_layout *l = co->data;
	const uint8_t *uobjs = u64_to_ptr(rd64(c->kx, EXEC_BUFFERS));
	uint32_t count = rd32(c->kx, EXEC_COUNT);
	size_t start = extra->len;
	uint64_t total;
	int ret;

	if (count > WIRE_MAX_BUFFERS)
		return -EINVAL;
	if (!uobjs)
		return 0;
	ret = add_user_seg(extra, uobjs, (size_t)count * l->obj_size);
	if (ret)
		return ret;
	/* Our copy of the objects says where the relocations are: the
	 * caller may change theirs meanwhile. */
	ret = exec_reloc_bytes(l, (uint8_t *)extra->buf + start, count, &total);
	if (ret || !total)
		return ret;
	if (total > WIRE_RELOC_INLINE_MAX)
		return exec_pack_ool(l, c, (uint8_t *)extra->buf + start, count, total);
	return exec_pack_inline(l, extra, start, count);
}

/*
 * The memfd must be shmem that cannot shrink under gemd (a page that went
 * away would SIGBUS it), exactly as big as the counts say; its pages are
 * the client's, which keeps its descriptor and may write them any time,
 * so the driver reads each entry once (execbuffer.c).
 */
static int exec_map_ool(const struct exec_layout *l, struct wire_server_call *c,
			uint8_t *objs, uint32_t count)
{
	uint64_t total, size, at = 0;
	uint32_t i;
	int seals, ret;
	void *map;

	ret = exec_reloc_bytes(l, objs, count, &total);
	if (ret)
		return ret;
	seals = memfd_shmem_seals(c->fd, &size);
	if (seals < 0 || !(seals & F_SEAL_SHRINK) || !total || size != total ||
	    total > SIZE_MAX)
		return -EINVAL;
	map = mmap(NULL, (size_t)total, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	/* Other than ENOMEM: opened read-only, or sealed against writes. */
	if (map == MAP_FAILED)
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	c->ool = map;
	c->ool_len = total;
	for (i = 0; i < count; i++) {
		uint8_t *obj = objs + (size_t)i * l->obj_size;

		if (!rd64(obj, l->relocs_off))
			continue;
		wr64(obj, l->relocs_off, ptr_to_u64(c->ool + at));
		at += (uint64_t)rd32(obj, l->count_off) * RELOC_SIZE;
	}
	return 0;
}

/* Each object's relocations from its segment in the payload. */
static int exec_take_relocs(const struct exec_layout *l, struct wire_cursor *cur,
			    uint8_t *objs, uint32_t count)
{
	uint32_t i;
	void *relocs;
	int ret;

	for (i = 0; i < count; i++) {
		uint8_t *obj = objs + (size_t)i * l->obj_size;
		uint32_t n = rd32(obj, l->count_off);

		ret = exec_check_relocs(n, rd64(obj, l->relocs_off));
		if (ret)
			return ret;
		if (!rd64(obj, l->relocs_off))
			continue;
		ret = take_array(cur, n, RELOC_SIZE, &relocs);
		if (ret)
			return ret;
		wr64(obj, l->relocs_off, ptr_to_u64(relocs));
	}
	return 0;
}

static int exec_unpack(const struct wire_codec *co,
		       struct wire_server_call *c, struct wire_cursor *cur)
{
	const struct exec_layout *l = co->data;
	uint32_t count = rd32(c->karg, EXEC_COUNT);
	void *objs;
	int ret;

	if (count > WIRE_MAX_BUFFERS)
		return -EINVAL;
	if (!rd64(c->karg, EXEC_BUFFERS))
		return c->fd >= 0 ? -EINVAL : 0;
	ret = take_array(cur, count, l->obj_size, &objs);
	if (ret)
		return ret;
	ret = c->fd >= 0 ? exec_map_ool(l, c, objs, count) :
			   exec_take_relocs(l, cur, objs, count);
	if (ret)
		return ret;
	wr64(c->karg, EXEC_BUFFERS, ptr_to_u64(objs));
	return 0;
}

/*
 * Walk the payload again (it is what the driver read and wrote) rather
 * than trusting anything the driver may have changed: every step is
 * bounds-checked, so a driver bug cannot make gemd read outside it.
 * Out-of-line relocations have their presumed_offset in the memfd.
 */
static int exec_reply(const struct wire_server_call *c, int result,
		      const struct gem_location *loc, struct strbuf *out)
{
	const struct exec_layout *l = c->desc->codec->data;
	struct wire_cursor cur = { c->extra, c->extra_len };
	uint32_t count = rd32(c->korig, EXEC_COUNT), i, j;
	uint8_t *objs, *relocs, *dst;

	if (!rd64(c->korig, EXEC_BUFFERS))
		return 0;
	objs = cur_take(&cur, (uint64_t)count * l->obj_size);
	if (!objs)
		return -EIO;
	dst = add_u64s(out, count);
	if (!dst)
		return -ENOMEM;
	for (i = 0; i < count; i++)
		wr64(dst, (size_t)i * sizeof(uint64_t),
		     rd64(objs + (size_t)i * l->obj_size, l->offset_off));
	for (i = 0; i < count && !c->ool; i++) {
		const uint8_t *obj = objs + (size_t)i * l->obj_size;
		uint32_t n = rd32(obj, l->count_off);

		if (!rd64(obj, l->relocs_off))
			continue;
		relocs = cur_take(&cur, (uint64_t)n * RELOC_SIZE);
		if (!relocs)
			return -EIO;
		dst = add_u64s(out, n);
		if (!dst)
			return -ENOMEM;
		for (j = 0; j < n; j++)
			wr64(dst, (size_t)j * sizeof(uint64_t),
			     rd64(relocs + (size_t)j * RELOC_SIZE, RELOC_PRESUMED));
	}
	return 0;
}

/*
 * Best-effort writes of u64s into the caller's memory, PUT_BATCH a system
 * call.  A write that fails (a read-only page) is skipped with the rest of
 * its page, as each of the kernel's __put_user calls fails there on its
 * own: 4 GiB of read-only relocations cost a call per page, not per entry.
 */
#define PUT_BATCH	256

struct put_batch {
	struct iovec local[PUT_BATCH];
	struct iovec user[PUT_BATCH];
	size_t n;
};

static void put_flush(struct put_batch *b)
{
	size_t k = 0;

	while (k < b->n) {
		uintptr_t page;

		k += copy_to_user_iov(b->local + k, b->user + k, b->n - k);
		if (k == b->n)
			break;
		page = (uintptr_t)b->user[k].iov_base & ~(uintptr_t)4095;
		while (k < b->n && ((uintptr_t)b->user[k].iov_base & ~(uintptr_t)4095) == page)
			k++;
	}
	b->n = 0;
}

static void put_u64(struct put_batch *b, void *user, const void *val)
{
	b->local[b->n] = (struct iovec){ (void *)val, sizeof(uint64_t) };
	b->user[b->n] = (struct iovec){ user, sizeof(uint64_t) };
	if (++b->n == PUT_BATCH)
		put_flush(b);
}

/* val into the caller's memory at user, unless it is what was sent. */
static void put_changed(struct put_batch *b, void *user, const void *val,
			const void *sent)
{
	if (!sent || memcmp(val, sent, sizeof(uint64_t)))
		put_u64(b, user, val);
}

/*
 * Write back the offsets and presumed_offsets that changed, each failure
 * ignored, as the kernel's unsafe_put_user/__put_user are: an execbuffer
 * with read-only object or relocation arrays succeeds, and one that moved
 * nothing writes nothing (the per-entry writes were most of an unmoved
 * execbuffer's cost: IGT's gem_exec_lut_handle measured 400 ns per
 * relocation).  The layout is walked in our packed copy (c->extra), not
 * the caller's, which also holds what was sent.  presumed_offset comes
 * from the reply, or from the memfd when the relocations went out of line
 * (which the driver wrote over: every one is written back).
 */
static int exec_client(struct wire_client_call *c, int result,
		       struct wire_cursor *cur)
{
	const struct exec_layout *l = c->desc->codec->data;
	uint8_t *uobjs = u64_to_ptr(rd64(c->kx, EXEC_BUFFERS));
	uint32_t count = rd32(c->kx, EXEC_COUNT), i, j;
	const uint8_t *objs = (const uint8_t *)c->extra->buf;
	const uint8_t *vals, *presumed, *sent = NULL;
	size_t stride = sizeof(uint64_t), head;
	struct put_batch *b;
	uint64_t n = 0;

	if (!uobjs)
		return 0;
	head = ALIGN_UP((size_t)count * l->obj_size, (size_t)WIRE_ALIGN);
	if (c->extra->len < (size_t)count * l->obj_size)
		return -EIO;
	vals = cur_take(cur, (uint64_t)count * sizeof(uint64_t));
	if (!vals)
		return -EIO;
	for (i = 0; i < count; i++)
		if (rd64(objs + (size_t)i * l->obj_size, l->relocs_off))
			n += rd32(objs + (size_t)i * l->obj_size, l->count_off);
	if (c->ool) {
		presumed = c->ool + RELOC_PRESUMED;
		stride = RELOC_SIZE;
	} else {
		presumed = cur_take(cur, n * sizeof(uint64_t));
		/* the segments sent, back to back (32-byte entries pad nothing) */
		if (!presumed || (n && c->extra->len < head + n * RELOC_SIZE))
			return -EIO;
		sent = objs + head + RELOC_PRESUMED;
	}
	b = malloc(sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->n = 0;
	for (i = 0; i < count; i++)
		put_changed(b, uobjs + (size_t)i * l->obj_size + l->offset_off,
			    vals + (size_t)i * sizeof(uint64_t),
			    objs + (size_t)i * l->obj_size + l->offset_off);
	for (i = 0; i < count; i++) {
		const uint8_t *obj = objs + (size_t)i * l->obj_size;
		uint8_t *relocs = u64_to_ptr(rd64(obj, l->relocs_off));
		uint32_t nr = rd32(obj, l->count_off);

		for (j = 0; relocs && j < nr; j++, presumed += stride) {
			put_changed(b, relocs + (size_t)j * RELOC_SIZE + RELOC_PRESUMED,
				    presumed, sent);
			if (sent)
				sent += RELOC_SIZE;
		}
	}
	put_flush(b);
	free(b);
	return 0;
}

/* --- CREATE_EXT: the i915_user_extension chain ------------------------- */

/*
 * Each link travels as its whole struct when gemd knows the extension
 * name (MEMORY_REGIONS, followed by its regions array; PROTECTED_CONTENT,
 * for its flags) and as the base
 * i915_user_extension otherwise: the driver rejects unknown names, so
 * their bodies are never read.  A non-zero next_extension only says that
 * another link follows; gemd relinks the copies itself, so a client
 * cannot build a loop or point outside the payload.
 */
#define CREATE_EXT_EXTENSIONS	offsetof(struct drm_i915_gem_create_ext, extensions)
#define EXT_NEXT		offsetof(struct i915_user_extension, next_extension)

static size_t ext_size(uint32_t name)
{
	if (name == I915_GEM_CREATE_EXT_MEMORY_REGIONS)
		return sizeof(struct drm_i915_gem_create_ext_memory_regions);
	if (name == I915_GEM_CREATE_EXT_PROTECTED_CONTENT)
		return sizeof(struct drm_i915_gem_create_ext_protected_content);
	return sizeof(struct i915_user_extension);
}

static int regions_check(const struct drm_i915_gem_create_ext_memory_regions *mr)
{
	return mr->num_regions > WIRE_MAX_REGIONS ? -EINVAL : 0;
}

static int create_ext_pack(const struct wire_codec *co,
			   struct wire_client_call *c, struct strbuf *extra)
{
	const void *kx = c->kx;
	uint64_t next = rd64(kx, CREATE_EXT_EXTENSIONS);
	unsigned int n;
	int ret;

	for (n = 0; next; n++) {
		struct drm_i915_gem_create_ext_memory_regions mr;

		if (n >= WIRE_MAX_EXTENSIONS)
			return -E2BIG;	/* as i915_user_extensions() on a long chain */
		/* get_user of the header, then the whole extension. */
		if (copy_from_user(&mr.base, u64_to_ptr(next), sizeof(mr.base)))
			return -EFAULT;
		ret = add_user_seg(extra, u64_to_ptr(next), ext_size(mr.base.name));
		if (ret)
			return ret;
		if (mr.base.name == I915_GEM_CREATE_EXT_MEMORY_REGIONS) {
			memcpy(&mr, extra->buf + extra->len -
			       ALIGN_UP(sizeof(mr), (size_t)WIRE_ALIGN), sizeof(mr));
			if (mr.regions) {
				ret = regions_check(&mr);
				if (!ret)
					ret = add_user_seg(extra, u64_to_ptr(mr.regions),
							   (size_t)mr.num_regions *
							   sizeof(struct drm_i915_gem_memory_class_instance));
				if (ret)
					return ret;
			}
		}
		next = mr.base.next_extension;
	}
	return 0;
}

static int create_ext_unpack(const struct wire_codec *co,
			     struct wire_server_call *c,
			     struct wire_cursor *cur)
{
	void *karg = c->karg;
	uint64_t next = rd64(karg, CREATE_EXT_EXTENSIONS);
	void *link = karg;			/* where the current pointer lives */
	size_t link_off = CREATE_EXT_EXTENSIONS;
	unsigned int n;
	void *regions;
	int ret;

	for (n = 0; next; n++) {
		struct i915_user_extension *ext;
		struct drm_i915_gem_create_ext_memory_regions *mr;

		if (n >= WIRE_MAX_EXTENSIONS)
			return -E2BIG;
		ext = cur_peek(cur, sizeof(*ext));
		if (!ext)
			return -EFAULT;
		ext = cur_take(cur, ext_size(ext->name));
		if (!ext)
			return -EFAULT;
		wr64(link, link_off, ptr_to_u64(ext));
		next = ext->next_extension;
		link = ext;
		link_off = EXT_NEXT;
		if (ext->name != I915_GEM_CREATE_EXT_MEMORY_REGIONS)
			continue;
		mr = (void *)ext;
		if (!mr->regions)
			continue;
		ret = regions_check(mr);
		if (!ret)
			ret = take_array(cur, mr->num_regions,
					 sizeof(struct drm_i915_gem_memory_class_instance),
					 &regions);
		if (ret)
			return ret;
		mr->regions = ptr_to_u64(regions);
	}
	return 0;
}

/* --- QUERY: an item array, each item's data buffer --------------------- */

/*
 * The payload holds the item array, then for each item with a positive
 * length and a data pointer min(length, WIRE_QUERY_DATA_MAX) bytes of its
 * buffer (the driver writes at most a few hundred).  An item whose buffer
 * the client could not read travels with a NULL data_ptr, which the
 * driver answers with -EFAULT in its length, as copy_from_user would.
 * The reply holds every item's resulting length, then, for each item
 * that lent a buffer and succeeded, the result's length of bytes.
 */
#define QUERY_ITEMS	offsetof(struct drm_i915_query, items_ptr)
#define QUERY_COUNT	offsetof(struct drm_i915_query, num_items)
#define QUERY_ITEM	sizeof(struct drm_i915_query_item)

static uint32_t query_seg(const struct drm_i915_query_item *item)
{
	if (item->length <= 0 || !item->data_ptr)
		return 0;
	return MIN((uint32_t)item->length, WIRE_QUERY_DATA_MAX);
}

static int query_pack(const struct wire_codec *co,
		      struct wire_client_call *c, struct strbuf *extra)
{
	const void *kx = c->kx;
	const void *uitems = u64_to_ptr(rd64(kx, QUERY_ITEMS));
	uint32_t count = rd32(kx, QUERY_COUNT), i;
	size_t start = extra->len;
	int ret;

	if (count > WIRE_MAX_QUERY_ITEMS)
		return -EINVAL;
	if (!uitems || !count)
		return 0;
	ret = add_user_seg(extra, uitems, (size_t)count * QUERY_ITEM);
	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		struct drm_i915_query_item item;
		uint32_t n;

		memcpy(&item, extra->buf + start + i * QUERY_ITEM, sizeof(item));
		n = query_seg(&item);
		if (!n)
			continue;
		ret = add_user_seg(extra, u64_to_ptr(item.data_ptr), n);
		if (ret == -EFAULT) {
			/* Unreadable: the driver sees NULL and says -EFAULT. */
			item.data_ptr = 0;
			memcpy(extra->buf + start + i * QUERY_ITEM, &item, sizeof(item));
		} else if (ret) {
			return ret;
		}
	}
	return 0;
}

static int query_unpack(const struct wire_codec *co,
			struct wire_server_call *c, struct wire_cursor *cur)
{
	void *karg = c->karg;
	uint32_t count = rd32(karg, QUERY_COUNT), i;
	struct drm_i915_query_item *items;
	void *data;
	int ret;

	if (count > WIRE_MAX_QUERY_ITEMS)
		return -EINVAL;
	if (!rd64(karg, QUERY_ITEMS) || !count)
		return 0;
	ret = take_array(cur, count, QUERY_ITEM, (void **)&items);
	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		uint32_t n = query_seg(&items[i]);

		/* No buffer lent: nothing the driver may touch. */
		items[i].data_ptr = 0;
		if (!n)
			continue;
		ret = take_array(cur, n, 1, &data);
		if (ret)
			return ret;
		items[i].data_ptr = ptr_to_u64(data);
		/* The driver writes no more than it was lent. */
		if ((uint32_t)items[i].length > n)
			items[i].length = (int32_t)n;
	}
	wr64(karg, QUERY_ITEMS, ptr_to_u64(items));
	return 0;
}

static int query_reply(const struct wire_server_call *c, int result,
		       const struct gem_location *loc, struct strbuf *out)
{
	struct wire_cursor cur = { c->extra, c->extra_len };
	uint32_t count = rd32(c->korig, QUERY_COUNT), i;
	const struct drm_i915_query_item *items;

	/* A failed call (a query id of 0) hands nothing back. */
	if (result < 0 || !rd64(c->korig, QUERY_ITEMS) || !count)
		return 0;
	items = cur_take(&cur, (uint64_t)count * QUERY_ITEM);
	if (!items)
		return -EIO;
	for (i = 0; i < count; i++)
		if (add_u64(out, (uint64_t)(int64_t)items[i].length))
			return -ENOMEM;
	for (i = 0; i < count; i++) {
		const uint8_t *data = u64_to_ptr(items[i].data_ptr);
		const uint8_t *end = c->extra + c->extra_len;

		if (!data || items[i].length <= 0)
			continue;
		if (data < c->extra || data > end ||
		    (size_t)items[i].length > (size_t)(end - data))
			return -EIO;
		if (add_seg(out, data, (size_t)items[i].length))
			return -ENOMEM;
	}
	return 0;
}

static int query_client(struct wire_client_call *c, int result,
			struct wire_cursor *cur)
{
	struct drm_i915_query_item *uitems = u64_to_ptr(rd64(c->kx, QUERY_ITEMS));
	uint32_t count = rd32(c->kx, QUERY_COUNT), i;
	const uint8_t *packed, *lengths;

	if (result < 0 || !uitems || !count)
		return 0;
	packed = (const uint8_t *)c->extra->buf;
	lengths = cur_take(cur, (uint64_t)count * sizeof(uint64_t));
	if (!lengths || c->extra->len < (size_t)count * QUERY_ITEM)
		return -EIO;
	for (i = 0; i < count; i++) {
		struct drm_i915_query_item item;
		int32_t len = (int32_t)rd64(lengths, i * sizeof(uint64_t));
		void *data;

		memcpy(&item, packed + i * QUERY_ITEM, sizeof(item));
		if (query_seg(&item) && len > 0) {
			data = cur_take(cur, (uint64_t)len);
			if (!data)
				return -EIO;
			if (copy_to_user(u64_to_ptr(item.data_ptr), data, (size_t)len))
				len = -EFAULT;
		}
		/* Written back only when it changed, as i915_query_ioctl. */
		if (len != item.length &&
		    copy_to_user(&uitems[i].length, &len, sizeof(len)))
			return -EFAULT;
	}
	return 0;
}

/* --- MMAP_OFFSET: the extension chain ----------------------------------- */

/*
 * i915_user_extensions() with no extension known: an unreadable first
 * link is -EFAULT, any readable one -EINVAL (the driver's answer, as it
 * never reads the chain).  Only the readability travels: nothing else.
 */
#define MMAP_OFFSET_EXTENSIONS	offsetof(struct drm_i915_gem_mmap_offset, extensions)

static int mmap_offset_pack(const struct wire_codec *co,
			    struct wire_client_call *c, struct strbuf *extra)
{
	const void *kx = c->kx;
	struct i915_user_extension ext;
	uint64_t ptr = rd64(kx, MMAP_OFFSET_EXTENSIONS);

	if (ptr && copy_from_user(&ext, u64_to_ptr(ptr), sizeof(ext)))
		return -EFAULT;
	return 0;
}

/* --- PREAD, PWRITE, MMAP: the client copies or maps itself ------------ */

static int loc_reply(const struct wire_server_call *c, int result,
		     const struct gem_location *loc, struct strbuf *out)
{
	return loc ? add_seg(out, loc, sizeof(*loc)) : 0;
}

static int loc_client(struct wire_client_call *c, int result,
		      struct wire_cursor *cur)
{
	void *p;

	if (!cur->left)
		return 0;
	p = cur_take(cur, sizeof(c->loc));
	if (!p)
		return -EIO;
	memcpy(&c->loc, p, sizeof(c->loc));
	c->has_loc = true;
	return 0;
}

/* --- the codecs and the table ------------------------------------------ */

static const struct wire_codec wire_codec_plain = { .scratch = 0 };

static const struct wire_codec wire_codec_version = {
	.scratch = ARRAY_SIZE(version_fields) * WIRE_STRING_MAX,
	.nptr = 3, .ptr_off = { offsetof(struct drm_version, name),
				offsetof(struct drm_version, date),
				offsetof(struct drm_version, desc) },
	.data = &version_strings,
	.server_unpack = strings_unpack, .server_reply = strings_reply,
	.client_unpack = strings_client,
};

static const struct wire_codec wire_codec_unique = {
	.scratch = WIRE_STRING_MAX,
	.nptr = 1, .ptr_off = { offsetof(struct drm_unique, unique) },
	.data = &unique_strings,
	.server_unpack = strings_unpack, .server_reply = strings_reply,
	.client_unpack = strings_client,
};

static const struct wire_codec wire_codec_getparam = {
	.scratch = WIRE_ALIGN, .nptr = 1, .ptr_off = { GETPARAM_VALUE },
	.server_unpack = getparam_unpack, .server_reply = getparam_reply,
	.client_unpack = getparam_client,
};

static const struct wire_codec wire_codec_exec1 = {
	.nptr = 1, .ptr_off = { EXEC_BUFFERS }, .data = &exec1_layout,
	.client_pack = exec_pack, .server_unpack = exec_unpack,
	.server_reply = exec_reply, .client_unpack = exec_client,
};

static const struct wire_codec wire_codec_exec2 = {
	.nptr = 1, .ptr_off = { EXEC_BUFFERS }, .data = &exec2_layout,
	.client_pack = exec_pack, .server_unpack = exec_unpack,
	.server_reply = exec_reply, .client_unpack = exec_client,
};

static const struct wire_codec wire_codec_location = {
	.server_reply = loc_reply, .client_unpack = loc_client,
};

static const struct wire_codec wire_codec_mmap_offset = {
	.client_pack = mmap_offset_pack,
};

static const struct wire_codec wire_codec_query = {
	.nptr = 1, .ptr_off = { QUERY_ITEMS },
	.client_pack = query_pack, .server_unpack = query_unpack,
	.server_reply = query_reply, .client_unpack = query_client,
};

/* PRIME: the struct's fd is the caller's number; the descriptor itself
 * rides along with SCM_RIGHTS (wire_call's pass_fd and want_fd). */
static const struct wire_codec wire_codec_prime_export = {
	.fds = WIRE_FD_OUT, .fd_off = offsetof(struct drm_prime_handle, fd),
	.server_reply = loc_reply, .client_unpack = loc_client,
};

static const struct wire_codec wire_codec_prime_import = {
	.fds = WIRE_FD_IN, .fd_off = offsetof(struct drm_prime_handle, fd),
};

static const struct wire_codec wire_codec_create_ext = {
	.nptr = 1, .ptr_off = { CREATE_EXT_EXTENSIONS },
	.client_pack = create_ext_pack, .server_unpack = create_ext_unpack,
};

/* Expanded from the one list; the handler and flags columns are the
 * driver's (driver/gem/ioctl.c). */
#define IOCTL(name_, kcmd_, handler, flags, codec_) \
	[_IOC_NR(kcmd_)] = { .name = #name_, .kcmd = kcmd_, .codec = &codec_ },
static const struct wire_ioctl wire_ioctls[256] = {
#include "ioctls.def"
};
#undef IOCTL

_Static_assert(sizeof(struct drm_version) <= WIRE_KARG_MAX &&
	       sizeof(struct drm_i915_gem_execbuffer2) <= WIRE_KARG_MAX &&
	       sizeof(struct drm_i915_gem_mmap) <= WIRE_KARG_MAX,
	       "structs with hooks must fit wire_client_call.kx");

const struct wire_ioctl *wire_ioctl_find(unsigned int cmd)
{
	const struct wire_ioctl *d;

	if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
		return NULL;
	d = &wire_ioctls[_IOC_NR(cmd)];
	return d->name ? d : NULL;
}

const char *wire_ioctl_name(unsigned int cmd)
{
	const struct wire_ioctl *d = wire_ioctl_find(cmd);

	return d ? d->name : "?";
}

int wire_ioctl_size(unsigned int cmd)
{
	const struct wire_ioctl *d = wire_ioctl_find(cmd);

	return d ? (int)_IOC_SIZE(d->kcmd) : -EINVAL;
}

unsigned int wire_ioctl_fds(unsigned int cmd)
{
	const struct wire_ioctl *d = wire_ioctl_find(cmd);

	return d ? d->codec->fds : 0;
}

static bool has_hooks(const struct wire_ioctl *d)
{
	const struct wire_codec *co = d->codec;

	return co->client_pack || co->client_unpack || co->server_unpack ||
	       co->server_reply;
}

/* drm_ioctl(): copy in/out only what both request codes agree on. */
static bool both_dirs(unsigned int cmd, unsigned int kcmd, unsigned int dir)
{
	return (_IOC_DIR(cmd) & _IOC_DIR(kcmd) & dir) != 0;
}

/* Struct bytes at the head of a request payload: the caller's choice. */
static uint32_t payload_struct_size(unsigned int cmd)
{
	return (_IOC_DIR(cmd) & _IOC_WRITE) ? _IOC_SIZE(cmd) : 0;
}

/* --- client side ---------------------------------------------------- */

int wire_client_pack(struct wire_client_call *c, unsigned int cmd, void *arg,
		     struct strbuf *extra)
{
	const struct wire_ioctl *d = wire_ioctl_find(cmd);
	uint32_t usize = _IOC_SIZE(cmd), kin, n;

	c->cmd = cmd;
	c->desc = d;
	c->arg = arg;
	c->in_size = c->in_pad = c->out_size = 0;
	c->has_loc = false;
	c->extra = extra;
	c->fd_in = -1;
	c->fd_out = false;
	c->ool_fd = -1;
	c->ool = NULL;
	c->ool_len = 0;
	if (!d)
		return 0;	/* gemd answers -ENOTTY or -EINVAL */
	c->in_size = payload_struct_size(cmd);
	c->in_pad = ALIGN_UP(c->in_size, (uint32_t)WIRE_ALIGN) - c->in_size;
	if (both_dirs(cmd, d->kcmd, _IOC_READ))
		c->out_size = usize;
	if (!arg && (c->in_size || c->out_size))
		return -EFAULT;
	if ((d->codec->fds & WIRE_FD_IN) && c->in_size >= d->codec->fd_off + sizeof(int))
		memcpy(&c->fd_in, (uint8_t *)arg + d->codec->fd_off, sizeof(int));
	if ((d->codec->fds & WIRE_FD_OUT) && c->out_size >= d->codec->fd_off + sizeof(int)) {
		c->fd_out = true;
		c->fd_off = d->codec->fd_off;
	}
	if (!has_hooks(d))
		return 0;
	/* What the kernel's zero-extended copy of arg would hold. */
	kin = both_dirs(cmd, d->kcmd, _IOC_WRITE) ? usize : 0;
	n = MIN(MIN(kin, (uint32_t)_IOC_SIZE(d->kcmd)), (uint32_t)sizeof(c->kx));
	memcpy(c->kx, arg, n);
	memset((uint8_t *)c->kx + n, 0, sizeof(c->kx) - n);
	if (!d->codec->client_pack)
		return 0;
	return d->codec->client_pack(d->codec, c, extra);
}

size_t wire_client_payload_len(const struct wire_client_call *c,
			       const struct strbuf *extra)
{
	return (size_t)c->in_size + c->in_pad + extra->len;
}

int wire_client_payload(const struct wire_client_call *c,
			const struct strbuf *extra, struct strbuf *out)
{
	static const uint8_t zeros[WIRE_ALIGN];

	if ((c->in_size && strbuf_add(out, c->arg, c->in_size)) ||
	    strbuf_add(out, zeros, c->in_pad) ||
	    strbuf_add(out, extra->buf, extra->len))
		return -ENOMEM;
	return 0;
}

int wire_client_unpack(struct wire_client_call *c, int result,
		       const void *reply, size_t len)
{
	const struct wire_ioctl *d = c->desc;
	struct wire_cursor cur;
	size_t head;
	int ret;

	/* Failed before the driver ran: the kernel would not touch arg. */
	if (!len && result < 0)
		return 0;
	if (!d)
		return len ? -EIO : 0;
	head = ALIGN_UP((size_t)c->out_size, (size_t)WIRE_ALIGN);
	if (len < head)
		return -EIO;
	if (c->out_size)
		memcpy(c->arg, reply, c->out_size);	/* libgem's copy of arg */
	cur.p = (uint8_t *)reply + head;
	cur.left = len - head;
	if (d->codec->client_unpack) {
		ret = d->codec->client_unpack(c, result, &cur);
		if (ret)
			return ret;
	}
	return cur.left ? -EIO : 0;
}

void wire_client_release(struct wire_client_call *c)
{
	if (c->ool)
		munmap(c->ool, (size_t)c->ool_len);
	if (c->ool_fd >= 0)
		close(c->ool_fd);
	c->ool = NULL;
	c->ool_fd = -1;
	c->ool_len = 0;
}

/* --- server side ---------------------------------------------------- */

int wire_server_unpack(struct wire_server_call *c, unsigned int cmd,
		       void *payload, size_t len, struct strbuf *mem, int fd)
{
	const struct wire_ioctl *d;
	uint32_t usize = _IOC_SIZE(cmd), kin, ksize, drv, korig_size;
	size_t head, kalloc, need;
	struct wire_cursor cur;
	uint8_t *base;
	int ret;

	c->fd = fd;
	c->ool = NULL;
	c->ool_len = 0;
	if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
		return -ENOTTY;
	d = wire_ioctl_find(cmd);
	if (!d)
		return -EINVAL;	/* drm_ioctl: nr outside the tables */
	head = ALIGN_UP((size_t)payload_struct_size(cmd), (size_t)WIRE_ALIGN);
	if (len < head)
		return -EFAULT;
	kin = both_dirs(cmd, d->kcmd, _IOC_WRITE) ? usize : 0;
	drv = _IOC_SIZE(d->kcmd);
	c->cmd = cmd;
	c->desc = d;
	c->out_size = both_dirs(cmd, d->kcmd, _IOC_READ) ? usize : 0;
	ksize = MAX(MAX(kin, c->out_size), drv);
	korig_size = has_hooks(d) ? drv : 0;
	kalloc = ALIGN_UP((size_t)ksize, (size_t)WIRE_ALIGN);
	need = kalloc + ALIGN_UP((size_t)korig_size, (size_t)WIRE_ALIGN) +
	       d->codec->scratch;

	strbuf_reset(mem);
	if (strbuf_grow(mem, need))
		return -ENOMEM;
	base = (uint8_t *)mem->buf;
	memcpy(base, payload, kin);
	memset(base + kin, 0, ksize - kin);
	c->ksize = ksize;
	c->karg = ksize ? base : NULL;	/* DRM_IO: nothing to point at */
	c->korig = base + kalloc;
	memcpy(c->korig, base, korig_size);
	c->scratch = c->korig + ALIGN_UP((size_t)korig_size, (size_t)WIRE_ALIGN);
	memset(c->scratch, 0, d->codec->scratch);
	c->extra = (uint8_t *)payload + head;
	c->extra_len = len - head;

	cur.p = c->extra;
	cur.left = c->extra_len;
	ret = d->codec->server_unpack ? d->codec->server_unpack(d->codec, c, &cur) : 0;
	/* Bytes or a descriptor nobody asked for mean the two sides
	 * disagree: refuse. */
	if (!ret && (cur.left || (fd >= 0 && !c->ool)))
		ret = -EINVAL;
	if (ret)
		wire_server_release(c);
	return ret;
}

int wire_server_pack(const struct wire_server_call *c, int result,
		     const struct gem_location *loc, struct strbuf *out)
{
	const struct wire_ioctl *d = c->desc;
	size_t start = out->len, i;

	if (c->out_size) {
		if (add_seg(out, c->karg, c->out_size))
			return -ENOMEM;
		/* The caller gets its own pointers back, not gemd's. */
		for (i = 0; i < d->codec->nptr; i++)
			if (d->codec->ptr_off[i] + sizeof(uint64_t) <= c->out_size)
				memcpy(out->buf + start + d->codec->ptr_off[i],
				       c->korig + d->codec->ptr_off[i], sizeof(uint64_t));
	}
	if (d->codec->server_reply)
		return d->codec->server_reply(c, result, loc, out);
	return 0;
}

void wire_server_release(struct wire_server_call *c)
{
	if (c->ool)
		munmap(c->ool, (size_t)c->ool_len);
	c->ool = NULL;
	c->ool_len = 0;
}

/* --- socket helpers --------------------------------------------------- */

int wire_token_from_addr(const struct sockaddr_un *sa, socklen_t len,
			 uint64_t *token)
{
	const size_t digits = 5;
	uint64_t v = 0;
	size_t i;

	if (len != offsetof(struct sockaddr_un, sun_path) + 1 + digits ||
	    sa->sun_family != AF_UNIX || sa->sun_path[0] != '\0')
		return -EINVAL;
	for (i = 1; i <= digits; i++) {
		char ch = sa->sun_path[i];

		if (ch >= '0' && ch <= '9')
			v = v * 16 + (uint64_t)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			v = v * 16 + (uint64_t)(ch - 'a' + 10);
		else
			return -EINVAL;
	}
	*token = v + 1;
	return 0;
}

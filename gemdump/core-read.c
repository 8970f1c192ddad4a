/*
 * Reading a capture.  libelf finds the headers; every offset and size
 * taken from the file is checked against the file's length before use,
 * and every record is copied into a zeroed struct of our size, so a
 * truncated or hostile file gives an error naming the offset, never a
 * crash, and allocations stay proportional to the file's size.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "gemdump.h"
#include "util.h"

#define FAIL(...) do { if (err) strbuf_addf(err, __VA_ARGS__); return -EINVAL; } while (0)

/* Copy a record: min(its size, ours), the rest zero. */
static int rec_copy(void *dst, size_t dsize, const uint8_t *desc, uint32_t descsz,
		    size_t off, struct strbuf *err)
{
	struct gd_rec_hdr h;

	if (descsz < sizeof(h))
		FAIL("note at offset 0x%zx: record of %u bytes is shorter than its header",
		     off, descsz);
	memcpy(&h, desc, sizeof(h));
	if (h.version < 1 || h.size < sizeof(h) || h.size > descsz)
		FAIL("note at offset 0x%zx: bad record header (version %u, size %u of %u)",
		     off, h.version, h.size, descsz);
	memset(dst, 0, dsize);
	memcpy(dst, desc, MIN((size_t)h.size, dsize));
	((struct gd_rec_hdr *)dst)->size = (uint32_t)dsize;
	return 0;
}

#define TERM(a) ((a)[sizeof(a) - 1] = '\0')

static int add_rec(struct gd_capture *c, uint32_t type, const uint8_t *desc,
		   uint32_t descsz, size_t off, struct strbuf *err)
{
	void *r = NULL;
	size_t sz = 0;

	switch (type) {
	case GD_NT_HEADER:
		r = &c->header, sz = sizeof(c->header);
		break;
	case GD_NT_DEVICE:
		r = &c->device, sz = sizeof(c->device);
		break;
	case GD_NT_RING:
		r = gd_capture_add_ring(c), sz = sizeof(*c->rings);
		break;
	case GD_NT_REQUEST:
		r = gd_capture_add_request(c), sz = sizeof(*c->requests);
		break;
	case GD_NT_OBJECT:
		r = gd_capture_add_object(c), sz = sizeof(*c->objects);
		break;
	case GD_NT_OWNER:
		r = gd_capture_add_owner(c), sz = sizeof(*c->owners);
		break;
	case GD_NT_CLIENT:
		r = gd_capture_add_client(c), sz = sizeof(*c->clients);
		break;
	case GD_NT_FENCE:
		r = gd_capture_add_fence(c), sz = sizeof(*c->fences);
		break;
	case GD_NT_REGISTER:
		r = gd_capture_add_register(c, "", 0), sz = sizeof(*c->regs);
		break;
	case GD_NT_EVENT:
		r = gd_capture_add_event(c), sz = sizeof(*c->events);
		break;
	default:
		return 0;	/* a record type from the future: skip it */
	}
	if (!r)
		return -ENOMEM;
	return rec_copy(r, sz, desc, descsz, off, err);
}

static int parse_notes(struct gd_capture *c, const uint8_t *base, size_t off, size_t size,
		       bool *have_header, struct strbuf *err)
{
	size_t end = off + size;
	int ret;

	while (end - off >= 12) {
		uint32_t nh[3];
		size_t name_off, desc_off, name_len, desc_len;

		memcpy(nh, base + off, sizeof(nh));
		name_off = off + 12;
		name_len = ALIGN_UP((size_t)nh[0], 4);
		desc_len = ALIGN_UP((size_t)nh[1], 4);
		if (nh[0] > end - name_off || name_len > end - name_off)
			FAIL("note at offset 0x%zx: name of %u bytes runs past its segment",
			     off, nh[0]);
		desc_off = name_off + name_len;
		if (nh[1] > end - desc_off || desc_len > end - desc_off)
			FAIL("note at offset 0x%zx: %u bytes of data run past its segment",
			     off, nh[1]);
		if (nh[0] == sizeof(GD_CORE_OWNER) &&
		    !memcmp(base + name_off, GD_CORE_OWNER, sizeof(GD_CORE_OWNER))) {
			ret = add_rec(c, nh[2], base + desc_off, nh[1], off, err);
			if (ret)
				return ret;
			if (nh[2] == GD_NT_HEADER)
				*have_header = true;
		}
		off = desc_off + desc_len;
	}
	if (off != end)
		FAIL("note segment: %zu stray bytes at offset 0x%zx", end - off, off);
	return 0;
}

static int check_records(struct gd_capture *c, size_t len, struct strbuf *err)
{
	const uint8_t *base = c->file;
	size_t i;

	if (c->header.schema != GD_CORE_SCHEMA)
		FAIL("capture schema %u: this gemdump reads schema %u", c->header.schema,
		     GD_CORE_SCHEMA);
	TERM(c->header.tool_version);
	TERM(c->header.source);
	TERM(c->header.error_time);
	TERM(c->header.guilty_comm);
	TERM(c->header.hang_kind);
	for (i = 0; i < c->nrings; i++)
		TERM(c->rings[i].name);
	for (i = 0; i < c->nrequests; i++)
		TERM(c->requests[i].ring);
	for (i = 0; i < c->nowners; i++)
		TERM(c->owners[i].comm);
	for (i = 0; i < c->nclients; i++)
		TERM(c->clients[i].comm);
	for (i = 0; i < c->nregs; i++)
		TERM(c->regs[i].name);
	for (i = 0; i < c->nevents; i++)
		TERM(c->events[i].type_name);
	for (i = 0; i < c->nobjects; i++) {
		struct gd_rec_object *o = &c->objects[i];

		c->data[i] = NULL;
		if (!(o->flags & GD_OBJ_CAPTURED))
			continue;
		if (o->data_size != o->size || o->data_offset > len ||
		    o->data_size > len - o->data_offset)
			FAIL("object %u: its %llu bytes at offset 0x%llx lie outside the "
			     "file (%zu bytes): truncated?", o->id,
			     (unsigned long long)o->data_size,
			     (unsigned long long)o->data_offset, len);
		c->data[i] = base + o->data_offset;
	}
	return 0;
}

int gd_capture_parse(void *buf, size_t len, struct gd_capture *c, struct strbuf *err)
{
	const unsigned char *b = buf;
	bool have_header = false;
	Elf *elf = NULL;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	size_t i, phnum;
	int ret;

	gd_capture_init(c);
	c->file = buf;
	c->file_len = len;
	if (len < EI_NIDENT || memcmp(b, ELFMAG, SELFMAG)) {
		ret = -EINVAL;
		if (err)
			strbuf_addf(err, "not an ELF file");
		goto out;
	}
	if (b[EI_CLASS] != ELFCLASS64 || b[EI_DATA] != ELFDATA2LSB) {
		ret = -EINVAL;
		if (err)
			strbuf_addf(err, "not a 64-bit little-endian ELF file");
		goto out;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		ret = -EINVAL;
		goto out;
	}
	elf = elf_memory(buf, len);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		ret = -EINVAL;
		if (err)
			strbuf_addf(err, "truncated ELF header (%zu bytes)", len);
		goto out;
	}
	if (eh.e_type != ET_CORE || eh.e_machine != EM_NONE) {
		ret = -EINVAL;
		if (err)
			strbuf_addf(err, "not a gemdump capture (ELF type %u, machine %u)",
				    eh.e_type, eh.e_machine);
		goto out;
	}
	/* Section headers come last: a file cut anywhere loses them. */
	if (eh.e_shoff > len || (eh.e_shnum && eh.e_shnum > (len - eh.e_shoff) / sizeof(Elf64_Shdr))) {
		ret = -EINVAL;
		if (err)
			strbuf_addf(err, "section headers at offset 0x%llx lie outside the file "
				    "(%zu bytes): truncated?", (unsigned long long)eh.e_shoff, len);
		goto out;
	}
	if (elf_getphdrnum(elf, &phnum) || !phnum || eh.e_phoff > len ||
	    phnum > (len - eh.e_phoff) / sizeof(Elf64_Phdr)) {
		ret = -EINVAL;
		if (err)
			strbuf_addf(err, "program headers at offset 0x%llx lie outside the file "
				    "(%zu bytes): truncated?", (unsigned long long)eh.e_phoff, len);
		goto out;
	}
	for (i = 0; i < phnum; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph)) {
			ret = -EINVAL;
			if (err)
				strbuf_addf(err, "program header %zu at offset 0x%llx unreadable "
					    "(file of %zu bytes): truncated?", i,
					    (unsigned long long)(eh.e_phoff + i * sizeof(Elf64_Phdr)),
					    len);
			goto out;
		}
		if (ph.p_type != PT_NOTE)
			continue;
		if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset) {
			ret = -EINVAL;
			if (err)
				strbuf_addf(err, "note segment at offset 0x%llx (%llu bytes) runs "
					    "past the end of the file (%zu bytes): truncated?",
					    (unsigned long long)ph.p_offset,
					    (unsigned long long)ph.p_filesz, len);
			goto out;
		}
		ret = parse_notes(c, b, ph.p_offset, ph.p_filesz, &have_header, err);
		if (ret)
			goto out;
	}
	if (!have_header) {
		ret = -EINVAL;
		if (err)
			strbuf_addf(err, "no GEMKIT header note: not a gemdump capture");
		goto out;
	}
	ret = check_records(c, len, err);
out:
	if (elf)
		elf_end(elf);
	if (ret) {
		void *f = c->file;

		c->file = NULL;
		gd_capture_release(c);
		free(f);
	}
	return ret;
}

int gd_capture_load(const char *path, struct gd_capture *c, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	void *buf;
	int ret;

	gd_capture_init(c);
	ret = gd_read_file(path, GD_MAX_INPUT * 4, &sb);
	if (ret) {
		strbuf_release(&sb);
		if (err)
			strbuf_addf(err, "cannot read '%s': %s", path, strerror(-ret));
		return ret;
	}
	buf = strbuf_detach(&sb, &len);
	if (!buf)
		return -ENOMEM;
	ret = gd_capture_parse(buf, len, c, err);
	if (ret && err) {
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "'%s': %s", path, err->buf);
		strbuf_reset(err);
		strbuf_addstr(err, msg.buf);
		strbuf_release(&msg);
	}
	return ret;
}

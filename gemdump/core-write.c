/*
 * Writing a capture with libelf.  We lay the file out ourselves
 * (ELF_F_LAYOUT) so that each object's bytes sit page-aligned at a file
 * offset congruent to its GTT offset, which PT_LOAD wants:
 *
 *   ELF header | program headers (PT_NOTE, one PT_LOAD per bound object)
 *   | notes | object bytes, 4 KiB aligned | .shstrtab | section headers
 *
 * The file is written under a temporary name in the same directory and
 * renamed over the target only once complete.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"
#include "util.h"

#define PAGE 4096u

static int add_note(struct strbuf *sb, uint32_t type, const void *rec, size_t size)
{
	static const char owner[8] = GD_CORE_OWNER;	/* "GEMKIT\0" + pad */
	uint32_t nh[3] = { sizeof(GD_CORE_OWNER), (uint32_t)size, type };
	static const char zero[4];

	if (strbuf_add(sb, nh, sizeof(nh)) || strbuf_add(sb, owner, sizeof(owner)) ||
	    strbuf_add(sb, rec, size) || strbuf_add(sb, zero, (4 - size % 4) % 4))
		return -ENOMEM;
	return 0;
}

#define NOTES(type, arr, n)						\
	for (i = 0; i < (n); i++)					\
		if ((ret = add_note(sb, type, &(arr)[i], sizeof((arr)[i]))))	\
			return ret

static int build_notes(const struct gd_capture *c, const struct gd_rec_object *objs,
		       struct strbuf *sb, size_t *obj_pos)
{
	size_t i;
	int ret;

	if ((ret = add_note(sb, GD_NT_HEADER, &c->header, sizeof(c->header))) ||
	    (ret = add_note(sb, GD_NT_DEVICE, &c->device, sizeof(c->device))))
		return ret;
	NOTES(GD_NT_RING, c->rings, c->nrings);
	NOTES(GD_NT_REQUEST, c->requests, c->nrequests);
	for (i = 0; i < c->nobjects; i++) {
		obj_pos[i] = sb->len + 20;	/* note header and owner */
		ret = add_note(sb, GD_NT_OBJECT, &objs[i], sizeof(objs[i]));
		if (ret)
			return ret;
	}
	NOTES(GD_NT_OWNER, c->owners, c->nowners);
	NOTES(GD_NT_CLIENT, c->clients, c->nclients);
	NOTES(GD_NT_FENCE, c->fences, c->nfences);
	NOTES(GD_NT_REGISTER, c->regs, c->nregs);
	NOTES(GD_NT_EVENT, c->events, c->nevents);
	return 0;
}

/* Bytes in hand, or to be streamed by c->fill. */
static bool captured(const struct gd_capture *c, size_t i)
{
	return c->objects[i].size &&
	       (c->data[i] || (c->fill && (c->objects[i].flags & GD_OBJ_CAPTURED)));
}

static bool streamed(const struct gd_capture *c, size_t i)
{
	return captured(c, i) && !c->data[i];
}

static int add_section(Elf *elf, struct strbuf *shstr, const char *name, uint32_t type,
		       uint64_t flags, uint64_t addr, uint64_t off, uint64_t size,
		       uint64_t align, void *buf, Elf_Type dtype)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn)
		return -ENOMEM;
	/* No data for streamed bytes: libelf then leaves the range alone
	 * (ELF_F_LAYOUT) and fill() writes it. */
	if (buf || !size) {
		d = elf_newdata(scn);
		if (!d)
			return -ENOMEM;
		d->d_buf = buf;
		d->d_size = size;
		d->d_type = dtype;
		d->d_align = 1;
		d->d_off = 0;
	}
	if (!gelf_getshdr(scn, &sh))
		return -EINVAL;
	sh.sh_name = (GElf_Word)shstr->len;
	if (strbuf_add(shstr, name, strlen(name) + 1))
		return -ENOMEM;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addr = addr;
	sh.sh_offset = off;
	sh.sh_size = size;
	sh.sh_addralign = align;
	return gelf_update_shdr(scn, &sh) ? 0 : -EINVAL;
}

struct layout {
	struct gd_rec_object *objs;	/* with data_offset/size filled in */
	size_t *obj_pos;		/* each object record's offset in the notes */
	size_t *obj_phdr;		/* each object's PT_LOAD index, 0: none */
	size_t nload;			/* PT_LOAD count */
	uint64_t phoff, notes_off, data_end;
};

static int do_layout(const struct gd_capture *c, struct layout *l)
{
	size_t i;

	l->objs = malloc((c->nobjects ? c->nobjects : 1) * sizeof(*l->objs));
	l->obj_pos = calloc(c->nobjects ? c->nobjects : 1, sizeof(*l->obj_pos));
	l->obj_phdr = calloc(c->nobjects ? c->nobjects : 1, sizeof(*l->obj_phdr));
	if (!l->objs || !l->obj_pos || !l->obj_phdr)
		return -ENOMEM;
	l->nload = 0;
	for (i = 0; i < c->nobjects; i++)
		if (c->objects[i].flags & GD_OBJ_BOUND)
			l->nload++;
	l->phoff = sizeof(Elf64_Ehdr);
	l->notes_off = ALIGN_UP(l->phoff + (1 + l->nload) * sizeof(Elf64_Phdr), 8);
	for (i = 0; i < c->nobjects; i++) {
		l->objs[i] = c->objects[i];
		l->objs[i].data_offset = 0;
		l->objs[i].data_size = 0;
		if (captured(c, i))
			l->objs[i].flags |= GD_OBJ_CAPTURED;
		else
			l->objs[i].flags &= ~(uint32_t)GD_OBJ_CAPTURED;
	}
	return 0;
}

static int place_data(const struct gd_capture *c, struct layout *l, uint64_t start)
{
	uint64_t off = ALIGN_UP(start, PAGE);
	size_t i;

	for (i = 0; i < c->nobjects; i++) {
		if (!captured(c, i))
			continue;
		l->objs[i].data_offset = off;
		l->objs[i].data_size = c->objects[i].size;
		off = ALIGN_UP(off + c->objects[i].size, PAGE);
	}
	l->data_end = off;
	return 0;
}

static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	if (lseek(fd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	return write_full(fd, buf, len) < 0 ? -errno : 0;
}

/*
 * The streamed objects' bytes, after libelf wrote the rest.  An object
 * that went away meanwhile is turned, in the file already written, into
 * one without contents: its record's flags and data fields, and its
 * PT_LOAD's p_filesz.  (Its section keeps pointing at a range of zeros.)
 */
static int stream_contents(struct gd_capture *c, int fd, const struct layout *l,
			   uint64_t phoff, struct strbuf *err)
{
	size_t i;
	int ret;

	for (i = 0; i < c->nobjects; i++) {
		struct gd_rec_object o;
		uint64_t zero = 0;

		if (!streamed(c, i))
			continue;
		ret = c->fill(c->fill_arg, &l->objs[i], fd, l->objs[i].data_offset);
		if (!ret)
			continue;
		if (ret != -ENOENT && ret != -ENODATA) {
			if (err)
				strbuf_addf(err, "object %u: %s", l->objs[i].id, strerror(-ret));
			return ret;
		}
		o = l->objs[i];
		o.flags &= ~(uint32_t)GD_OBJ_CAPTURED;
		o.data_offset = o.data_size = 0;
		c->objects[i].flags &= ~(uint32_t)GD_OBJ_CAPTURED;
		ret = pwrite_all(fd, &o, sizeof(o), l->notes_off + l->obj_pos[i]);
		if (!ret && l->obj_phdr[i])
			ret = pwrite_all(fd, &zero, sizeof(zero), phoff + l->obj_phdr[i] *
					 sizeof(Elf64_Phdr) + offsetof(Elf64_Phdr, p_filesz));
		if (ret)
			return ret;
	}
	return 0;
}

static int write_elf(struct gd_capture *c, int fd, struct strbuf *err)
{
	struct strbuf notes = STRBUF_INIT, shstr = STRBUF_INIT;
	struct layout l = { 0 };
	Elf *elf = NULL;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	size_t i, p, nscn = 0;
	uint64_t shstr_off, shoff;
	char name[48];
	int ret;

	ret = do_layout(c, &l);
	if (ret)
		goto out;
	/* Notes first with provisional offsets, to learn their size. */
	ret = build_notes(c, l.objs, &notes, l.obj_pos);
	if (ret)
		goto out;
	place_data(c, &l, l.notes_off + notes.len);
	strbuf_reset(&notes);
	ret = build_notes(c, l.objs, &notes, l.obj_pos);
	if (ret)
		goto out;

	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!elf || !gelf_newehdr(elf, ELFCLASS64) || !gelf_getehdr(elf, &eh)) {
		ret = -EINVAL;
		goto out_elf;
	}
	elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_NONE;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = l.phoff;

	if (strbuf_addch(&shstr, '\0'))
		goto out_nomem;
	ret = add_section(elf, &shstr, ".note.gemkit", SHT_NOTE, 0, 0, l.notes_off,
			  notes.len, 4, notes.buf, ELF_T_BYTE);
	nscn++;
	for (i = 0; !ret && i < c->nobjects; i++) {
		const struct gd_rec_object *o = &l.objs[i];
		uint64_t flags = o->flags & GD_OBJ_BOUND ? SHF_ALLOC | SHF_WRITE : 0;
		uint64_t addr = o->flags & GD_OBJ_BOUND ? o->gtt_offset : 0;
		size_t r;

		if (!(o->flags & GD_OBJ_CAPTURED))
			continue;
		snprintf(name, sizeof(name), ".gem.bo.%u", o->id);
		ret = add_section(elf, &shstr, name, SHT_PROGBITS, flags, addr,
				  o->data_offset, o->data_size, PAGE,
				  (void *)c->data[i], ELF_T_BYTE);
		nscn++;
		/* A ring's bytes also go by the ring's name. */
		for (r = 0; !ret && r < c->nrings; r++) {
			if (!(o->flags & GD_OBJ_RING) || c->rings[r].ring_obj != o->id)
				continue;
			snprintf(name, sizeof(name), ".gem.ring.%s", c->rings[r].name);
			ret = add_section(elf, &shstr, name, SHT_PROGBITS, 0, 0,
					  o->data_offset, o->data_size, PAGE,
					  (void *)c->data[i], ELF_T_BYTE);
			nscn++;
		}
	}
	if (ret)
		goto out_elf;
	shstr_off = l.data_end;
	ret = add_section(elf, &shstr, ".shstrtab", SHT_STRTAB, 0, 0, shstr_off, 0, 1,
			  NULL, ELF_T_BYTE);
	if (ret)
		goto out_elf;
	nscn++;
	{
		/* shstr is complete now: point .shstrtab at it. */
		Elf_Scn *scn = elf_getscn(elf, nscn);
		Elf_Data *d = elf_getdata(scn, NULL);
		GElf_Shdr sh;

		if (!d || !gelf_getshdr(scn, &sh)) {
			ret = -EINVAL;
			goto out_elf;
		}
		sh.sh_size = shstr.len;
		d->d_buf = shstr.buf;
		d->d_size = shstr.len;
		gelf_update_shdr(scn, &sh);
	}
	shoff = ALIGN_UP(shstr_off + shstr.len, 8);
	eh.e_shoff = shoff;
	if (nscn < SHN_LORESERVE) {
		eh.e_shstrndx = (GElf_Half)nscn;
	} else {
		Elf_Scn *zero = elf_getscn(elf, 0);
		GElf_Shdr sh;

		eh.e_shstrndx = SHN_XINDEX;
		gelf_getshdr(zero, &sh);
		sh.sh_link = (GElf_Word)nscn;
		gelf_update_shdr(zero, &sh);
	}
	if (!gelf_update_ehdr(elf, &eh) || !gelf_newphdr(elf, 1 + l.nload)) {
		ret = -EINVAL;
		goto out_elf;
	}
	memset(&ph, 0, sizeof(ph));
	ph.p_type = PT_NOTE;
	ph.p_offset = l.notes_off;
	ph.p_filesz = notes.len;
	ph.p_align = 4;
	gelf_update_phdr(elf, 0, &ph);
	for (i = 0, p = 1; i < c->nobjects; i++) {
		const struct gd_rec_object *o = &l.objs[i];

		if (!(o->flags & GD_OBJ_BOUND))
			continue;
		memset(&ph, 0, sizeof(ph));
		ph.p_type = PT_LOAD;
		ph.p_flags = PF_R | PF_W;
		ph.p_vaddr = o->gtt_offset;
		ph.p_memsz = o->size;
		ph.p_align = PAGE;
		if (o->flags & GD_OBJ_CAPTURED) {
			ph.p_offset = o->data_offset;
			ph.p_filesz = o->data_size;
		} else {
			/* Nothing in the file; keep the offset congruent. */
			ph.p_offset = o->gtt_offset % PAGE;
		}
		l.obj_phdr[i] = p;
		gelf_update_phdr(elf, p++, &ph);
	}
	errno = 0;
	if (elf_update(elf, ELF_C_WRITE) < 0) {
		/* libelf says "I/O error"; the write's errno says why. */
		ret = errno ? -errno : -EIO;
		if (errno && err)
			strbuf_addf(err, "writing the capture: %s", strerror(errno));
		goto out_elf;
	}
	ret = stream_contents(c, fd, &l, eh.e_phoff, err);
	goto out;
out_nomem:
	ret = -ENOMEM;
out_elf:
	if (err && !err->len)
		strbuf_addf(err, "libelf: %s", elf_errmsg(-1));
out:
	if (elf)
		elf_end(elf);
	strbuf_release(&notes);
	strbuf_release(&shstr);
	free(l.objs);
	free(l.obj_pos);
	free(l.obj_phdr);
	return ret;
}

int gd_capture_write(struct gd_capture *c, const char *path, struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT;
	mode_t mask;
	int fd, ret;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		strbuf_addf(err, "libelf: %s", elf_errmsg(-1));
		return -EINVAL;
	}
	if (strbuf_addf(&tmp, "%s.tmp.XXXXXX", path))
		return -ENOMEM;
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		ret = -errno;
		strbuf_addf(err, "cannot create '%s': %s", tmp.buf, strerror(-ret));
		goto out;
	}
	ret = write_elf(c, fd, err);
	mask = umask(022);
	umask(mask);
	if (!ret && fchmod(fd, 0666 & ~mask))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp.buf, path)) {
		ret = -errno;
		strbuf_addf(err, "cannot rename '%s' to '%s': %s", tmp.buf, path, strerror(-ret));
	}
	if (ret) {
		if (!err->len)
			strbuf_addf(err, "writing '%s': %s", path, strerror(-ret));
		unlink(tmp.buf);
	}
out:
	strbuf_release(&tmp);
	return ret;
}

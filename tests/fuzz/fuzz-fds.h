/*
 * Descriptors of several kinds for the fuzz targets to send where gemd
 * expects one (PRIME import, GEM_MSG_TOKEN, CHANNEL, DMABUF, SYNCFILE):
 * gemd must judge each by what it is, never by where it came from.
 */
#ifndef GEMKIT_FUZZ_FDS_H
#define GEMKIT_FUZZ_FDS_H

enum fuzz_fd_kind {
	FUZZ_FD_NONE,
	FUZZ_FD_MEMFD,		/* 4 KiB, unsealed */
	FUZZ_FD_SOCKETPAIR,	/* one end; the other is closed */
	FUZZ_FD_PIPE,		/* the read end */
	FUZZ_FD_DEVNULL,
	FUZZ_FD_DMABUF,		/* a dup of the dma-buf passed in */
	FUZZ_FD_MEMFD_SEALED,	/* 4 KiB, sealed as gemd's arenas are: what
				 * PRIME import adopts as an object */
	FUZZ_FD_KINDS
};

/* A new descriptor of kind (modulo FUZZ_FD_KINDS), or -1 (NONE, or it
 * could not be made). */
int fuzz_fd_make(unsigned int kind, int dmabuf);
/* A dma-buf gemd's core made: a 4 KiB object of the in-process file
 * (gemtest-inproc.h), exported; -1 if it could not. */
int fuzz_dmabuf_make(void);

#endif

/*
 * libFuzzer: gemd's decoding of GEM_MSG_IOCTL requests and the gem core's
 * argument checks, as driver/server/server.c's handle_ioctl runs them:
 * wire_server_unpack, gem_ioctl_dispatch, wire_server_pack, for every
 * ioctl of lib/proto/ioctls.def, on the in-process device of the tests
 * (tests/lib/gemtest-inproc.h) instead of a socket.
 *
 * An input is a sequence of up to MAX_CALLS records, so that one call can
 * create the objects and contexts the next ones name:
 *
 *	u8  ioctl	index into ioctls.def (modulo its length)
 *	u8  how		bit 0: the caller is root (else a plain user);
 *			bits 1-2: the request code: 0 the kernel's own,
 *			1 its size replaced by arg, 2 its direction
 *			replaced by arg, 3 arg itself (any code at all);
 *			bits 3-5: the kind of descriptor that comes with
 *			the request (fuzz-fds.h: none, memfd, socketpair
 *			end, pipe, /dev/null, a dma-buf of the device's
 *			own, a memfd sealed as an arena): the driver's for
 *			PRIME_FD_TO_HANDLE, the codec's for the others
 *			(an execbuffer's relocations out of line)
 *	u32 arg
 *	u16 len		payload bytes that follow (cut to what is left)
 *	    payload
 *
 * Each payload is copied into a buffer of exactly len bytes, so that
 * AddressSanitizer sees any read past what a message carried.  The device
 * is created afresh for every input: a finding replays alone.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "fuzz-fds.h"
#include "gemtest-inproc.h"
#include "strbuf.h"
#include "util.h"
#include "wire.h"

#define MAX_CALLS	8
#define REC_HEAD	8
#define APERTURE	(16u << 20)

/* The one list, expanded for its request codes only. */
#define IOCTL(name, kcmd, handler, flags, codec) kcmd,
static const unsigned int kcmds[] = {
#include "ioctls.def"
};
#undef IOCTL

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned int request_code(unsigned int kcmd, unsigned int how,
				 uint32_t arg)
{
	switch ((how >> 1) & 3) {
	case 1:
		return _IOC(_IOC_DIR(kcmd), _IOC_TYPE(kcmd), _IOC_NR(kcmd),
			    arg & _IOC_SIZEMASK);
	case 2:
		return _IOC(arg & _IOC_DIRMASK, _IOC_TYPE(kcmd), _IOC_NR(kcmd),
			    _IOC_SIZE(kcmd));
	case 3:
		return arg;
	default:
		return kcmd;
	}
}

/* handle_ioctl's steps, on one request. */
static void one_call(unsigned int cmd, unsigned int how, int dmabuf,
		     const uint8_t *src, size_t len, struct strbuf *mem,
		     struct strbuf *out)
{
	struct wire_server_call call;
	bool admin = how & 1;
	struct gem_call gc = {
		.caller_pid = GTI_PID, .caller_admin = admin,
		.caller_uid = admin ? 0 : 1000, .fd_in = -1, .fd_out = -1,
	};
	struct gem_location loc;
	uint8_t *payload = malloc(len ? len : 1);
	int ret, fd;

	if (!payload)
		return;
	memcpy(payload, src, len);
	fd = fuzz_fd_make((how >> 3) & 7, dmabuf);
	if (wire_ioctl_fds(cmd) & WIRE_FD_IN) {
		gc.fd_in = fd;
		fd = -1;
	}
	ret = wire_server_unpack(&call, cmd, payload, len, mem, fd);
	if (fd >= 0)
		close(fd);
	if (ret == 0) {
		ret = gem_ioctl_dispatch(gti_file, cmd, call.karg, &gc);
		memset(&loc, 0, sizeof(loc));
		strbuf_reset(out);
		wire_server_pack(&call, ret, gc.has_loc ? &loc : NULL, out);
		wire_server_release(&call);
		if (gc.fd_out >= 0)
			close(gc.fd_out);
	}
	if (gc.fd_in >= 0)
		close(gc.fd_in);
	free(payload);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf mem = STRBUF_INIT, out = STRBUF_INIT;
	unsigned int n;
	int dmabuf;

	gti_setup(APERTURE);
	dmabuf = fuzz_dmabuf_make();
	for (n = 0; n < MAX_CALLS && size >= REC_HEAD; n++) {
		unsigned int kcmd = kcmds[data[0] % ARRAY_SIZE(kcmds)];
		unsigned int how = data[1];
		uint32_t arg;
		uint16_t len;

		memcpy(&arg, data + 2, sizeof(arg));
		memcpy(&len, data + 6, sizeof(len));
		data += REC_HEAD;
		size -= REC_HEAD;
		len = (uint16_t)MIN((size_t)len, size);
		one_call(request_code(kcmd, how, arg), how, dmabuf, data, len,
			 &mem, &out);
		data += len;
		size -= len;
	}
	if (dmabuf >= 0)
		close(dmabuf);
	/* Not gti_idle: a fuzzed batch may hang the GPU, which is an
	 * answer, not a finding. */
	gem_lock(gti_dev);
	gem_gpu_idle(gti_dev);
	gem_retire_requests(gti_dev);
	gem_unlock(gti_dev);
	gti_teardown();
	strbuf_release(&mem);
	strbuf_release(&out);
	return 0;
}

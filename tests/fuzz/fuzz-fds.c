/* Descriptors for the fuzz targets (fuzz-fds.h). */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "fuzz-fds.h"
#include "gemtest-inproc.h"

int fuzz_fd_make(unsigned int kind, int dmabuf)
{
	int fds[2], fd = -1;

	switch (kind % FUZZ_FD_KINDS) {
	case FUZZ_FD_MEMFD:
	case FUZZ_FD_MEMFD_SEALED:
		fd = memfd_create("fuzz", MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (fd >= 0 && (ftruncate(fd, 4096) < 0 ||
				(kind % FUZZ_FD_KINDS == FUZZ_FD_MEMFD_SEALED &&
				 fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
				       F_SEAL_SEAL) < 0))) {
			close(fd);
			fd = -1;
		}
		break;
	case FUZZ_FD_SOCKETPAIR:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0) {
			close(fds[1]);
			fd = fds[0];
		}
		break;
	case FUZZ_FD_PIPE:
		if (pipe2(fds, O_CLOEXEC) == 0) {
			close(fds[1]);
			fd = fds[0];
		}
		break;
	case FUZZ_FD_DEVNULL:
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		break;
	case FUZZ_FD_DMABUF:
		fd = dmabuf >= 0 ? fcntl(dmabuf, F_DUPFD_CLOEXEC, 0) : -1;
		break;
	default:
		break;
	}
	return fd;
}

int fuzz_dmabuf_make(void)
{
	struct drm_i915_gem_create c = { .size = 4096 };
	struct drm_prime_handle p = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct gem_call call = {
		.caller_pid = GTI_PID, .caller_admin = true, .fd_in = -1, .fd_out = -1,
	};

	if (gem_ioctl_dispatch(gti_file, DRM_IOCTL_I915_GEM_CREATE, &c, &call))
		return -1;
	p.handle = c.handle;
	if (gem_ioctl_dispatch(gti_file, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p, &call))
		return -1;
	return call.fd_out;
}

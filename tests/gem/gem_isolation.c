/*
 * gem_isolation: a client is only ever given memory that holds objects it
 * may access, and nothing it does to that memory reaches gemd or another
 * client (issue 14, attacks 2 and 3; issue 16, cause 12).
 *
 *  - A victim process writes a secret into an object it keeps to itself
 *    and another into one it shares by name.  The attacker goes through
 *    every object memory its process was given (the arena descriptors
 *    libgem holds, the mappings it made) looking for either: it must find
 *    the shared secret, and never the private one.
 *  - An mmap offset works only on a file holding a handle to its object
 *    (EACCES, as the kernel's drm_vma_node_is_allowed).
 *  - ftruncate of an arena or a PRIME fd is refused (EPERM: the memfds
 *    are sealed), so gemd cannot be made to SIGBUS on its next access:
 *    relocations and pread into that memory still work afterwards, and
 *    no further seal (F_SEAL_WRITE) can be added either.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

#define SECRET_LEN	64

/* A recognisable 64-byte secret: the tag, then bytes from seed. */
static void make_secret(uint8_t *s, uint32_t seed)
{
	gt_fill_pattern(s, SECRET_LEN, seed);
	memcpy(s, "GEMKIT-SECRET!", 14);
}

static bool mem_has(const uint8_t *p, size_t len, const uint8_t *secret)
{
	return len >= SECRET_LEN && memmem(p, len, secret, SECRET_LEN) != NULL;
}

/* Is secret anywhere in the data (not the holes) of memfd fd? */
static bool memfd_has(int fd, const uint8_t *secret)
{
	struct stat st;
	off_t data = 0, hole;
	bool found = false;

	if (fstat(fd, &st) < 0)
		return false;
	while (!found && data < st.st_size) {
		uint8_t *p;

		data = lseek(fd, data, SEEK_DATA);
		if (data < 0)
			break;
		hole = lseek(fd, data, SEEK_HOLE);
		gt_assert(hole > data);
		p = malloc((size_t)(hole - data));
		gt_assert(p);
		gt_assert_eq(pread(fd, p, (size_t)(hole - data), data), hole - data);
		found = mem_has(p, (size_t)(hole - data), secret);
		free(p);
		data = hole;
	}
	return found;
}

static bool is_gem_memfd(const char *link)
{
	return !strncmp(link, "/memfd:gem-arena", 16);
}

/* The gem memfds this process holds descriptors of: how many, into fds. */
static int gem_fds(int *fds, int max)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	gt_assert(d);
	while ((e = readdir(d)) && n < max) {
		char path[300], link[PATH_MAX];
		ssize_t len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (is_gem_memfd(link))
			fds[n++] = atoi(e->d_name);
	}
	closedir(d);
	return n;
}

/* The first of them that holds secret, or -1. */
static int fd_with(const uint8_t *secret, int *count)
{
	int fds[256], i;

	*count = gem_fds(fds, 256);
	for (i = 0; i < *count; i++)
		if (memfd_has(fds[i], secret))
			return fds[i];
	return -1;
}

/* Every gem memfd mapping of this process, read through the mapping. */
static bool maps_have(const uint8_t *secret, int *count)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	bool found = false;

	gt_assert(f);
	*count = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;
		char *path = strchr(line, '/');

		if (!path || !is_gem_memfd(path) ||
		    sscanf(line, "%lx-%lx", &start, &end) != 2)
			continue;
		(*count)++;
		/* Only small mappings: whole arenas are read through fds. */
		if (end - start <= (64u << 20))
			found |= mem_has((const uint8_t *)start, end - start, secret);
	}
	fclose(f);
	return found;
}

static int flink(int fd, uint32_t handle, uint32_t *name)
{
	struct drm_gem_flink arg = { .handle = handle };
	int ret = gem_ioctl(fd, DRM_IOCTL_GEM_FLINK, &arg);

	*name = arg.name;
	return ret;
}

static uint32_t open_name(int fd, uint32_t name)
{
	struct drm_gem_open arg = { .name = name };

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_GEM_OPEN, &arg), 0);
	return arg.handle;
}

static int prime_export(int fd, uint32_t handle)
{
	struct drm_prime_handle arg = {
		.handle = handle, .flags = DRM_CLOEXEC | DRM_RDWR, .fd = -1,
	};

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &arg), 0);
	return arg.fd;
}

/*
 * The victim (a child) fills a private object and a shared one next to
 * each other (the same arena, were arenas shared), names the shared one,
 * sends the name, and waits to be told to go.
 */
static void victim(int sock, const uint8_t *priv, const uint8_t *shared)
{
	int fd = gt_open();
	uint32_t p = gt_create(fd, 8192), s = gt_create(fd, 8192), name = 0;
	char byte;

	gt_write(fd, p, 4096, priv, SECRET_LEN);
	gt_write(fd, s, 4096, shared, SECRET_LEN);
	/* Its own mapping of the private one: mapped memory is no excuse. */
	memcpy((uint8_t *)gt_mmap_cpu(fd, p, 0, 8192) + 100, priv, SECRET_LEN);
	gt_assert_eq(flink(fd, s, &name), 0);
	gt_assert_eq(write(sock, &name, sizeof(name)), (ssize_t)sizeof(name));
	gt_assert_eq(read(sock, &byte, 1), 1);
	gt_read(fd, p, 4096, &byte, 1);
	_exit(byte == priv[0] ? 0 : 3);
}

static void test_arena_holds_only_own(void)
{
	uint8_t priv[SECRET_LEN], shared[SECRET_LEN], got[SECRET_LEN];
	int sv[2], status, fd, nfds, nmaps;
	uint32_t name, h, mine, oh;
	pid_t pid;

	make_secret(priv, 1);
	make_secret(shared, 2);
	gt_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		close(sv[0]);
		victim(sv[1], priv, shared);
	}
	close(sv[1]);
	gt_assert_eq(read(sv[0], &name, sizeof(name)), (ssize_t)sizeof(name));

	/* The attacker: objects of its own, and the shared one, used in
	 * every way that hands out memory. */
	fd = gt_open();
	mine = gt_create(fd, 8192);
	gt_write(fd, mine, 0, "mine", 4);
	gt_mmap_cpu(fd, mine, 0, 8192);
	gt_mmap_gtt(fd, mine, 8192);
	oh = open_name(fd, name);
	gt_read(fd, oh, 4096, got, sizeof(got));
	gt_assert(!memcmp(got, shared, SECRET_LEN));
	gt_mmap_cpu(fd, oh, 0, 8192);
	gt_mmap_gtt(fd, oh, 8192);
	close(prime_export(fd, oh));
	h = gt_create(fd, 4096);
	gt_read(fd, h, 0, got, 16);

	gt_assert(fd_with(shared, &nfds) >= 0);
	gt_assert(nfds > 0);
	gt_assert_eq(fd_with(priv, &nfds), -1);
	gt_assert(maps_have(shared, &nmaps));
	gt_assert(!maps_have(priv, &nmaps));

	/* The victim's bytes are as it left them. */
	gt_assert_eq(write(sv[0], "x", 1), 1);
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(sv[0]);
	gem_close(fd);
}

static uint64_t mmap_offset(int fd, uint32_t handle, uint32_t type)
{
	struct drm_i915_gem_mmap_offset arg = { .handle = handle, .flags = type };

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &arg), 0);
	return arg.offset;
}

static int try_map(int fd, uint64_t offset)
{
	void *p = gem_mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, (off_t)offset);

	if (p == MAP_FAILED)
		return -errno;
	gem_munmap(p, 4096);
	return 0;
}

/* Offsets are checked per file (cause 12): gem_mmap_offset isolation. */
static void test_mmap_offset_per_file(void)
{
	static const uint32_t types[] = {
		I915_MMAP_OFFSET_GTT, I915_MMAP_OFFSET_WC,
		I915_MMAP_OFFSET_WB, I915_MMAP_OFFSET_UC,
	};
	int a = gt_open(), b = gt_open(), none = gt_open();
	uint32_t h = gt_create(a, 4096), name, hb;
	unsigned int i;

	gt_assert_eq(flink(a, h, &name), 0);
	hb = open_name(b, name);
	for (i = 0; i < 4; i++) {
		uint64_t oa = mmap_offset(a, h, types[i]);
		uint64_t ob = mmap_offset(b, hb, types[i]);

		/* One node per object and type, as the kernel's. */
		gt_assert_eq_u64(ob, oa);
		gt_assert_eq(try_map(none, oa), -EACCES);
		gt_assert_eq(try_map(a, oa), 0);
		gt_assert_eq(try_map(b, oa), 0);
	}
	/* Its handle gone, b may map it no more. */
	gt_close(b, hb);
	gt_assert_eq(try_map(b, mmap_offset(a, h, I915_MMAP_OFFSET_GTT)), -EACCES);
	/* No such object at all: EINVAL. */
	gt_assert_eq(try_map(a, mmap_offset(a, h, 0) + (1ull << 40)), -EINVAL);
	gem_close(a);
	gem_close(b);
	gem_close(none);
}

/* gemd writes a relocation into batch and reads the object back. */
static void assert_gemd_uses(int fd, uint32_t batch, uint32_t target)
{
	uint32_t cmd[2] = { MI_BATCH_BUFFER_END, 0 }, got = 0;
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = target, .offset = 64, .delta = 8,
		.presumed_offset = ~0ull,
		.read_domains = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = target },
		{ .handle = batch, .relocation_count = 1,
		  .relocs_ptr = (uintptr_t)&reloc },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = 2,
		.batch_len = 8, .flags = I915_EXEC_RENDER,
	};

	gt_write(fd, batch, 0, cmd, sizeof(cmd));
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	gt_sync(fd, batch);
	gt_read(fd, batch, 64, &got, sizeof(got));
	gt_assert_eq(got, (uint32_t)objs[0].offset + 8);
	gt_assert_eq(kill(gemtest_gemd_pid(), 0), 0);
}

/* Attack 3: shrinking the memory under gemd. */
static void test_ftruncate_refused(void)
{
	uint8_t secret[SECRET_LEN], got[SECRET_LEN];
	int fd = gt_open(), afd, pfd, n;
	uint32_t batch = gt_create(fd, 4096), obj = gt_create(fd, 65536), shared;
	struct stat st;

	make_secret(secret, 3);
	gt_write(fd, obj, 8192, secret, SECRET_LEN);
	afd = fd_with(secret, &n);
	gt_assert(afd >= 0);
	gt_assert(fstat(afd, &st) == 0);
	gt_assert_errno(ftruncate(afd, 0), EPERM);
	gt_assert_errno(ftruncate(afd, st.st_size * 2), EPERM);
	gt_assert_errno(fcntl(afd, F_ADD_SEALS, F_SEAL_WRITE), EPERM);
	assert_gemd_uses(fd, batch, obj);
	gt_read(fd, obj, 8192, got, SECRET_LEN);
	gt_assert(!memcmp(got, secret, SECRET_LEN));

	/* The same for a PRIME fd, the object's memory itself. */
	shared = gt_create(fd, 16384);
	gt_write(fd, shared, 0, secret, SECRET_LEN);
	pfd = prime_export(fd, shared);
	gt_assert_errno(ftruncate(pfd, 4096), EPERM);
	gt_assert_errno(fcntl(pfd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE), EPERM);
	assert_gemd_uses(fd, batch, shared);
	gt_read(fd, shared, 0, got, SECRET_LEN);
	gt_assert(!memcmp(got, secret, SECRET_LEN));
	close(pfd);
	gem_close(fd);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	gemtest_start_gemd(NULL);

	gemtest_subtest("arena-holds-only-own-objects")
		test_arena_holds_only_own();
	gemtest_subtest("mmap-offset-per-file")
		test_mmap_offset_per_file();
	gemtest_subtest("ftruncate-refused")
		test_ftruncate_refused();
	return gemtest_exit();
}

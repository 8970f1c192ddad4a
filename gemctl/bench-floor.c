/*
 * Floors, measured in the same run as the figures they are set against:
 * on a shared machine only ratios to something measured a moment ago
 * mean anything.  Each is the best of a few rounds (the least disturbed).
 *
 *   rtt      an AF_UNIX stream round trip of 64 bytes between two threads:
 *            what any request to gemd costs at least
 *   memcpy   a warm copy of each size: what a map upload costs at least
 *   pwrite   pwrite(2) of each size into a memfd: the same through a
 *            syscall, what the pwrite path costs at least
 *   debugfs  snprintf of the counters' key=value text and strtoul of
 *            every value: what reading gemkit_counters costs at least
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"
#include "gemdebugfs.h"
#include "strbuf.h"
#include "util.h"

#define ROUNDS		3
#define RTT_ITERS	5000
#define RTT_MSG		64
#define COPY_BYTES	(32ull << 20)	/* per round and size */
#define DFS_ITERS	200

const uint64_t bench_floor_sizes[BENCH_NSIZES] = {
	4096, 16384, 256 << 10, 4 << 20,
};

static void *echo_main(void *arg)
{
	int fd = *(int *)arg;
	char buf[RTT_MSG];

	while (read_full(fd, buf, sizeof(buf)) == RTT_MSG &&
	       write_full(fd, buf, sizeof(buf)) == RTT_MSG)
		;
	return NULL;
}

static int rtt_floor(double *ns)
{
	char buf[RTT_MSG] = { 0 };
	pthread_t echo;
	uint64_t t0;
	int sv[2], r, i, ret = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	if (pthread_create(&echo, NULL, echo_main, &sv[1])) {
		close(sv[0]);
		close(sv[1]);
		return -EAGAIN;
	}
	*ns = 1e18;
	for (r = 0; r < ROUNDS && !ret; r++) {
		t0 = now_ns();
		for (i = 0; i < RTT_ITERS; i++) {
			if (write_full(sv[0], buf, sizeof(buf)) != RTT_MSG ||
			    read_full(sv[0], buf, sizeof(buf)) != RTT_MSG) {
				ret = -EIO;
				break;
			}
		}
		if ((double)(now_ns() - t0) / RTT_ITERS < *ns)
			*ns = (double)(now_ns() - t0) / RTT_ITERS;
	}
	shutdown(sv[0], SHUT_RDWR);
	pthread_join(echo, NULL);
	close(sv[0]);
	close(sv[1]);
	return ret;
}

static int copy_floors(struct bench_floors *f)
{
	uint64_t max = bench_floor_sizes[BENCH_NSIZES - 1], t0, n, i;
	uint8_t *src = malloc(max), *dst = malloc(max);
	int mfd = memfd_create("gemctl-bench-floor", MFD_CLOEXEC);
	unsigned int s, r;
	int ret = 0;

	if (!src || !dst || mfd < 0 || ftruncate(mfd, (off_t)max)) {
		ret = mfd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	memset(src, 0x5a, max);
	memset(dst, 0, max);
	for (s = 0; s < BENCH_NSIZES && !ret; s++) {
		uint64_t len = bench_floor_sizes[s];

		n = COPY_BYTES / len;
		f->memcpy_ns[s] = f->pwrite_ns[s] = 1e18;
		for (r = 0; r < ROUNDS; r++) {
			t0 = now_ns();
			for (i = 0; i < n; i++) {
				src[i % len] = (uint8_t)i;
				memcpy(dst, src, len);
			}
			/* Keep the copies: the compiler must not drop them. */
			__asm__ volatile("" : : "r"(dst) : "memory");
			if ((double)(now_ns() - t0) / (double)n < f->memcpy_ns[s])
				f->memcpy_ns[s] = (double)(now_ns() - t0) / (double)n;
			t0 = now_ns();
			for (i = 0; i < n; i++) {
				if (pwrite(mfd, src, len, 0) != (ssize_t)len) {
					ret = -EIO;
					break;
				}
			}
			if ((double)(now_ns() - t0) / (double)n < f->pwrite_ns[s])
				f->pwrite_ns[s] = (double)(now_ns() - t0) / (double)n;
		}
	}
out:
	if (mfd >= 0)
		close(mfd);
	free(src);
	free(dst);
	return ret;
}

/* Read and parse gemkit_counters DFS_ITERS times; then print the same
 * counters with snprintf and parse them with strtoul as often. */
static int dfs_floor(struct bench_floors *f, struct gdfs *g)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct gdfs_counters c = { 0 };
	char line[64];
	uint64_t t0, sum = 0;
	unsigned int r, i;
	size_t k;
	int ret = 0;

	f->dfs_cycle_ns = f->dfs_floor_ns = 1e18;
	for (r = 0; r < ROUNDS && !ret; r++) {
		t0 = now_ns();
		for (i = 0; i < DFS_ITERS && !ret; i++) {
			strbuf_reset(&text);
			gdfs_counters_release(&c);
			ret = gdfs_read(g, "gemkit_counters", &text);
			if (!ret)
				ret = gdfs_parse_counters(text.buf, text.len, &c, &err);
		}
		if ((double)(now_ns() - t0) / DFS_ITERS < f->dfs_cycle_ns)
			f->dfs_cycle_ns = (double)(now_ns() - t0) / DFS_ITERS;
	}
	f->dfs_bytes = text.len;
	for (r = 0; r < ROUNDS && !ret; r++) {
		t0 = now_ns();
		for (i = 0; i < DFS_ITERS; i++) {
			for (k = 0; k < c.n; k++) {
				snprintf(line, sizeof(line), "%s=%llu ", c.v[k].key,
					 (unsigned long long)c.v[k].value);
				sum += strtoul(strchr(line, '=') + 1, NULL, 10);
			}
		}
		if ((double)(now_ns() - t0) / DFS_ITERS < f->dfs_floor_ns)
			f->dfs_floor_ns = (double)(now_ns() - t0) / DFS_ITERS;
	}
	__asm__ volatile("" : : "r"(sum));
	gdfs_counters_release(&c);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

int bench_floors_measure(struct bench_floors *f, struct gdfs *gdfs)
{
	int ret;

	memset(f, 0, sizeof(*f));
	ret = rtt_floor(&f->rtt_ns);
	if (!ret)
		ret = copy_floors(f);
	if (!ret && gdfs)
		ret = dfs_floor(f, gdfs);
	return ret;
}

double bench_floor_copy_ns(const struct bench_floors *f, bool pwrite,
			   uint64_t len)
{
	unsigned int s = 0;
	const double *ns = pwrite ? f->pwrite_ns : f->memcpy_ns;

	while (s + 1 < BENCH_NSIZES && bench_floor_sizes[s] < len)
		s++;
	return ns[s] * (double)len / (double)bench_floor_sizes[s];
}

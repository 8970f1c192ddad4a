/*
 * gem_debugfs_large: a raw debugfs file larger than a message (64 MiB),
 * read whole through gemd's socket.  gemd refuses the READ before it
 * buffers anything; libgemdebugfs then reads it in GDFS_SOCKET_CHUNK
 * ranges, so the tool gets every byte and gemd holds one piece at a time
 * (issue 14, attack 8).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "gemtest-dfs.h"
#include "libgem.h"
#include "strbuf.h"

#define BIG		(200ull << 20)
/* What gemd may grow by while serving it: one piece, and as much again
 * for the piece's buffer growing and the reply's slack. */
#define GEMD_GROWTH_MAX	(2ull * GDFS_SOCKET_CHUNK)

static struct gdfs *sock_src;
static uint32_t big_id;
static uint8_t *big_ref;

/* gemd's peak resident set (VmHWM), in bytes. */
static uint64_t gemd_hwm(void)
{
	char path[64], line[256];
	unsigned long long kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", gemtest_gemd_pid());
	f = fopen(path, "r");
	gt_assert(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %llu kB", &kb) == 1)
			break;
	fclose(f);
	gt_assert(kb > 0);
	return kb << 10;
}

static void big_name(char *name, size_t len)
{
	snprintf(name, len, "gemkit_object_data/%u", big_id);
}

static void test_whole_read_streams(void)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t before, after;
	char name[48];

	big_name(name, sizeof(name));
	before = gemd_hwm();
	gt_assert_eq(gdfs_read(sock_src, name, &sb), 0);
	after = gemd_hwm();
	gt_assert_eq_u64(sb.len, BIG);
	gt_assert(!memcmp(sb.buf, big_ref, BIG));
	gemtest_diag("gemd VmHWM grew by %llu KiB (bound %llu KiB)",
		     (unsigned long long)((after - before) >> 10),
		     (unsigned long long)(GEMD_GROWTH_MAX >> 10));
	gt_assert_f(after - before < GEMD_GROWTH_MAX,
		    "gemd grew by %llu bytes", (unsigned long long)(after - before));
	strbuf_release(&sb);
}

static void test_whole_read_past_limit(void)
{
	struct strbuf sb = STRBUF_INIT;
	char name[48];

	big_name(name, sizeof(name));
	gt_assert_eq(strbuf_addstr(&sb, "kept"), 0);
	gdfs_set_max_size(sock_src, BIG - 1);
	gt_assert_eq(gdfs_read(sock_src, name, &sb), -EFBIG);
	gt_assert_eq(sb.len, 4);			/* nothing appended */
	gdfs_set_max_size(sock_src, BIG);		/* exactly: whole */
	gt_assert_eq(gdfs_read(sock_src, name, &sb), 0);
	gt_assert_eq_u64(sb.len, 4 + BIG);
	gt_assert(!memcmp(sb.buf + 4, big_ref, BIG));
	gdfs_set_max_size(sock_src, GDFS_MAX_FILE_SIZE);
	gt_assert(!strcmp(gdfs_strerror(-EFBIG), "larger than a debugfs file may be (256 MiB)"));
	strbuf_release(&sb);
}

static void test_range_edges(void)
{
	struct strbuf sb = STRBUF_INIT;
	char name[48];

	big_name(name, sizeof(name));
	/* across a piece's end */
	gt_assert_eq(gdfs_read_range(sock_src, name, GDFS_SOCKET_CHUNK - 3, 7, &sb), 0);
	gt_assert_eq(sb.len, 7);
	gt_assert(!memcmp(sb.buf, big_ref + GDFS_SOCKET_CHUNK - 3, 7));
	/* the last bytes, asked for with more */
	strbuf_reset(&sb);
	gt_assert_eq(gdfs_read_range(sock_src, name, BIG - 5, 4096, &sb), 0);
	gt_assert_eq(sb.len, 5);
	gt_assert(!memcmp(sb.buf, big_ref + BIG - 5, 5));
	/* past the end: nothing */
	strbuf_reset(&sb);
	gt_assert_eq(gdfs_read_range(sock_src, name, BIG + 4096, 1u << 20, &sb), 0);
	gt_assert_eq(sb.len, 0);
	strbuf_release(&sb);
}

/*
 * An ASan gemd keeps what it frees in quarantine (up to 256 MiB), and its
 * peak would count every piece it ever held: without a quarantine it
 * frees them as an ordinary gemd does.  Nothing to other builds.
 */
static void asan_without_quarantine(void)
{
	const char *old = getenv("ASAN_OPTIONS");
	struct strbuf sb = STRBUF_INIT;

	if (old && *old)
		strbuf_addf(&sb, "%s:", old);
	strbuf_addstr(&sb, "quarantine_size_mb=0");
	gt_assert_eq(setenv("ASAN_OPTIONS", sb.buf, 1), 0);
	strbuf_release(&sb);
}

int main(int argc, char **argv)
{
	const char *device;
	uint32_t h;
	int fd;

	gemtest_init(argc, argv);
	asan_without_quarantine();
	device = gemtest_start_gemd((const char *const[]){ "--no-debugfs", NULL });
	gt_program_timeout(300, gemtest_gemd_pid());
	gt_assert_eq(gdfs_open_socket(device, &sock_src), 0);
	fd = gt_open();
	h = gt_create(fd, BIG);
	big_ref = gt_upload_pattern(fd, h, BIG, 14);
	big_id = gt_dfs_object_id(sock_src, h);

	gemtest_subtest("whole-read-streams-past-a-message")
		test_whole_read_streams();
	gemtest_subtest("whole-read-past-the-limit-is-EFBIG")
		test_whole_read_past_limit();
	gemtest_subtest("range-edges")
		test_range_edges();

	free(big_ref);
	gem_close(fd);
	gdfs_close(sock_src);
	return gemtest_exit();
}

/* Unit tests of strbuf: growth, formatting, reading, and its invariants. */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "gemtest.h"
#include "strbuf.h"
#include "util.h"

/* The invariants of strbuf.h, checked after every step. */
static void check_sb(const struct strbuf *sb)
{
	gt_assert(sb->buf != NULL);
	gt_assert_eq(sb->buf[sb->len], '\0');
	if (!sb->alloc) {
		gt_assert(sb->buf == strbuf_slopbuf);
		gt_assert_eq(sb->len, 0);
	} else {
		gt_assert(sb->len < sb->alloc);
	}
	gt_assert_eq(strbuf_slopbuf[0], '\0');
}

struct writer {
	int fd;
	size_t len;
	uint32_t seed;
};

/* Feeds a pipe from another thread so the reader sees short reads. */
static void *write_pattern(void *arg)
{
	struct writer *w = arg;
	char *buf = malloc(w->len);

	if (buf) {
		gt_fill_pattern(buf, w->len, w->seed);
		write_full(w->fd, buf, w->len);
		free(buf);
	}
	close(w->fd);
	return NULL;
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	gemtest_subtest("init-empty") {
		struct strbuf a = STRBUF_INIT, b;

		check_sb(&a);
		gt_assert_eq(a.len, 0);
		gt_assert_eq(a.alloc, 0);
		strbuf_init(&b, 0);
		check_sb(&b);
		gt_assert(b.buf == strbuf_slopbuf);
		strbuf_init(&b, 100);
		check_sb(&b);
		gt_assert(b.alloc >= 101);
		gt_assert_eq(b.len, 0);
		strbuf_release(&b);
		check_sb(&b);
		gt_assert(b.buf == strbuf_slopbuf);
		/* Resetting or releasing an empty buffer must not touch the slop. */
		strbuf_reset(&a);
		strbuf_setlen(&a, 0);
		strbuf_release(&a);
		check_sb(&a);
	}

	gemtest_subtest("add-and-grow") {
		struct strbuf sb = STRBUF_INIT;
		int i;

		gt_assert_eq(strbuf_addstr(&sb, "hello"), 0);
		gt_assert_eq(strbuf_addch(&sb, ' '), 0);
		gt_assert_eq(strbuf_add(&sb, "world!!", 5), 0);
		check_sb(&sb);
		gt_assert_eq(sb.len, 11);
		gt_assert(!strcmp(sb.buf, "hello world"));
		gt_assert_eq(strbuf_addstr(&sb, ""), 0);
		gt_assert_eq(strbuf_add(&sb, NULL, 0), 0);
		gt_assert_eq(sb.len, 11);

		for (i = 0; i < 100000; i++)
			gt_assert_eq(strbuf_addch(&sb, 'a' + i % 26), 0);
		check_sb(&sb);
		gt_assert_eq(sb.len, 100011);
		for (i = 0; i < 100000; i++)
			gt_assert_eq(sb.buf[11 + i], 'a' + i % 26);
		/* Embedded NULs are data, not terminators. */
		gt_assert_eq(strbuf_add(&sb, "x\0y", 3), 0);
		gt_assert_eq(sb.len, 100014);
		gt_assert_eq(sb.buf[100012], '\0');
		gt_assert_eq(sb.buf[100013], 'y');
		check_sb(&sb);
		strbuf_release(&sb);
	}

	gemtest_subtest("add-self") {
		struct strbuf sb = STRBUF_INIT;
		int i;

		gt_assert_eq(strbuf_addstr(&sb, "abc"), 0);
		/* Doubling forces reallocs while the source is inside buf. */
		for (i = 0; i < 16; i++)
			gt_assert_eq(strbuf_add(&sb, sb.buf, sb.len), 0);
		check_sb(&sb);
		gt_assert_eq(sb.len, 3u << 16);
		for (i = 0; i < (3 << 16); i++)
			gt_assert_eq(sb.buf[i], "abc"[i % 3]);
		gt_assert_eq(strbuf_add(&sb, sb.buf + 1, 2), 0);
		gt_assert(!memcmp(sb.buf + sb.len - 2, "bc", 2));
		strbuf_release(&sb);
	}

	gemtest_subtest("addf") {
		struct strbuf sb = STRBUF_INIT;
		char big[3000];
		int i;

		gt_assert_eq(strbuf_addf(&sb, "%d-%s-%#x", 42, "x", 255), 0);
		gt_assert(!strcmp(sb.buf, "42-x-0xff"));
		gt_assert_eq(strbuf_addf(&sb, "%s", ""), 0);
		gt_assert_eq(sb.len, 9);
		memset(big, 'z', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		/* Longer than the space at hand: the retry path. */
		gt_assert_eq(strbuf_addf(&sb, "[%s]", big), 0);
		check_sb(&sb);
		gt_assert_eq(sb.len, 9 + 2 + 2999);
		gt_assert_eq(sb.buf[9], '[');
		gt_assert_eq(sb.buf[sb.len - 1], ']');
		for (i = 0; i < 1000; i++)
			gt_assert_eq(strbuf_addf(&sb, "%04d\n", i), 0);
		check_sb(&sb);
		gt_assert_eq(sb.len, 9 + 2 + 2999 + 5000);
		gt_assert(!memcmp(sb.buf + sb.len - 5, "0999\n", 5));
		strbuf_release(&sb);
	}

	gemtest_subtest("setlen-reset") {
		struct strbuf sb = STRBUF_INIT;
		size_t alloc;

		gt_assert_eq(strbuf_addstr(&sb, "0123456789"), 0);
		strbuf_setlen(&sb, 4);
		check_sb(&sb);
		gt_assert(!strcmp(sb.buf, "0123"));
		alloc = sb.alloc;
		strbuf_reset(&sb);
		check_sb(&sb);
		gt_assert_eq(sb.len, 0);
		gt_assert_eq(sb.alloc, alloc);	/* reset keeps the memory */
		gt_assert_eq(strbuf_grow(&sb, 1000), 0);
		gt_assert(sb.alloc >= 1001);
		gt_assert_eq(sb.len, 0);
		check_sb(&sb);
		strbuf_release(&sb);
	}

	gemtest_subtest("detach") {
		struct strbuf sb = STRBUF_INIT;
		size_t len = 99;
		char *s;

		s = strbuf_detach(&sb, &len);
		gt_assert(s && s != strbuf_slopbuf);
		gt_assert_eq(len, 0);
		gt_assert_eq(s[0], '\0');
		free(s);
		check_sb(&sb);

		gt_assert_eq(strbuf_addstr(&sb, "owned"), 0);
		s = strbuf_detach(&sb, &len);
		gt_assert(!strcmp(s, "owned"));
		gt_assert_eq(len, 5);
		gt_assert(sb.buf == strbuf_slopbuf);
		gt_assert_eq(sb.len, 0);
		free(s);
		s = strbuf_detach(&sb, NULL);
		free(s);
	}

	gemtest_subtest("enomem-leaves-contents") {
		struct strbuf sb = STRBUF_INIT;
		size_t alloc;

		/* Sizes that overflow size_t fail before any allocation. */
		gt_assert_eq(strbuf_grow(&sb, SIZE_MAX), -ENOMEM);
		check_sb(&sb);
		gt_assert(sb.buf == strbuf_slopbuf);
		gt_assert_eq(strbuf_addstr(&sb, "keep"), 0);
		alloc = sb.alloc;
		gt_assert_eq(strbuf_grow(&sb, SIZE_MAX - 4), -ENOMEM);
		gt_assert_eq(strbuf_add(&sb, "x", SIZE_MAX), -ENOMEM);
		gt_assert_eq(strbuf_add(&sb, "x", SIZE_MAX - 4), -ENOMEM);
		check_sb(&sb);
		gt_assert_eq(sb.len, 4);
		gt_assert_eq(sb.alloc, alloc);
		gt_assert(!strcmp(sb.buf, "keep"));
		strbuf_release(&sb);
	}

	gemtest_subtest("read-fd-pipe") {
		struct strbuf sb = STRBUF_INIT;
		struct writer w = { .len = 3 * 1024 * 1024 + 17, .seed = 7 };
		pthread_t thr;
		size_t bad = 0;
		int fds[2];

		gt_assert_eq(strbuf_addstr(&sb, "pre"), 0);
		gt_assert_eq(pipe(fds), 0);
		w.fd = fds[1];
		gt_assert_eq(pthread_create(&thr, NULL, write_pattern, &w), 0);
		gt_assert_eq(strbuf_read_fd(&sb, fds[0]), (long)w.len);
		pthread_join(thr, NULL);
		close(fds[0]);
		check_sb(&sb);
		gt_assert_eq(sb.len, w.len + 3);
		gt_assert(!memcmp(sb.buf, "pre", 3));
		gt_assert_f(gt_check_pattern(sb.buf + 3, w.len, w.seed, &bad),
			    "mismatch at %zu", bad);
		strbuf_release(&sb);
	}

	gemtest_subtest("read-fd-file") {
		struct strbuf sb = STRBUF_INIT;
		char path[] = "/tmp/test-strbuf.XXXXXX";
		char data[10000];
		int fd;

		fd = mkstemp(path);
		gt_assert(fd >= 0);
		unlink(path);
		gt_fill_pattern(data, sizeof(data), 3);
		gt_assert_eq(write_full(fd, data, sizeof(data)), (long)sizeof(data));
		gt_assert_eq(lseek(fd, 0, SEEK_SET), 0);
		gt_assert_eq(strbuf_read_fd(&sb, fd), (long)sizeof(data));
		gt_assert_eq(sb.len, sizeof(data));
		gt_assert(!memcmp(sb.buf, data, sizeof(data)));
		check_sb(&sb);
		/* At EOF: nothing more, contents untouched. */
		gt_assert_eq(strbuf_read_fd(&sb, fd), 0);
		gt_assert_eq(sb.len, sizeof(data));
		close(fd);

		fd = open("/dev/null", O_RDONLY);
		gt_assert(fd >= 0);
		strbuf_reset(&sb);
		gt_assert_eq(strbuf_read_fd(&sb, fd), 0);
		check_sb(&sb);
		close(fd);
		strbuf_release(&sb);
	}

	gemtest_subtest("read-fd-error") {
		struct strbuf sb = STRBUF_INIT;
		int fd;

		gt_assert_eq(strbuf_addstr(&sb, "unchanged"), 0);
		gt_assert_eq(strbuf_read_fd(&sb, -1), -EBADF);
		fd = open("/", O_RDONLY | O_DIRECTORY);
		gt_assert(fd >= 0);
		gt_assert_eq(strbuf_read_fd(&sb, fd), -EISDIR);
		close(fd);
		check_sb(&sb);
		gt_assert(!strcmp(sb.buf, "unchanged"));
		strbuf_release(&sb);
	}

	/* A file by path, bounded: the bound is exact and a refusal leaves
	 * the buffer as it was. */
	gemtest_subtest("read-path-bounded") {
		struct strbuf sb = STRBUF_INIT;
		char path[512];
		int fd;

		snprintf(path, sizeof(path), "%s/ten", gemtest_tmpdir());
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		gt_assert(fd >= 0);
		gt_assert_eq(write(fd, "0123456789", 10), 10);
		close(fd);
		strbuf_addstr(&sb, "x");
		gt_assert_eq(strbuf_read_path(&sb, path, 10), 10);
		gt_assert(!strcmp(sb.buf, "x0123456789"));
		gt_assert_eq(strbuf_read_path(&sb, path, 9), -EFBIG);
		gt_assert(!strcmp(sb.buf, "x0123456789"));
		gt_assert_eq(strbuf_read_path(&sb, path, 0), 10);
		gt_assert_eq(sb.len, 21);
		snprintf(path, sizeof(path), "%s/missing", gemtest_tmpdir());
		gt_assert_eq(strbuf_read_path(&sb, path, 0), -ENOENT);
		gt_assert_eq(sb.len, 21);
		strbuf_release(&sb);
	}

	return gemtest_exit();
}

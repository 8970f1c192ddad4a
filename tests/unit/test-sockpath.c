/* Unit tests of sockpath: bind, connect and name peers at any path length. */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gemtest.h"
#include "sockpath.h"
#include "strbuf.h"

static char base[PATH_MAX];	/* the test's directory, symlinks resolved */

/* A directory under base whose path, with "/" and a name of namelen
 * bytes, is exactly total bytes long. */
static void long_dir(struct strbuf *dir, size_t total, size_t namelen)
{
	size_t left, take;

	strbuf_reset(dir);
	strbuf_addstr(dir, base);
	gt_assert(dir->len + 1 + namelen + 2 <= total);
	left = total - dir->len - 1 - namelen;
	while (left) {
		/* components of "/" and up to 60 bytes; never leave 1 */
		take = left > 61 ? 61 : left;
		if (left - take == 1)
			take--;
		strbuf_addch(dir, '/');
		while (--take)
			strbuf_addch(dir, 'd');
		left = total - dir->len - 1 - namelen;
		if (mkdir(dir->buf, 0700) && errno != EEXIST)
			gt_assert_f(0, "mkdir %s: %s", dir->buf, strerror(errno));
	}
	gt_assert_eq(dir->len + 1 + namelen, total);
}

static void name_of(struct strbuf *path, const struct strbuf *dir, size_t namelen,
		    char c)
{
	strbuf_reset(path);
	strbuf_addf(path, "%s/", dir->buf);
	while (namelen--)
		strbuf_addch(path, c);
}

/* Listen at path, connect a client, check the client names the listener
 * by path and the listener's dirfd says whether /proc/self/fd was used. */
static void round_trip(const char *path, bool via_dir)
{
	struct strbuf peer = STRBUF_INIT;
	int lfd, cfd, afd, dirfd = -2;

	unlink(path);
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	gt_assert(lfd >= 0);
	gt_assert_eq(sockpath_bind(lfd, path, &dirfd), 0);
	gt_assert_eq(dirfd >= 0, via_dir);
	gt_assert_eq(listen(lfd, 4), 0);
	cfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	gt_assert(cfd >= 0);
	gt_assert_eq(sockpath_connect(cfd, path), 0);
	afd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	gt_assert(afd >= 0);
	gt_assert_eq(write(cfd, "x", 1), 1);
	gt_assert_eq(sockpath_peer(cfd, &peer), 0);
	gt_assert_f(!strcmp(peer.buf, path), "peer %s, not %s", peer.buf, path);
	/* the accepted side's peer is unnamed */
	gt_assert_eq(sockpath_peer(afd, &peer), -ENOTCONN);
	close(afd);
	close(cfd);
	close(lfd);
	if (dirfd >= 0)
		close(dirfd);
	gt_assert_eq(unlink(path), 0);
	strbuf_release(&peer);
}

int main(int argc, char **argv)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;

	gemtest_init(argc, argv);
	/* peer names come back resolved: build on a real path */
	if (!realpath(gemtest_tmpdir(), base))
		return 1;

	/* 107 bytes and a NUL fill sun_path: bound as is. */
	gemtest_subtest("fits-sun-path") {
		long_dir(&dir, 107, 5);
		name_of(&path, &dir, 5, 's');
		gt_assert_eq(path.len, 107);
		round_trip(path.buf, false);
	}

	/* One byte more goes through the directory. */
	gemtest_subtest("one-past-sun-path") {
		long_dir(&dir, 108, 5);
		name_of(&path, &dir, 5, 's');
		round_trip(path.buf, true);
	}

	gemtest_subtest("very-long-path") {
		long_dir(&dir, 600, 5);
		name_of(&path, &dir, 5, 'c');
		round_trip(path.buf, true);
		/* the longest name the /proc form takes */
		name_of(&path, &dir, SOCKPATH_NAME_MAX, 'n');
		round_trip(path.buf, true);
	}

	/* A relative long path resolves against the working directory. */
	gemtest_subtest("relative-long-path") {
		struct strbuf rel = STRBUF_INIT;
		char cwd[PATH_MAX];

		long_dir(&dir, 300, 5);
		gt_assert(getcwd(cwd, sizeof(cwd)));
		gt_assert_eq(chdir(base), 0);
		strbuf_addf(&rel, "%s/card0", dir.buf + strlen(base) + 1);
		gt_assert(rel.len > 108);
		{
			int lfd = socket(AF_UNIX, SOCK_STREAM, 0), cfd, dirfd;

			gt_assert_eq(sockpath_bind(lfd, rel.buf, &dirfd), 0);
			gt_assert(dirfd >= 0);
			gt_assert_eq(listen(lfd, 1), 0);
			cfd = socket(AF_UNIX, SOCK_STREAM, 0);
			gt_assert_eq(sockpath_connect(cfd, rel.buf), 0);
			name_of(&path, &dir, 0, 'x');
			strbuf_addstr(&path, "card0");
			gt_assert_eq(access(path.buf, F_OK), 0);
			close(cfd);
			close(lfd);
			close(dirfd);
			unlink(path.buf);
		}
		gt_assert_eq(chdir(cwd), 0);
		strbuf_release(&rel);
	}

	/* A name too long even for /proc/self/fd/N/ is refused, with the
	 * limit in the message. */
	gemtest_subtest("name-too-long") {
		struct strbuf why = STRBUF_INIT;
		char want[64];
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), dirfd = 7;

		long_dir(&dir, 300, 5);
		name_of(&path, &dir, SOCKPATH_NAME_MAX + 1, 'n');
		gt_assert_eq(sockpath_bind(fd, path.buf, &dirfd), -ENAMETOOLONG);
		gt_assert_eq(dirfd, -1);
		gt_assert_eq(sockpath_connect(fd, path.buf), -ENAMETOOLONG);
		sockpath_strerror(&why, path.buf, -ENAMETOOLONG);
		gt_assert(!strncmp(why.buf, "socket path too long: ", 22));
		gt_assert(strstr(why.buf, "holds 107 bytes"));
		snprintf(want, sizeof(want), "at most %d bytes, not %d)",
			 (int)SOCKPATH_NAME_MAX, (int)SOCKPATH_NAME_MAX + 1);
		gt_assert_f(strstr(why.buf, want), "%s", why.buf);
		strbuf_reset(&why);
		sockpath_strerror(&why, "/x", -ENOENT);
		gt_assert(!strcmp(why.buf, "/x: No such file or directory"));
		close(fd);
		strbuf_release(&why);
	}

	/* Errors are connect's and open's own. */
	gemtest_subtest("errors") {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), dirfd;
		int sv[2];
		struct strbuf peer = STRBUF_INIT;

		long_dir(&dir, 300, 5);
		name_of(&path, &dir, 5, 'm');
		gt_assert_eq(sockpath_connect(fd, path.buf), -ENOENT);
		strbuf_addstr(&dir, "/missing-dir");
		name_of(&path, &dir, 5, 'm');
		gt_assert_eq(sockpath_connect(fd, path.buf), -ENOENT);
		gt_assert_eq(sockpath_bind(fd, path.buf, &dirfd), -ENOENT);
		gt_assert_eq(dirfd, -1);
		gt_assert_eq(sockpath_connect(fd, ""), -ENOENT);
		gt_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		gt_assert_eq(sockpath_peer(sv[0], &peer), -ENOTCONN);
		gt_assert_eq(sockpath_peer(fd, &peer), -ENOTCONN);
		close(sv[0]);
		close(sv[1]);
		close(fd);
		strbuf_release(&peer);
	}

	strbuf_release(&dir);
	strbuf_release(&path);
	return gemtest_exit();
}

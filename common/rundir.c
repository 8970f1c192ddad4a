/* The runtime directory's ownership rule (see rundir.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundir.h"

int rundir_check(const char *dir, struct strbuf *why)
{
	struct stat st;

	if (lstat(dir, &st) < 0) {
		if (errno != ENOENT)
			strbuf_addf(why, "cannot stat runtime directory %s: %s",
				    dir, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		strbuf_addf(why, "runtime directory %s is not a directory%s",
			    dir, S_ISLNK(st.st_mode) ? " (a symlink)" : "");
		return -ENOTDIR;
	}
	if (st.st_uid != geteuid()) {
		strbuf_addf(why, "runtime directory %s is owned by uid %u, not "
			    "by you (uid %u); refusing to use it", dir,
			    (unsigned int)st.st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		strbuf_addf(why, "runtime directory %s has mode %04o: writable "
			    "by %s; refusing to use it (chmod go-w)", dir,
			    (unsigned int)(st.st_mode & 07777),
			    st.st_mode & S_IWOTH ? "anyone" : "its group");
		return -EPERM;
	}
	return 0;
}

int rundir_prepare(const char *dir, mode_t mode, struct strbuf *why)
{
	if (mkdir(dir, mode) < 0 && errno != EEXIST) {
		strbuf_addf(why, "cannot create runtime directory %s: %s", dir,
			    strerror(errno));
		return -errno;
	}
	return rundir_check(dir, why);
}

bool rundir_trusted(const char *dir)
{
	static __thread bool said;
	struct strbuf why = STRBUF_INIT;
	int ret = rundir_check(dir, &why);

	if (ret && ret != -ENOENT && !said) {
		fprintf(stderr, "gemkit: %s\n", why.buf);
		said = true;
	}
	strbuf_release(&why);
	return ret == 0 || ret == -ENOENT;
}

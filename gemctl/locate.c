/* Finding gemkit's own files from the running gemctl: see locate.h. */
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "locate.h"

bool locate_is_file(const char *path, bool exec)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       (!exec || access(path, X_OK) == 0);
}

bool locate_self_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n <= 0)
		return false;
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return true;
}

bool locate_near(struct strbuf *out, const char *dir,
		 const char *const *rels, bool exec)
{
	for (; *rels; rels++) {
		strbuf_reset(out);
		strbuf_addf(out, "%s/%s", dir, *rels);
		if (locate_is_file(out->buf, exec))
			return true;
	}
	return false;
}

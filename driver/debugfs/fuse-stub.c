/* Built when configure found no libfuse3: no mount, the socket fallback only. */
#include <errno.h>

#include "debugfs_priv.h"

int gem_debugfs_start(struct gem_device *dev, const char *dir, struct gem_debugfs **out)
{
	*out = NULL;
	return -ENODEV;
}

int gem_debugfs_stop(struct gem_debugfs *dfs)
{
	return 0;
}

int gem_debugfs_cleanup_stale(const char *dir)
{
	return 0;
}

const char *gem_debugfs_dir(const struct gem_debugfs *dfs)
{
	return NULL;
}

dev_t gem_debugfs_dev(const struct gem_debugfs *dfs)
{
	return 0;
}

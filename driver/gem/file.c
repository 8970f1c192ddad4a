/* drm_files and their handle namespaces. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "gem_priv.h"
#include "log.h"

int gem_file_open(struct gem_device *dev, pid_t pid, const char *comm,
		  struct gem_file **out)
{
	struct gem_file *file;
	int ret;

	file = gem_calloc(1, sizeof(*file));
	if (!file)
		return -ENOMEM;
	file->dev = dev;
	file->pid = pid;
	snprintf(file->comm, sizeof(file->comm), "%s", comm ? comm : "");
	file->lowest_free = 1;
	file->status_fd = -1;
	INIT_LIST_HEAD(&file->requests);
	gem_lock(dev);
	ret = gem_master_open(file);
	if (ret) {
		gem_unlock(dev);
		free(file);
		return ret;
	}
	file->id = dev->next_file_id++;
	list_add_tail(&file->link, &dev->files);
	gem_unlock(dev);
	log_debug("file %u opened by pid %d (%s)", file->id, (int)pid, file->comm);
	*out = file;
	return 0;
}

/* Drop one handle's hold on obj (drm_gem_object_handle_unreference). */
static void gem_handle_unref(struct gem_file *file, uint32_t handle,
			     struct gem_object *obj)
{
	struct gem_device *dev = file->dev;

	gem_status_handle_removed(file, handle, obj);
	if (obj->pin_file == file && obj->user_pin_count) {
		/* Legacy pins die with the file that made them. */
		obj->user_pin_count = 0;
		obj->pin_file = NULL;
		gem_object_unpin(obj);
	}
	if (--obj->handle_count == 0 && obj->flink_name) {
		idmap_remove(&dev->names, obj->flink_name);
		obj->flink_name = 0;
	}
	gem_object_put(obj);
}

void gem_file_release(struct gem_file *file)
{
	struct gem_device *dev = file->dev;
	uint32_t h;

	gem_lock(dev);
	gem_status_file_release(file);
	for (h = 1; h < file->handles_alloc; h++) {
		struct gem_object *obj = file->handles[h];

		if (obj) {
			file->handles[h] = NULL;
			gem_handle_unref(file, h, obj);
		}
	}
	gem_request_file_release(file);
	gem_master_release(file);
	list_del_init(&file->link);
	gem_verify_after(dev, "file release", file);
	gem_unlock(dev);
	log_debug("file %u released (pid %d)", file->id, (int)file->pid);
	free(file->handles);
	free(file);
}

struct gem_object *gem_handle_lookup(struct gem_file *file, uint32_t handle)
{
	struct gem_object *obj;

	gem_assert_held(file->dev);

	if (handle == 0 || handle >= file->handles_alloc)
		return NULL;
	obj = file->handles[handle];
	if (obj)
		gem_object_get(obj);
	return obj;
}

int gem_handle_create(struct gem_file *file, struct gem_object *obj,
		      uint32_t *handle)
{
	uint32_t h;

	/* Lowest free handle >= 1, as idr_alloc(…, 1, 0) gives. */
	for (h = file->lowest_free; h < file->handles_alloc; h++)
		if (!file->handles[h])
			break;
	if (h >= file->handles_alloc) {
		uint32_t n = file->handles_alloc ? file->handles_alloc * 2 : 64;
		struct gem_object **tab;

		if (n > (1u << 30))
			return -ENOSPC;
		tab = gem_realloc(file->handles, n * sizeof(*tab));
		if (!tab)
			return -ENOMEM;
		memset(tab + file->handles_alloc, 0,
		       (n - file->handles_alloc) * sizeof(*tab));
		file->handles = tab;
		if (h < 1)
			h = 1;
		file->handles_alloc = n;
	}
	file->handles[h] = obj;
	file->lowest_free = h + 1;
	file->handle_count++;
	obj->handle_count++;
	gem_object_get(obj);
	gem_status_handle_added(file, h, obj);
	*handle = h;
	return 0;
}

int gem_handle_delete(struct gem_file *file, uint32_t handle)
{
	struct gem_object *obj;

	if (handle == 0 || handle >= file->handles_alloc ||
	    !(obj = file->handles[handle]))
		return -EINVAL;
	file->handles[handle] = NULL;
	if (handle < file->lowest_free)
		file->lowest_free = handle;
	file->handle_count--;
	gem_handle_unref(file, handle, obj);
	return 0;
}

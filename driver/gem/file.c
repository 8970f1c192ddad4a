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
	file->copies_fd = -1;
	INIT_LIST_HEAD(&file->arenas);
	INIT_LIST_HEAD(&file->requests);
	ret = gem_acct_file_open(file);
	if (ret) {
		free(file);
		return ret;
	}
	gem_lock(dev);
	/* An unbound driver has no node to open (unbind.c). */
	ret = dev->unbound ? -ENODEV : gem_master_open(file);
	if (ret) {
		gem_acct_file_release(file);
		gem_unlock(dev);
		free(file);
		return ret;
	}
	file->generation = dev->generation;
	file->id = dev->next_file_id++;
	file->watchdog_ns = (uint64_t)dev->params.request_timeout_ms * 1000000;
	list_add_tail(&file->link, &dev->files);
	gem_unlock(dev);
	log_debug("file %u opened by pid %d (%s)", file->id, (int)pid, file->comm);
	*out = file;
	return 0;
}

struct gem_holder *gem_holder_find(struct gem_object *obj,
				   const struct gem_file *file)
{
	uint32_t i;

	if (obj->holder.file == file)
		return &obj->holder;
	for (i = 0; i < obj->nmore; i++)
		if (obj->more[i].file == file)
			return &obj->more[i];
	return NULL;
}

/* Count one more handle of file's to obj: 0 or -ENOMEM. */
static int holder_add(struct gem_object *obj, struct gem_file *file)
{
	struct gem_holder *h = gem_holder_find(obj, file);

	if (h) {
		h->handles++;
		return 0;
	}
	if (!obj->holder.file) {
		h = &obj->holder;
	} else {
		if (obj->nmore == obj->more_alloc) {
			uint32_t n = obj->more_alloc ? obj->more_alloc * 2 : 2;
			struct gem_holder *p = gem_realloc(obj->more, n * sizeof(*p));

			if (!p)
				return -ENOMEM;
			obj->more = p;
			obj->more_alloc = n;
		}
		h = &obj->more[obj->nmore++];
	}
	*h = (struct gem_holder){ .file = file, .handles = 1 };
	return 0;
}

/* file's handle to obj is gone (drm_gem_remove_prime_handles too). */
static void holder_remove(struct gem_object *obj, struct gem_file *file,
			  uint32_t handle)
{
	struct gem_holder *h = gem_holder_find(obj, file);

	if (h->prime_handle == handle)
		h->prime_handle = 0;
	if (--h->handles)
		return;
	if (h != &obj->holder)
		*h = obj->more[--obj->nmore];
	else if (obj->nmore)
		*h = obj->more[--obj->nmore];
	else
		*h = (struct gem_holder){ .file = NULL };
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
	holder_remove(obj, file, handle);
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
	gem_backing_file_release(file);
	list_del_init(&file->link);
	gem_acct_file_release(file);
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
	if (holder_add(obj, file))
		return -ENOMEM;
	file->handles[h] = obj;
	file->lowest_free = h + 1;
	file->handle_count++;
	file->handle_bytes += obj->size;
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
	file->handle_bytes -= obj->size;
	gem_handle_unref(file, handle, obj);
	return 0;
}

/*
 * Suspend and resume (GEM_MSG_CONTROL, `gemctl suspend` / `resume`), as
 * i915_gem_idle() and i915_gem_entervt did around a system suspend:
 *
 *  - suspend marks the device suspended first, so no new execbuffer is
 *    queued while we drain: from then on execbuffer fails with -EBUSY,
 *    the errno the 2010 driver returned while mm.suspended was set;
 *  - then it waits for the GPU to go idle (lock dropped, as every wait),
 *    retires everything and unbinds every object that is not pinned, so
 *    the GTT holds nothing a powered-down GPU would lose.  Unbinding keeps
 *    the pages (purgeable objects are not purged: this is not memory
 *    pressure), so every object's contents survive;
 *  - resume clears the flag; objects are bound again on their next use,
 *    as after the kernel's resume.
 *
 * Suspending a suspended device, or resuming a running one, is -EALREADY.
 * If the GPU cannot idle (hung, wedged: -EIO) the suspend is undone and
 * the error returned.
 */
#include <errno.h>

#include "gem_priv.h"
#include "log.h"

/* Unbind every unpinned object; -EAGAIN when a wait dropped the lock. */
static int suspend_unbind_all(struct gem_device *dev)
{
	static const enum gem_list lists[] = {
		GEM_LIST_INACTIVE, GEM_LIST_FLUSHING, GEM_LIST_ACTIVE,
	};
	struct gem_object *obj, *next;
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		list_for_each_entry_safe(obj, next, &dev->lists[lists[i]], list_link) {
			if (obj->pin_count || !gem_object_bound(obj))
				continue;
			ret = gem_object_unbind(obj);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int gem_device_suspend(struct gem_device *dev)
{
	int ret;

	gem_lock(dev);
	if (dev->suspended) {
		ret = -EALREADY;
		goto unlock;
	}
	dev->suspended = true;
	do {
		ret = gem_gpu_idle(dev);
		if (ret)
			break;
		gem_retire_requests(dev);
		ret = suspend_unbind_all(dev);
	} while (ret == -EAGAIN);
	if (ret) {
		dev->suspended = false;
		log_warn("suspend failed: %d", ret);
	} else {
		log_notice("suspended: GPU idle, GTT holds only pinned objects");
	}
	gem_verify_after(dev, "suspend", NULL);
unlock:
	gem_unlock(dev);
	return ret;
}

int gem_device_resume(struct gem_device *dev)
{
	int ret = 0;

	gem_lock(dev);
	if (!dev->suspended)
		ret = -EALREADY;
	dev->suspended = false;
	gem_unlock(dev);
	if (!ret)
		log_notice("resumed");
	return ret;
}

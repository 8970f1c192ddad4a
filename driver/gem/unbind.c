/*
 * Driver unbind and bind (GEM_MSG_CONTROL; `gemctl unbind` / `bind`, and
 * under the interposer /sys/bus/pci/drivers/i915/unbind and bind, PCI
 * remove and rescan), as i915_pci_remove() and a later probe: the
 * drm_device that the open files belong to goes away with the unbind, and
 * a bind makes a new one.  IGT's core_hotunplug does this with files
 * still open and closes them after the rebind.
 *
 *  - unbind lets the GPU finish what it was given (the kernel wedges and
 *    cancels instead; a GPU that cannot idle is reset by hangcheck as
 *    always), then marks the device unbound: new opens fail with -ENODEV
 *    (the node is gone: the interposer says ENOENT).  Every file open at
 *    that moment belongs to the old device for good: its ioctls and maps
 *    give -ENODEV, as drm_ioctl and drm_gem_mmap do on an unplugged
 *    device, its status table says dead so libgem no longer answers for
 *    it, and only its close works (releasing its objects as usual).
 *  - The DRM master and the flink names were the old device's: the first
 *    file opened after the bind is master, and no old name opens.
 *  - bind accepts opens again; new files are the new device's.  What a
 *    new device would not have and gemd keeps: the seqno count, the GTT
 *    space of objects that old files still hold, the hang history.
 *
 * Unbinding an unbound device is -ENODEV and binding a bound one -EBUSY,
 * as the driver core's unbind_store and driver_probe_device answer.
 */
#include <errno.h>

#include "gem_priv.h"
#include "log.h"

/*
 * The names die with the device that gave them.  A named object has a
 * handle (its name goes with its last one), so the files' handles reach
 * every name, in time bounded by the objects alive, not by the names
 * ever given.
 */
static void unbind_drop_names(struct gem_device *dev)
{
	struct gem_object *obj;
	struct gem_file *file;
	uint32_t h;

	list_for_each_entry(file, &dev->files, link) {
		for (h = 1; h < file->handles_alloc; h++) {
			obj = file->handles[h];
			if (!obj || !obj->flink_name)
				continue;
			idmap_remove(&dev->names, obj->flink_name);
			obj->flink_name = 0;
		}
	}
}

int gem_device_unbind(struct gem_device *dev)
{
	struct gem_file *file;
	unsigned int left = 0;
	int ret;

	gem_lock(dev);
	if (dev->unbound) {
		ret = -ENODEV;
		goto unlock;
	}
	/* First, so that no new file or work comes while the GPU drains. */
	dev->unbound = true;
	__atomic_store_n(&dev->generation, dev->generation + 1, __ATOMIC_RELEASE);
	ret = gem_gpu_idle(dev);
	if (ret)
		log_warn("unbind: the GPU did not idle (%d); its work stays queued", ret);
	gem_retire_requests(dev);
	list_for_each_entry(file, &dev->files, link) {
		gem_status_file_unplugged(file);
		left++;
	}
	gem_master_unplug(dev);
	unbind_drop_names(dev);
	dev->suspended = false;
	log_notice("driver unbound: %u files left on the old device", left);
	gem_verify_after(dev, "unbind", NULL);
	ret = 0;
unlock:
	gem_unlock(dev);
	return ret;
}

int gem_device_bind(struct gem_device *dev)
{
	int ret = 0;

	gem_lock(dev);
	if (!dev->unbound)
		ret = -EBUSY;
	dev->unbound = false;
	gem_unlock(dev);
	if (!ret)
		log_notice("driver bound");
	return ret;
}

bool gem_file_unplugged(const struct gem_file *file)
{
	return file->generation != __atomic_load_n(&file->dev->generation,
						   __ATOMIC_ACQUIRE);
}

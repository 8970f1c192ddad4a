/*
 * The device's copy of the i915 module parameters (lib: params.def), and
 * the kernel's text rules for reading and writing them: i915_params.c and
 * i915_debugfs_params.c, with kstrto*() and kstrtobool() of lib/kstrtox.c.
 *
 * Values live in dev->params under dev->lock.  A write is checked and
 * stored whole or not at all, as the kernel's attribute writes are.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gem_priv.h"
#include "log.h"
#include "strbuf.h"
#include "util.h"

#define PARAM_TYPE(name) _Generic(((struct gem_params *)0)->name, \
	bool: GEM_PARAM_BOOL, int: GEM_PARAM_INT, \
	unsigned int: GEM_PARAM_UINT, char *: GEM_PARAM_CHARP)

/* Only the parameters that have a file (mode != 0) are listed. */
static const struct gem_param_desc param_table[] = {
#define GEM_PARAM(T, name_, def, mode_) \
	{ .name = #name_, .type = PARAM_TYPE(name_), .mode = mode_, \
	  .offset = offsetof(struct gem_params, name_) },
#include "params.def"
#undef GEM_PARAM
};

const struct gem_param_desc *gem_param_at(unsigned int i)
{
	while (i < ARRAY_SIZE(param_table) && !param_table[i].mode)
		i++;
	return i < ARRAY_SIZE(param_table) ? &param_table[i] : NULL;
}

unsigned int gem_param_index(const struct gem_param_desc *p)
{
	return (unsigned int)(p - param_table);
}

const struct gem_param_desc *gem_param_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(param_table); i++)
		if (param_table[i].mode && !strcmp(param_table[i].name, name))
			return &param_table[i];
	return NULL;
}

/* The defaults: a char * default is copied, as i915_params_copy does. */
static int set_default_bool(bool *v, bool def)
{
	*v = def;
	return 0;
}

static int set_default_int(int *v, int def)
{
	*v = def;
	return 0;
}

static int set_default_uint(unsigned int *v, unsigned int def)
{
	*v = def;
	return 0;
}

/* A copy of the first len bytes of s, through the driver's allocator. */
static char *param_strndup(const char *s, size_t len)
{
	char *p = gem_malloc(len + 1);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

static int set_default_charp(char **v, const char *def)
{
	*v = NULL;
	if (!def)
		return 0;
	*v = param_strndup(def, strlen(def));
	return *v ? 0 : -ENOMEM;
}

#define set_default(ptr, def) _Generic((ptr), \
	bool *: set_default_bool, int *: set_default_int, \
	unsigned int *: set_default_uint, char **: set_default_charp)(ptr, def)

int gem_params_init(struct gem_params *params)
{
	memset(params, 0, sizeof(*params));
#define GEM_PARAM(T, name, def, mode) \
	if (set_default(&params->name, def)) \
		goto out_nomem;
#include "params.def"
#undef GEM_PARAM
	/*
	 * What probing does to the device's copy: uc_expand_default_options
	 * turns enable_guc's "auto" (-1) into 0 before gen12.  IGT reads
	 * enable_guc & 1 as "GuC submission" and picks its paths by it.
	 */
	params->enable_guc = 0;
	return 0;

out_nomem:
	gem_params_release(params);
	return -ENOMEM;
}

void gem_params_release(struct gem_params *params)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(param_table); i++) {
		if (param_table[i].type == GEM_PARAM_CHARP) {
			char **s = (char **)((uint8_t *)params + param_table[i].offset);

			free(*s);
			*s = NULL;
		}
	}
}

/* --- the kernel's number parsing (lib/kstrtox.c) ------------------------ */

static int kstrtouint0(const char *s, unsigned int *res)
{
	unsigned long long v;
	int ret;

	if (s[0] == '+')
		s++;
	ret = kstrtoull0(s, &v);
	if (ret)
		return ret;
	if (v > UINT_MAX)
		return -ERANGE;
	*res = (unsigned int)v;
	return 0;
}

static int kstrtoint0(const char *s, int *res)
{
	unsigned long long v;
	int ret;

	if (s[0] == '-') {
		ret = kstrtoull0(s + 1, &v);
		if (ret)
			return ret;
		if (v > (unsigned long long)INT_MAX + 1)
			return -ERANGE;
		*res = (int)(0 - v);
		return 0;
	}
	if (s[0] == '+')
		s++;
	ret = kstrtoull0(s, &v);
	if (ret)
		return ret;
	if (v > INT_MAX)
		return -ERANGE;
	*res = (int)v;
	return 0;
}

/* kstrtobool: only the first one or two characters count. */
static int kstrtobool(const char *s, bool *res)
{
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N') {
			*res = true;
			return 0;
		}
		if (s[1] == 'f' || s[1] == 'F') {
			*res = false;
			return 0;
		}
		break;
	}
	return -EINVAL;
}

/* --- reading and writing ------------------------------------------------ */

static void *param_ptr(struct gem_device *dev, const struct gem_param_desc *p)
{
	return (uint8_t *)&dev->params + p->offset;
}

int gem_param_show(struct gem_device *dev, const struct gem_param_desc *p,
		   struct strbuf *sb)
{
	void *v;
	int ret;

	gem_lock(dev);
	v = param_ptr(dev, p);
	switch (p->type) {
	case GEM_PARAM_BOOL:
		ret = strbuf_addstr(sb, *(bool *)v ? "Y\n" : "N\n");
		break;
	case GEM_PARAM_INT:
		ret = strbuf_addf(sb, "%d\n", *(int *)v);
		break;
	case GEM_PARAM_UINT:
		ret = strbuf_addf(sb, "%u\n", *(unsigned int *)v);
		break;
	default:
		ret = strbuf_addf(sb, "%s\n", *(char **)v ? *(char **)v : "(null)");
		break;
	}
	gem_unlock(dev);
	return ret;
}

/*
 * A write, as the debugfs file of the parameter takes it: numbers through
 * kstrto*_from_user (base 0, at most 64 characters looked at) and, failing
 * that, a boolean word; booleans through kstrtobool; strings whole, up to
 * a NUL or the end of the write (a page at most).
 */
int gem_param_store(struct gem_device *dev, const struct gem_param_desc *p,
		    const char *buf, size_t len)
{
	char num[65], *str = NULL;
	unsigned int u = 0;
	bool b = false;
	int i = 0, ret;

	if (!(p->mode & 0200))
		return -EACCES;
	memcpy(num, buf, MIN(len, sizeof(num) - 1));
	num[MIN(len, sizeof(num) - 1)] = '\0';
	switch (p->type) {
	case GEM_PARAM_BOOL:
		ret = kstrtobool(num, &b);
		break;
	case GEM_PARAM_INT:
		ret = kstrtoint0(num, &i);
		if (ret) {
			ret = kstrtobool(num, &b);
			i = b;
		}
		break;
	case GEM_PARAM_UINT:
		ret = kstrtouint0(num, &u);
		if (ret) {
			ret = kstrtobool(num, &b);
			u = b;
		}
		break;
	default:
		len = strnlen(buf, len);
		if (len >= 4096)
			return -EINVAL;
		str = param_strndup(buf, len);
		ret = str ? 0 : -ENOMEM;
		break;
	}
	if (ret)
		return ret;

	gem_lock(dev);
	switch (p->type) {
	case GEM_PARAM_BOOL:
		*(bool *)param_ptr(dev, p) = b;
		break;
	case GEM_PARAM_INT:
		*(int *)param_ptr(dev, p) = i;
		break;
	case GEM_PARAM_UINT:
		*(unsigned int *)param_ptr(dev, p) = u;
		break;
	default:
		free(*(char **)param_ptr(dev, p));
		*(char **)param_ptr(dev, p) = str;
		break;
	}
	gem_unlock(dev);
	log_debug("i915_params: %s set", p->name);
	return 0;
}

/* GETPARAM HAS_GPU_RESET: hangcheck on and a reset allowed (gen3 has no
 * per-engine reset, so never 2).  dev->lock held. */
bool gem_has_gpu_reset(struct gem_device *dev)
{
	return dev->params.enable_hangcheck && dev->params.reset;
}

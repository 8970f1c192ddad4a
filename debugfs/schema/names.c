/*
 * The name tables of the structured files (schema.h), shared by gemd's
 * formatters and every tool.
 */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "schema.h"

const char *const gdfs_list_names[GDFS_LIST_COUNT + 1] = {
	[GDFS_LIST_UNBOUND] = "unbound",
	[GDFS_LIST_INACTIVE] = "inactive",
	[GDFS_LIST_ACTIVE] = "active",
	[GDFS_LIST_FLUSHING] = "flushing",
	[GDFS_LIST_PINNED] = "pinned",
	NULL,
};
const char *const gdfs_tiling_names[GDFS_TILING_COUNT + 1] = {
	[GDFS_TILING_NONE] = "none",
	[GDFS_TILING_X] = "x",
	[GDFS_TILING_Y] = "y",
	NULL,
};
const char *const gdfs_madv_names[GDFS_MADV_COUNT + 1] = {
	[GDFS_MADV_WILLNEED] = "willneed",
	[GDFS_MADV_DONTNEED] = "dontneed",
	[GDFS_MADV_PURGED] = "purged",
	NULL,
};
const char *const gdfs_cache_names[GDFS_CACHE_COUNT + 1] = {
	[GDFS_CACHE_NONE] = "none",
	[GDFS_CACHE_CACHED] = "cached",
	[GDFS_CACHE_DISPLAY] = "display",
	NULL,
};
const char *const gdfs_event_type_names[GDFS_EV_OTHER + 1] = {
	[GDFS_EV_BIND] = "bind",
	[GDFS_EV_UNBIND] = "unbind",
	[GDFS_EV_EVICT] = "evict",
	[GDFS_EV_DOMAIN] = "domain",
	[GDFS_EV_SUBMIT] = "submit",
	[GDFS_EV_WAIT] = "wait",
	[GDFS_EV_RETIRE] = "retire",
	[GDFS_EV_PURGE] = "purge",
	NULL,
};

const char *const gdfs_domain_names[GDFS_DOMAIN_COUNT + 1] = {
	"cpu", "render", "sampler", "command", "instruction", "vertex", "gtt", NULL,
};
const char gdfs_domain_letters[GDFS_DOMAIN_COUNT + 1] = "crsmivg";
const char *const gdfs_drop_names[GDFS_DROP_COUNT + 1] = {
	"unbound", "bound", "retire", "active", "freed", "shrink-all", "idle",
	"reset-active", "reset-seqno", "rcu", NULL,
};

const char *gdfs_list_name(enum gdfs_list l)
{
	return (unsigned int)l < GDFS_LIST_COUNT ? gdfs_list_names[l] : "?";
}

const char *gdfs_tiling_name(enum gdfs_tiling t)
{
	return (unsigned int)t < GDFS_TILING_COUNT ? gdfs_tiling_names[t] : "?";
}

const char *gdfs_madv_name(enum gdfs_madv m)
{
	return (unsigned int)m < GDFS_MADV_COUNT ? gdfs_madv_names[m] : "?";
}

const char *gdfs_cache_name(enum gdfs_cache c)
{
	return (unsigned int)c < GDFS_CACHE_COUNT ? gdfs_cache_names[c] : "?";
}

const char *gdfs_event_type_name(enum gdfs_event_type t)
{
	return (unsigned int)t < GDFS_EV_OTHER ? gdfs_event_type_names[t] : "other";
}

int gdfs_name_lookup(const char *const *table, const char *word, bool ignore_case)
{
	int i;

	for (i = 0; table[i]; i++)
		if (ignore_case ? !strcasecmp(table[i], word) : !strcmp(table[i], word))
			return i;
	return -1;
}

char gdfs_tiling_letter(enum gdfs_tiling t)
{
	return t == GDFS_TILING_X ? 'X' : t == GDFS_TILING_Y ? 'Y' : ' ';
}

enum gdfs_tiling gdfs_tiling_of_letter(char c)
{
	return c == 'X' ? GDFS_TILING_X : c == 'Y' ? GDFS_TILING_Y : GDFS_TILING_NONE;
}

static size_t put_mask(uint32_t mask, bool upper, char *out, size_t size)
{
	size_t n = 0;
	unsigned int bit;

	for (bit = 0; bit < GDFS_DOMAIN_COUNT && n + 1 < size; bit++)
		if (mask & (1u << bit))
			out[n++] = upper ? (char)(gdfs_domain_letters[bit] - 'a' + 'A') :
					   gdfs_domain_letters[bit];
	if (!n && size > 1)
		out[n++] = '-';
	out[n] = '\0';
	return n;
}

void gdfs_domains_str(uint32_t read, uint32_t write, char *out, size_t size)
{
	size_t n;

	if (size < 4) {
		if (size)
			out[0] = '\0';
		return;
	}
	n = put_mask(read, false, out, size - 2);
	out[n++] = '/';
	put_mask(write, true, out + n, size - n);
}

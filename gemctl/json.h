/*
 * --json output: one document per verb, built with json-c.  Every document
 * carries schema_version, tool, tool_version, verb and device, as
 * reference/tool-ux-anchors.md 4.1 asks.  Without json-c the builders are
 * no-ops and --json is refused at startup.
 */
#ifndef GEMKIT_GEMCTL_JSON_H
#define GEMKIT_GEMCTL_JSON_H

#include <stdbool.h>
#include <stdint.h>

#ifdef HAVE_JSONC
#include <json-c/json.h>
typedef struct json_object gj;
#else
typedef struct gj_none gj;
#endif

#define GEMCTL_SCHEMA_VERSION 1

struct gemctl;

bool gemctl_json_available(void);
/* The verb's document, or NULL when --json is off (all builders accept
 * NULL and do nothing, so verbs build unconditionally). */
gj *gemctl_json_begin(struct gemctl *ctl);
/* Print and free the document (no-op for NULL). */
void gemctl_json_end(struct gemctl *ctl, gj *doc);

gj *gj_object(gj *parent_or_null);	/* a new object (NULL parent: detached) */
gj *gj_array(void);
void gj_set(gj *obj, const char *key, gj *val);
void gj_push(gj *arr, gj *val);
void gj_int(gj *obj, const char *key, int64_t v);
void gj_uint(gj *obj, const char *key, uint64_t v);
void gj_str(gj *obj, const char *key, const char *v);
void gj_bool(gj *obj, const char *key, bool v);
void gj_null(gj *obj, const char *key);
gj *gj_new_int(int64_t v);
gj *gj_new_str(const char *v);
void gj_free(gj *v);

#endif

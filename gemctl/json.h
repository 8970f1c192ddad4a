/*
 * --json output: one document per verb, built with the tools' JSON writer
 * (tools/gj.h).  Every document carries schema_version, tool,
 * tool_version, verb and device, as reference/tool-ux-anchors.md 4.1
 * asks.
 */
#ifndef GEMKIT_GEMCTL_JSON_H
#define GEMKIT_GEMCTL_JSON_H

#include "gj.h"

#define GEMCTL_SCHEMA_VERSION 1

struct gemctl;

/* The verb's document, or NULL when --json is off (all gj builders accept
 * NULL and do nothing, so verbs build unconditionally). */
gj *gemctl_json_begin(struct gemctl *ctl);
/* Print and free the document (no-op for NULL). */
void gemctl_json_end(struct gemctl *ctl, gj *doc);

#endif

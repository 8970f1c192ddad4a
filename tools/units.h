/*
 * Numbers for people: sizes, ages and times as the three tools print
 * them on a terminal (gemtop's screen, gemctl and gemdump there).  Output
 * for scripts (--bytes, a pipe, JSON, CSV) stays raw, with the unit in
 * the field name; these are only for the eye.
 */
#ifndef GEMKIT_TOOLS_UNITS_H
#define GEMKIT_TOOLS_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* 4096 -> "4K", 1572864 -> "1.5M", 100 -> "100B": at most 6 characters,
 * binary units. */
void tool_fmt_size(char *out, size_t size, uint64_t bytes);

/* An age without jumps: "0.4s", "98.5s", "1m38s", "59m59s", "1h00m",
 * "23h59m", "3d04h": at most 6 characters. */
void tool_fmt_age(char *out, size_t size, uint64_t ns);

/* A wall-clock time in the local zone with its age against now_ns:
 * "2026-12-04 14:15:49 CET (3m12s ago)"; "(in the future)" if ahead. */
void tool_fmt_time(char *out, size_t size, uint64_t real_ns, uint64_t now_ns);

#endif

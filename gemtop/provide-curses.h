/*
 * The one place gemtop includes curses (htop's ProvideCurses.h).  Only the
 * terminal front end includes this header, through view.h: ui.c, view.c,
 * header.c, keys.c and the view-*.c classes.  Sampling, the model, the
 * formats and batch output never see curses (scripts/check-layering
 * holds them to it).
 */
#ifndef GEMKIT_GEMTOP_PROVIDE_CURSES_H
#define GEMKIT_GEMTOP_PROVIDE_CURSES_H

/* configure takes ncursesw from pkg-config, whose cflags put its curses.h
 * first (the wide-character one). */
#include <curses.h>

#endif

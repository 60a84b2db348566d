/*
 * Agent specs, decoded in one place. Every game names its players "NAME" or
 * "NAME:ARG", ARG being the rest of the text, colons and all (a file path, a
 * nested spec, the game's own options). A game keeps a table of its forms, a
 * struct whose first member is an ms_spec_form, and asks ms_spec_find which
 * one a spec names; what the argument means stays with the game.
 */
#ifndef MS_CORE_SPEC_H
#define MS_CORE_SPEC_H

#include <stddef.h>

enum {
	MS_SPEC_NONE,     /* NAME alone */
	MS_SPEC_NEEDED,   /* NAME:ARG */
	MS_SPEC_OPTIONAL, /* either */
};

typedef struct ms_spec_form {
	const char *name;
	int arg; /* MS_SPEC_NONE, MS_SPEC_NEEDED or MS_SPEC_OPTIONAL */
} ms_spec_form;

/*
 * The index of the form `spec` names among `n` rows `stride` bytes apart
 * (each starting with an ms_spec_form), with *arg the text after the first
 * ':' (NULL without one). -1 when no form has spec's NAME; -2 when one has
 * but the argument is missing (MS_SPEC_NEEDED) or unexpected (MS_SPEC_NONE).
 */
int ms_spec_find(const void *forms, int n, size_t stride, const char *spec, const char **arg);

#endif

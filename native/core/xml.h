/*
 * Thin helpers over libxml2: hardened parsing (no network, no entity
 * expansion, no DTD loading, nothing printed to stderr) with the parser's
 * line and column in the error, and attribute access whose errors name the
 * document, element, attribute and line.
 */
#ifndef MS_CORE_XML_H
#define MS_CORE_XML_H

#include <libxml/tree.h>

#include "microsynth/common.h"

/** Parses an XML file. Free the result with xmlFreeDoc. */
int ms_xml_read_file(ms_ctx *ctx, const char *path, xmlDocPtr *out);

/** Parses `len` bytes; `what` names the document in messages. */
int ms_xml_read_memory(ms_ctx *ctx, const char *what, const char *buf, size_t len, xmlDocPtr *out);

/** The root element, which must be named `name`. */
int ms_xml_root(ms_ctx *ctx, const char *what, xmlDocPtr doc, const char *name, xmlNodePtr *out);

/** First element child of `node` named `name` (NULL: any), or NULL. */
xmlNodePtr ms_xml_child(xmlNodePtr node, const char *name);

/** Next element sibling after `node` named `name` (NULL: any), or NULL. */
xmlNodePtr ms_xml_next(xmlNodePtr node, const char *name);

/** Like ms_xml_child but a missing child is an error. */
int ms_xml_need_child(ms_ctx *ctx, const char *what, xmlNodePtr node, const char *name, xmlNodePtr *out);

/** Integer attribute (decimal, optional sign, within int range). */
int ms_xml_attr_int(ms_ctx *ctx, const char *what, xmlNodePtr node, const char *attr, int *out);

/** Long integer attribute. */
int ms_xml_attr_long(ms_ctx *ctx, const char *what, xmlNodePtr node, const char *attr, int64_t *out);

/** "true"/"false" attribute. */
int ms_xml_attr_bool(ms_ctx *ctx, const char *what, xmlNodePtr node, const char *attr, int *out);

/**
 * String attribute copied into `out` (NUL-terminated, at most `size`
 * bytes); a longer value is an error rather than silently cut.
 */
int ms_xml_attr_str(ms_ctx *ctx, const char *what, xmlNodePtr node, const char *attr, char *out, size_t size);

/** 1 if the element has the attribute. */
int ms_xml_has_attr(xmlNodePtr node, const char *attr);

#endif

/* Fuzzes the XML helpers: parse, then read every attribute as each type. */
#include <stddef.h>
#include <stdint.h>

#include "core/xml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(ms_ctx *ctx, xmlNodePtr node, int depth)
{
	if (depth > 64)
		return;
	for (xmlNodePtr c = ms_xml_child(node, NULL); c; c = ms_xml_next(c, NULL)) {
		for (xmlAttrPtr a = c->properties; a; a = a->next) {
			const char *name = (const char *)a->name;
			int i, b;
			int64_t l;
			char s[32];

			ms_xml_attr_int(ctx, "fuzz", c, name, &i);
			ms_xml_attr_long(ctx, "fuzz", c, name, &l);
			ms_xml_attr_bool(ctx, "fuzz", c, name, &b);
			ms_xml_attr_str(ctx, "fuzz", c, name, s, sizeof(s));
		}
		walk(ctx, c, depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	xmlDocPtr doc;

	if (ms_ctx_new(&ctx, NULL))
		return 0;
	if (ms_xml_read_memory(ctx, "fuzz", (const char *)data, size, &doc) == MS_OK) {
		xmlNodePtr root;
		if (ms_xml_root(ctx, "fuzz", doc, "rts.PhysicalGameState", &root) == MS_OK)
			walk(ctx, root, 0);
		else
			walk(ctx, xmlDocGetRootElement(doc), 0);
		xmlFreeDoc(doc);
	}
	ms_ctx_free(ctx);
	return 0;
}

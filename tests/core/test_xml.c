#include "support/testutil.h"

#include <stdio.h>

#include <libxml/parser.h>

#include "core/xml.h"

static const char map_xml[] =
	"<?xml version=\"1.0\"?>\n"
	"<rts.PhysicalGameState width=\"8\" height=\"8\">\n"
	"  <terrain>0000000000000000000000000000000000000000000000000000000000000000</terrain>\n"
	"  <players>\n"
	"    <rts.Player ID=\"0\" resources=\"5\"></rts.Player>\n"
	"    <rts.Player ID=\"1\" resources=\"x5\"></rts.Player>\n"
	"  </players>\n"
	"  <units><rts.units.Unit type=\"Base\" ID=\"1\" alive=\"true\"/></units>\n"
	"</rts.PhysicalGameState>\n";

static void test_xml__reads_elements_and_attributes(void **state)
{
	ms_ctx *ctx;
	xmlDocPtr doc;
	xmlNodePtr root, players, p, units, u;
	int w, id, alive;
	char type[16];

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_xml_read_memory(ctx, "m.xml", map_xml, sizeof(map_xml) - 1, &doc), MS_OK);
	assert_int_equal(ms_xml_root(ctx, "m.xml", doc, "rts.PhysicalGameState", &root), MS_OK);
	assert_int_equal(ms_xml_attr_int(ctx, "m.xml", root, "width", &w), MS_OK);
	assert_int_equal(w, 8);
	assert_int_equal(ms_xml_need_child(ctx, "m.xml", root, "players", &players), MS_OK);
	p = ms_xml_child(players, "rts.Player");
	assert_non_null(p);
	assert_int_equal(ms_xml_attr_int(ctx, "m.xml", p, "resources", &id), MS_OK);
	assert_int_equal(id, 5);
	p = ms_xml_next(p, "rts.Player");
	assert_non_null(p);
	assert_int_equal(ms_xml_attr_int(ctx, "m.xml", p, "resources", &id), MS_EPARSE);
	assert_string_equal(ms_ctx_last_error(ctx),
			    "m.xml: line 6: <rts.Player resources=\"x5\">: not an integer");
	assert_null(ms_xml_next(p, "rts.Player"));
	units = ms_xml_child(root, "units");
	u = ms_xml_child(units, NULL);
	assert_int_equal(ms_xml_attr_str(ctx, "m.xml", u, "type", type, sizeof(type)), MS_OK);
	assert_string_equal(type, "Base");
	assert_int_equal(ms_xml_attr_str(ctx, "m.xml", u, "type", type, 3), MS_ERANGE);
	assert_int_equal(ms_xml_attr_bool(ctx, "m.xml", u, "alive", &alive), MS_OK);
	assert_int_equal(alive, 1);
	assert_int_equal(ms_xml_attr_int(ctx, "m.xml", u, "x", &id), MS_EPARSE);
	assert_string_equal(ms_ctx_last_error(ctx), "m.xml: line 8: <rts.units.Unit> lacks attribute 'x'");
	assert_int_equal(ms_xml_need_child(ctx, "m.xml", root, "nothing", &p), MS_EPARSE);
	xmlFreeDoc(doc);
	ms_ctx_free(ctx);
}

static void test_xml__malformed_input_gives_line_and_column(void **state)
{
	ms_ctx *ctx;
	xmlDocPtr doc = (xmlDocPtr)0x1;
	const char bad[] = "<a>\n  <b x=\"1\">\n  </c>\n</a>";

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_xml_read_memory(ctx, "bad.xml", bad, sizeof(bad) - 1, &doc), MS_EPARSE);
	assert_null(doc);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "bad.xml: line 3, column "));
	assert_int_equal(ms_xml_read_memory(ctx, "empty", "", 0, &doc), MS_EPARSE);
	assert_int_equal(ms_xml_read_file(ctx, "/nonexistent/map.xml", &doc), MS_EIO);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "cannot open"));
	ms_ctx_free(ctx);
}

static void test_xml__external_entities_are_not_loaded(void **state)
{
	ms_ctx *ctx;
	xmlDocPtr doc;
	xmlNodePtr root;
	char v[64];
	const char xxe[] = "<?xml version=\"1.0\"?>\n"
			   "<!DOCTYPE r [<!ENTITY e SYSTEM \"file:///etc/hostname\">]>\n"
			   "<r a=\"x\">&e;</r>";

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_xml_read_memory(ctx, "xxe", xxe, sizeof(xxe) - 1, &doc), MS_OK);
	assert_int_equal(ms_xml_root(ctx, "xxe", doc, "r", &root), MS_OK);
	xmlChar *content = xmlNodeGetContent(root);
	/* Without XML_PARSE_NOENT the reference stays a reference: empty text. */
	assert_string_equal((const char *)content, "");
	xmlFree(content);
	assert_int_equal(ms_xml_attr_str(ctx, "xxe", root, "a", v, sizeof(v)), MS_OK);
	assert_int_equal(ms_xml_root(ctx, "xxe", doc, "map", &root), MS_EPARSE);
	xmlFreeDoc(doc);
	ms_ctx_free(ctx);
}

static void test_xml__reads_an_official_map_file(void **state)
{
	ms_ctx *ctx;
	xmlDocPtr doc;
	xmlNodePtr root;
	char path[1024];
	int w, h;

	(void)state;
	MS_SKIP_OR_FAIL_WITHOUT_SHARED();
	snprintf(path, sizeof(path), "%s/data/microrts/maps/8x8/basesWorkers8x8A.xml", ms_test_shared());
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	if (ms_xml_read_file(ctx, path, &doc) != MS_OK)
		fail_msg("%s", ms_ctx_last_error(ctx));
	assert_int_equal(ms_xml_root(ctx, path, doc, "rts.PhysicalGameState", &root), MS_OK);
	assert_int_equal(ms_xml_attr_int(ctx, path, root, "width", &w), MS_OK);
	assert_int_equal(ms_xml_attr_int(ctx, path, root, "height", &h), MS_OK);
	assert_int_equal(w, 8);
	assert_int_equal(h, 8);
	xmlFreeDoc(doc);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xml__reads_elements_and_attributes),
		cmocka_unit_test(test_xml__malformed_input_gives_line_and_column),
		cmocka_unit_test(test_xml__external_entities_are_not_loaded),
		cmocka_unit_test(test_xml__reads_an_official_map_file),
	};
	int rc = cmocka_run_group_tests_name("core_xml", tests, NULL, NULL);
	xmlCleanupParser();
	return rc;
}

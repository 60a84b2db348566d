/*
 * microsynth json: a map as the official engine's JSON (unit type table,
 * then the initial game state per map, one line each).
 */
#include <stdio.h>
#include <string.h>

#include "microsynth/microrts.h"
#include "cli.h"

void cmd_json_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth json [--utt 1|2|3] [--conflict N] [--tsv] [--views] MAP...\n\n"
		     "Prints the unit type table, then each map's initial game state, as the\n"
		     "official engine writes them (UnitTypeTable.toJSON, GameState.toJSON),\n"
		     "one line each. --tsv prefixes each state with its map path and a tab;\n"
		     "--views adds each player's partially observable view after each state.\n"
		     "Exit 2 if a map is rejected (the others are still printed).\n");
}

int cmd_json(int argc, char **argv)
{
	long utt_version = 2, conflict = 1;
	ms_ctx *ctx = NULL;
	ms_rts_utt *utt = NULL;
	char *text = NULL;
	int first_map = 0, tsv = 0, views = 0, rc = CLI_OK;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--utt")) {
			if (cli_parse_int("json", "--utt", i + 1 < argc ? argv[++i] : NULL, 1, 3, &utt_version))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--conflict")) {
			if (cli_parse_int("json", "--conflict", i + 1 < argc ? argv[++i] : NULL, -1000, 1000, &conflict))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--tsv")) {
			tsv = 1;
		} else if (!strcmp(argv[i], "--views")) {
			views = 1;
		} else if (argv[i][0] == '-') {
			return cli_usage_error("json", "unknown option '%s'", argv[i]);
		} else {
			first_map = i;
			break;
		}
	}
	if (ms_ctx_new(&ctx, NULL) || ms_rts_utt_new(ctx, &utt, (int)utt_version, (int)conflict) ||
	    ms_rts_utt_to_json(ctx, &text, utt)) {
		fprintf(stderr, "microsynth json: %s\n", ctx ? ms_ctx_last_error(ctx) : "out of memory");
		rc = CLI_FAIL;
		goto done;
	}
	printf("%s\n", text);
	ms_ctx_mfree(ctx, text);
	text = NULL;
	for (int i = first_map; first_map && i < argc; i++) {
		ms_rts_state *s;
		if (ms_rts_state_load_map(ctx, &s, utt, argv[i], 0)) {
			fprintf(stderr, "microsynth json: %s\n", ms_ctx_last_error(ctx));
			rc = CLI_USAGE;
			continue;
		}
		if (ms_rts_state_to_json(ctx, &text, s, MS_RTS_JSON_CONSTANTS) == MS_OK)
			printf("%s%s%s\n", tsv ? argv[i] : "", tsv ? "\t" : "", text);
		else
			rc = CLI_FAIL;
		ms_ctx_mfree(ctx, text);
		text = NULL;
		for (int p = 0; views && p < 2; p++) {
			ms_rts_state *v;
			if (ms_rts_state_clone(ctx, &v, s) || ms_rts_state_observe(v, s, p) ||
			    ms_rts_state_to_json(ctx, &text, v, MS_RTS_JSON_CONSTANTS)) {
				rc = CLI_FAIL;
			} else {
				printf("%s%sview %d\t%s\n", tsv ? argv[i] : "", tsv ? "\t" : "", p, text);
			}
			ms_ctx_mfree(ctx, text);
			text = NULL;
			ms_rts_state_free(v);
		}
		ms_rts_state_free(s);
	}
done:
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return rc;
}

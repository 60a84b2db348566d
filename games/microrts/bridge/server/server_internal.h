/* Private to the SocketAI server: payload codecs shared by the session. */
#ifndef MS_BRIDGE_SERVER_INTERNAL_H
#define MS_BRIDGE_SERVER_INTERNAL_H

#include "core/buf.h"
#include "microsynth/microrts.h"
#include "microsynth/server.h"

/*
 * Width, height and terrain of the map being played, kept from the last
 * state that carried them (pre-game analysis always does), for states sent
 * without constants (upstream SocketAI's includeConstantsInState=false).
 */
typedef struct srv_constants {
	int width, height;
	char *terrain; /* width*height digits, NUL-terminated; NULL: nothing kept */
} srv_constants;

void srv_constants_clear(ms_ctx *ctx, srv_constants *c);

/* Keeps `s`'s constants unless they are already the ones kept. */
int srv_constants_keep(ms_ctx *ctx, srv_constants *c, const ms_rts_state *s);

/* The language of a payload from its first non-blank byte, or AUTO when it
 * is neither JSON nor XML. */
int srv_sniff(const char *text, size_t len);

/* A unit type table payload (UnitTypeTable.toJSON or toxml). */
int srv_read_utt(ms_ctx *ctx, int lang, const char *text, size_t len, ms_rts_utt **out);

/*
 * A game state payload in either form (with constants, or without them,
 * which takes them from `c`), JSON or XML. Terrain compressed the way Java
 * writes it, with a final run of one cell dropped, is completed.
 */
int srv_read_state(ms_ctx *ctx, int lang, const ms_rts_utt *utt, const srv_constants *c, const char *text,
		   size_t len, int64_t seed, ms_rts_state **out);

/* ms_server_session_new, with the bot check optional: the server checks
 * the bot once, not on every connection. */
int srv_session_create(ms_ctx *ctx, ms_server_session **out, const ms_server_session_options *opts, int client,
		       int check_bot);

/* PlayerAction.toxml through an XMLWriter whose line separator is one
 * space, as XMLSocketWrapperAI writes its replies. */
int srv_player_action_xml(ms_buf *b, const ms_rts_state *s, const ms_rts_pair *pairs, int n);

#endif

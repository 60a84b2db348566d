/*
 * One libwebsockets context with one listening vhost, as the command-line
 * servers (`view`, `gdl serve`) open it: the context listens on nothing
 * itself, the vhost on HOST:PORT (IPv4 only unless HOST is an IPv6
 * address; port 0 takes a free one).
 */
#ifndef MS_TOOLS_CLI_LWS_H
#define MS_TOOLS_CLI_LWS_H

#include <libwebsockets.h>

/*
 * Opens *lws (user data `user`) with vhost `name` serving `protocols`;
 * *port_out gets the port it listens on. CLI_OK, or CLI_FAIL with a line
 * on stderr naming `cmd` (*lws may then be set: the caller destroys it).
 */
int cli_lws_listen(const char *cmd, const char *name, const char *host, long port,
		   const struct lws_protocols *protocols, void *user, struct lws_context **lws, int *port_out);

#endif

/* The command-line servers' listening socket (cli_lws.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_lws.h"

int cli_lws_listen(const char *cmd, const char *name, const char *host, long port,
		   const struct lws_protocols *protocols, void *user, struct lws_context **lws, int *port_out)
{
	struct lws_context_creation_info info;
	struct lws_vhost *vh;

	memset(&info, 0, sizeof(info));
	info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.user = user;
	if (!(*lws = lws_create_context(&info))) {
		fprintf(stderr, "microsynth %s: libwebsockets could not create its context\n", cmd);
		return CLI_FAIL;
	}
	memset(&info, 0, sizeof(info));
	info.vhost_name = name;
	info.port = (int)port;
	info.iface = host;
	info.protocols = protocols;
	if (!strchr(host, ':'))
		info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
	vh = lws_create_vhost(*lws, &info);
	*port_out = vh ? lws_get_vhost_listen_port(vh) : 0;
	if (*port_out <= 0) {
		fprintf(stderr, "microsynth %s: cannot listen on %s port %ld (address in use or not local?)\n", cmd,
			host, port);
		return CLI_FAIL;
	}
	return CLI_OK;
}

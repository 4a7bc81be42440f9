/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What keeps the daemon's HTTP server up against slow or greedy clients,
 * beside libmicrohttpd's own limits: a deadline for each request counted
 * from the connection's start (or the end of its last response) to the
 * moment its headers are complete, so that a client dribbling a header
 * line every few seconds cannot hold a slot; a shorter one for a new
 * connection's first request line, as a scraper sends its request at once;
 * a newcomer over the connection limit taking the slot of the connection
 * that has waited longest for its request, so that connections that only
 * wait cannot lock anyone out, even all from one address (every local user
 * shares 127.0.0.1); how many connections the process's file-descriptor
 * limit leaves room for; and a rate limit on the server's log.
 */
#ifndef RS_HTTP_GUARD_H
#define RS_HTTP_GUARD_H

#include <microhttpd.h>
#include <stdarg.h>

struct rs_http_guard;

/*
 * A guard cutting requests not read within deadline_s, and new connections
 * without a request line within first_request_s, and keeping at most
 * max_connections open (the server's own limit must leave room above it
 * for the connections cut and not yet freed); NULL on ENOMEM.
 */
struct rs_http_guard *rs_http_guard_new(double deadline_s,
					double first_request_s,
					unsigned int max_connections);
/* Start and stop its sweeper thread (0 or -errno). */
int rs_http_guard_start(struct rs_http_guard *g);
void rs_http_guard_free(struct rs_http_guard *g);

/* For MHD_OPTION_NOTIFY_CONNECTION and MHD_OPTION_NOTIFY_COMPLETED, with
 * the guard as their closure. */
void rs_http_guard_connection(void *cls, struct MHD_Connection *conn,
			      void **socket_context,
			      enum MHD_ConnectionNotificationCode code);
void rs_http_guard_completed(void *cls, struct MHD_Connection *conn,
			     void **req_state,
			     enum MHD_RequestTerminationCode code);
/* For MHD_OPTION_URI_LOG_CALLBACK: a request line came. */
void *rs_http_guard_request_line(void *cls, const char *uri,
				 struct MHD_Connection *conn);
/* From the request handler: the request's headers are in. */
void rs_http_guard_serving(struct MHD_Connection *conn);

/*
 * Connections the file-descriptor limit leaves room for, after the
 * descriptors open now and a reserve for reading cgroupfs; may be <= 0.
 */
long rs_http_fd_room(long *limit);

/* A logger for MHD_OPTION_EXTERNAL_LOGGER: a message repeated within 10 s
 * is counted, not printed, and the count said with the next one. */
void rs_http_log(void *cls, const char *fmt, va_list ap);

#endif

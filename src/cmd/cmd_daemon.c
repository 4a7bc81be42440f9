// SPDX-License-Identifier: GPL-2.0
/*
 * reclaimscope daemon: keeps the probes attached and serves the model over
 * HTTP (libmicrohttpd): Prometheus /metrics, the JSON API, /healthz.
 * Read-only: no endpoint changes anything.
 */
#include <arpa/inet.h>
#include <argp.h>
#include <errno.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "http_guard.h"
#include "json_view.h"
#include "prom_view.h"
#include "session.h"
#include "util.h"

#define DEFAULT_LISTEN "127.0.0.1:9782"

struct daemon_opts {
	struct rs_common_opts common;
	const char *listen;
	double interval;
	double expire;
	__u64 max_connections;
};

enum { OPT_EXPIRE = 0x100, OPT_MAX_CONN, OPT_PRINT_RULES };

static const struct argp_option options[] = {
	{"listen", 'l', "ADDR", 0,
	 "Listen on ADDR: HOST:PORT, [IPv6]:PORT, or unix:PATH "
	 "(default " DEFAULT_LISTEN ")",
	 0},
	{"interval", 'i', "SECONDS", 0,
	 "Refresh the model every SECONDS (default 1; 0.1 to 3600)", 0},
	{"expire", OPT_EXPIRE, "SECONDS", 0,
	 "Forget a removed memcg SECONDS after it went (default 300; 0: "
	 "never)",
	 0},
	{"max-connections", OPT_MAX_CONN, "N", 0,
	 "Serve at most N connections at once (default 64); over them, a "
	 "new one takes the slot of the one waiting longest for a request",
	 0},
	{"print-rules", OPT_PRINT_RULES, NULL, 0,
	 "Print the Prometheus recording rules that restate report's "
	 "derived metrics (shares, means, rates) over /metrics, one per "
	 "metric, as the group packaging/prometheus/reclaimscope-rules.yml "
	 "keeps, and exit (needs no privileges)",
	 0},
	{0},
};

static const char doc[] =
	"Keep the probes attached and serve what they see over HTTP, for "
	"Prometheus and other tools.  Endpoints (GET or HEAD only):\n"
	"  /metrics          Prometheus text format: reclaimscope_* counters "
	"per memcg, node and reclaimer, latency histograms per memcg, drops "
	"and per-hook state\n"
	"  /api/v1/snapshot  JSON: the recording header, the last interval's "
	"snapshot and the totals, as in a recording "
	"(docs/recording-format.md); with ?metrics=1 each memcg also has "
	"\"metrics\": what top can show, under the report's names\n"
	"  /healthz          \"ok\" once the first snapshot is taken\n"
	"Logs go to stderr.  SIGINT, SIGTERM or SIGHUP stops it cleanly.\n"
	"\v"
	"EXAMPLES:\n"
	"  reclaimscope daemon\n"
	"  reclaimscope daemon --listen unix:/run/reclaimscope.sock\n"
	"  curl -s localhost:9782/metrics | grep reclaimscope_reclaimed\n";

static error_t parse(int key, char *arg, struct argp_state *state)
{
	struct daemon_opts *o = state->input;

	switch (key) {
	case 'l':
		o->listen = arg;
		return 0;
	case 'i':
		return rs_cli_parse_interval(state, arg, &o->interval);
	case OPT_EXPIRE:
		if (rs_parse_seconds(arg, 0, 365 * 86400.0, &o->expire)) {
			argp_error(state,
				   "invalid --expire '%s': give seconds, e.g. "
				   "300, 10m or 0 for never",
				   arg);
			return EINVAL;
		}
		return 0;
	case OPT_MAX_CONN:
		if (rs_parse_u64(arg, 1, 100000, &o->max_connections)) {
			argp_error(state,
				   "invalid --max-connections '%s': give 1 to "
				   "100000",
				   arg);
			return EINVAL;
		}
		return 0;
	case OPT_PRINT_RULES:
		exit(rs_prom_rules(stdout) ? 1 : 0);
	default:
		return rs_cli_parse_default(key, arg, state, &o->common);
	}
}

/* The socket file we made (unix:PATH): only it is removed at the end. */
static struct {
	bool made;
	dev_t dev;
	ino_t ino;
} our_socket;

/*
 * Whether unix:PATH may be bound: nothing there, or a stale socket (one
 * nobody listens on any more, left by a daemon that was killed), which is
 * removed.  A file of any other kind, or a socket some process serves, is
 * never touched.  0, or -1 with msg set.
 */
static int unix_path_free(const char *path, char *msg, size_t size)
{
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	struct stat st;
	int probe, err;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		snprintf(msg, size, "--listen unix:%s: %s", path,
			 strerror(errno));
		return -1;
	}
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(msg, size,
			 "--listen unix:%s: %s is there and is not a socket; "
			 "it is left alone: give a path that does not exist",
			 path, S_ISDIR(st.st_mode) ? "a directory" : "a file");
		return -1;
	}
	memcpy(un.sun_path, path, strlen(path) + 1);
	probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (probe < 0) {
		snprintf(msg, size, "socket: %s", strerror(errno));
		return -1;
	}
	err = connect(probe, (struct sockaddr *)&un, sizeof(un)) ? errno : 0;
	close(probe);
	if (!err) {
		snprintf(msg, size,
			 "--listen unix:%s: another process serves on this "
			 "socket (another reclaimscope daemon?); stop it or "
			 "give another path",
			 path);
		return -1;
	}
	if (err != ECONNREFUSED) {
		snprintf(msg, size, "--listen unix:%s: %s", path,
			 strerror(err));
		return -1;
	}
	unlink(path); /* stale: nobody listens */
	return 0;
}

/* At the end: remove the socket file if it is still the one we made. */
static void remove_our_socket(const char *addr)
{
	struct stat st;

	if (our_socket.made && !lstat(addr + 5, &st) &&
	    st.st_dev == our_socket.dev && st.st_ino == our_socket.ino)
		unlink(addr + 5);
	our_socket.made = false;
}

/*
 * A listening socket for ADDR; -1 with msg set.  Made here rather than by
 * libmicrohttpd so that one code path serves TCP and Unix sockets.
 */
static int listen_on(const char *addr, char *msg, size_t size)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1;

	memset(&ss, 0, sizeof(ss));
	if (!strncmp(addr, "unix:", 5)) {
		struct sockaddr_un *un = (struct sockaddr_un *)&ss;

		if (strlen(addr + 5) == 0 ||
		    strlen(addr + 5) >= sizeof(un->sun_path)) {
			snprintf(msg, size, "--listen %s: bad socket path",
				 addr);
			return -1;
		}
		un->sun_family = AF_UNIX;
		memcpy(un->sun_path, addr + 5, strlen(addr + 5) + 1);
		len = sizeof(*un);
		if (unix_path_free(un->sun_path, msg, size))
			return -1;
	} else {
		char host[256];
		const char *colon = strrchr(addr, ':');
		__u64 port;

		if (!colon || rs_parse_u64(colon + 1, 1, 65535, &port) ||
		    (size_t)(colon - addr) >= sizeof(host)) {
			snprintf(msg, size,
				 "--listen %s: give HOST:PORT, [IPv6]:PORT or "
				 "unix:PATH",
				 addr);
			return -1;
		}
		snprintf(host, sizeof(host), "%.*s", (int)(colon - addr), addr);
		if (host[0] == '[' && host[strlen(host) - 1] == ']') {
			struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

			host[strlen(host) - 1] = '\0';
			in6->sin6_family = AF_INET6;
			in6->sin6_port = htons((uint16_t)port);
			len = sizeof(*in6);
			if (inet_pton(AF_INET6, host + 1, &in6->sin6_addr) != 1)
				goto bad_host;
		} else {
			struct sockaddr_in *in = (struct sockaddr_in *)&ss;

			in->sin_family = AF_INET;
			in->sin_port = htons((uint16_t)port);
			len = sizeof(*in);
			if (inet_pton(AF_INET, host, &in->sin_addr) != 1)
				goto bad_host;
		}
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(msg, size, "socket: %s", strerror(errno));
		return -1;
	}
	if (ss.ss_family != AF_UNIX)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len)) {
		snprintf(msg, size, "cannot listen on %s: %s%s", addr,
			 strerror(errno),
			 errno != EADDRINUSE ? ""
			 : ss.ss_family == AF_UNIX
				 ? " (made by another process "
				   "just now? give another "
				   "path)"
				 : " (another reclaimscope "
				   "daemon? choose another "
				   "port with --listen)");
		close(fd);
		return -1;
	}
	if (ss.ss_family == AF_UNIX) {
		struct stat st;

		if (!lstat(addr + 5, &st)) {
			our_socket.made = true;
			our_socket.dev = st.st_dev;
			our_socket.ino = st.st_ino;
		}
	}
	if (listen(fd, 64)) {
		snprintf(msg, size, "cannot listen on %s: %s", addr,
			 strerror(errno));
		close(fd);
		remove_our_socket(addr);
		return -1;
	}
	return fd;
bad_host:
	snprintf(msg, size,
		 "--listen %s: the host must be a numeric IPv4 or [IPv6] "
		 "address",
		 addr);
	return -1;
}

struct server {
	struct rs_session session;
	pthread_mutex_t lock; /* the model, between refresh and requests */
	bool ready;	      /* a first snapshot exists */
	__u64 requests, errors;
};

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status,
			     const char *type, char *body, size_t len,
			     bool owned)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		len, body,
		owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r) {
		if (owned)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, "Allow", "GET, HEAD");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result text(struct MHD_Connection *conn, unsigned int status,
			    const char *msg)
{
	return reply(conn, status, "text/plain; charset=utf-8", (char *)msg,
		     strlen(msg), false);
}

/*
 * A response's body, or NULL before the first snapshot (or without
 * memory).  Each takes the server's lock only while it reads the model.
 */
static char *render_metrics(struct server *s, bool rows, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	int err;

	(void)rows;
	if (!f)
		return NULL;
	pthread_mutex_lock(&s->lock);
	err = !s->ready || rs_prom_write(f, s->session.model, &s->session.info);
	pthread_mutex_unlock(&s->lock);
	if (fclose(f) || err) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * rows: each memcg's catalogue rows too (?metrics=1: 2.5 times the size
 * and the time with 10,000 memcgs).  The JSON tree copies what it holds,
 * so it is written out (the larger half of the time) after the lock.
 */
static char *render_snapshot(struct server *s, bool rows, size_t *len)
{
	struct rs_model *m = s->session.model;
	json_t *o = NULL, *snapshot, *summary;
	char *out;

	pthread_mutex_lock(&s->lock);
	if (s->ready) {
		/* the last refresh's */
		snapshot = rs_json_snapshot(m, &s->session.info, NULL,
					    rs_model_snapshots(m) - 1);
		summary = rs_json_summary(m, rs_model_time(m), NULL);
		if (rows) {
			rs_json_add_rows(snapshot, m, true);
			rs_json_add_rows(summary, m, false);
		}
		o = json_pack("{s:o,s:o,s:o}", "header",
			      rs_json_header(&s->session.info), "snapshot",
			      snapshot, "summary", summary);
	}
	pthread_mutex_unlock(&s->lock);
	if (!o)
		return NULL;
	out = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (out)
		*len = strlen(out);
	return out;
}

/*
 * Whether the request may carry a body (or is not GET/HEAD, whose body
 * nobody here would read): such a request is answered at once, before any
 * body is read, and its connection closed; so no client can hold a slot
 * by trickling a body.
 */
static bool has_body(struct MHD_Connection *conn, const char *method)
{
	const char *length = MHD_lookup_connection_value(
		conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);

	return (strcmp(method, MHD_HTTP_METHOD_GET) &&
		strcmp(method, MHD_HTTP_METHOD_HEAD)) ||
	       (length && strcmp(length, "0")) ||
	       MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
					   MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
			      const char *url, const char *method,
			      const char *version, const char *upload_data,
			      size_t *upload_size, void **req_state)
{
	struct server *s = cls;
	char *(*render)(struct server *, bool, size_t *) = NULL;
	const char *rows_arg;
	const char *type = NULL;
	char *body;
	size_t len = 0;

	(void)version;
	(void)upload_data;
	if (!*req_state) {
		/* the first call: the headers are in */
		rs_http_guard_serving(conn);
		*req_state = s;
		/*
		 * A request without a body is answered on the next call.
		 * libmicrohttpd closes the connection after a response queued
		 * on this first one, as the body would be left unread, so
		 * only that way is the connection kept alive.
		 */
		if (!has_body(conn, method))
			return MHD_YES;
	}
	__atomic_add_fetch(&s->requests, 1, __ATOMIC_RELAXED);
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		/* its body is not read (read-only server): answered at once,
		 * then the connection is closed */
		*upload_size = 0;
		return text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
			    "read-only: only GET and HEAD\n");
	}
	/* a GET with a body, answered at once: the body is never read */
	*upload_size = 0;
	if (!strcmp(url, "/metrics")) {
		render = render_metrics;
		type = "text/plain; version=0.0.4; charset=utf-8";
	} else if (!strcmp(url, "/api/v1/snapshot")) {
		render = render_snapshot;
		type = "application/json";
	} else if (!strcmp(url, "/healthz")) {
		bool ready;

		pthread_mutex_lock(&s->lock);
		ready = s->ready;
		pthread_mutex_unlock(&s->lock);
		return ready ? text(conn, MHD_HTTP_OK, "ok\n")
			     : text(conn, MHD_HTTP_SERVICE_UNAVAILABLE,
				    "starting: no snapshot yet\n");
	} else {
		return text(conn, MHD_HTTP_NOT_FOUND,
			    "not found: try /metrics, /api/v1/snapshot or "
			    "/healthz\n");
	}
	rows_arg = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND,
					       "metrics");
	body = render(s, rows_arg && !strcmp(rows_arg, "1"), &len);
	if (!body) {
		__atomic_add_fetch(&s->errors, 1, __ATOMIC_RELAXED);
		return text(conn, MHD_HTTP_SERVICE_UNAVAILABLE,
			    "no snapshot yet, or out of memory\n");
	}
	return reply(conn, MHD_HTTP_OK, type, body, len, true);
}

/*
 * How long a client may take to send a request's headers, from its
 * connection (or its last response): a slow client is cut off then, even
 * if it sends a byte now and then.  Also how long a kept-alive connection
 * may stay idle.
 */
#define RS_REQUEST_DEADLINE_S 10U
/*
 * How long a new connection may take to send its request line: a scraper
 * sends its request with the connection, one that sends nothing only
 * holds a slot.
 */
#define RS_FIRST_REQUEST_S 2.0
/*
 * Connections the server may hold beyond --max-connections: those the
 * guard cut to make room for newcomers, until the server has freed them
 * (within its next turn).
 */
#define RS_EVICTION_SPARE 16U

/*
 * --max-connections, and the spare above it for connections being evicted,
 * within what the descriptor limit leaves: a socket the server cannot
 * accept makes it spin on EMFILE.  false when not even one connection and
 * one spare fit.
 */
static bool fit_connections(__u64 *max, unsigned int *spare)
{
	long limit, room = rs_http_fd_room(&limit);

	if (room < 2) {
		fprintf(stderr,
			"reclaimscope: no file descriptor left for a "
			"connection (ulimit -n %ld): raise the limit\n",
			limit);
		return false;
	}
	*spare = room / 2 < RS_EVICTION_SPARE ? (unsigned int)(room / 2)
					      : RS_EVICTION_SPARE;
	if ((long)(*max + *spare) > room) {
		fprintf(stderr,
			"reclaimscope: --max-connections %llu: the limit of "
			"%ld open files (ulimit -n) leaves room for %ld, "
			"%u of them kept spare for evictions; serving at most "
			"%ld\n",
			(unsigned long long)*max, limit, room, *spare,
			room - *spare);
		*max = (__u64)(room - *spare);
	}
	return true;
}

/*
 * The HTTP server on the listening socket fd: a thread of its own, with
 * limits on connections, time and request size; NULL (fd still ours) if it
 * cannot start.
 */
static struct MHD_Daemon *start_http(const struct daemon_opts *o,
				     unsigned int spare, int fd,
				     struct server *s,
				     struct rs_http_guard *guard)
{
	/*
	 * No per-address limit: every local client shares 127.0.0.1, so one
	 * would let a local user lock the scraper out; the guard evicts
	 * connections that only wait instead.
	 */
	struct MHD_Daemon *mhd = MHD_start_daemon(
		/* epoll: no FD_SETSIZE cap on the sockets' numbers */
		MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0, NULL,
		NULL, handle, s,
		/* first, so that every later complaint goes through it */
		MHD_OPTION_EXTERNAL_LOGGER, rs_http_log, NULL,
		MHD_OPTION_LISTEN_SOCKET, fd,
		/* the guard keeps to o->max_connections (http_guard.c) */
		MHD_OPTION_CONNECTION_LIMIT,
		(unsigned int)o->max_connections + spare,
		/* a client that stops sending is cut off */
		MHD_OPTION_CONNECTION_TIMEOUT, RS_REQUEST_DEADLINE_S,
		/* ... and one that sends too slowly, or only holds a slot */
		MHD_OPTION_NOTIFY_CONNECTION, rs_http_guard_connection, guard,
		MHD_OPTION_URI_LOG_CALLBACK, rs_http_guard_request_line, guard,
		MHD_OPTION_NOTIFY_COMPLETED, rs_http_guard_completed, guard,
		/* requests are small: a bigger header gets 431 */
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
		MHD_OPTION_END);

	if (mhd && rs_http_guard_start(guard)) {
		MHD_stop_daemon(mhd);
		mhd = NULL;
	}
	if (!mhd)
		fprintf(stderr,
			"reclaimscope: cannot start the HTTP server on %s\n",
			o->listen);
	return mhd;
}

/* Until a signal: a snapshot every interval, under the server's lock. */
static void refresh_until_stopped(const struct daemon_opts *o, struct server *s,
				  volatile int *stop)
{
	__u64 last_forgotten = 0;

	while (!*stop) {
		int err;

		pthread_mutex_lock(&s->lock);
		err = rs_session_refresh(&s->session);
		if (!err)
			s->ready = true;
		pthread_mutex_unlock(&s->lock);
		rs_session_note_mglru(&s->session, stderr);
		if (err)
			fprintf(stderr, "reclaimscope: snapshot failed: %s\n",
				strerror(-err));
		if (s->session.forgotten != last_forgotten) {
			fprintf(stderr,
				"reclaimscope: forgot %llu removed memcgs "
				"(gone for %.0f s)\n",
				(unsigned long long)(s->session.forgotten -
						     last_forgotten),
				o->expire);
			last_forgotten = s->session.forgotten;
		}
		rs_sleep_unless(stop, o->interval);
	}
}

int rs_cmd_daemon(int argc, char **argv)
{
	static const struct argp argp = {options,	   parse, NULL, doc,
					 rs_live_children, NULL,  NULL};
	struct daemon_opts o = {.listen = DEFAULT_LISTEN,
				.interval = 1.0,
				.expire = 300,
				.max_connections = 64};
	struct rs_collector_opts copts = {0};
	static struct server s; /* the HTTP thread reads it until the end */
	struct MHD_Daemon *mhd = NULL;
	struct rs_http_guard *guard = NULL;
	volatile int stop = 0;
	char msg[300];
	unsigned int spare = 0;
	int fd, rc = 1;

	/*
	 * A page of /metrics is a few KiB per memcg, rendered per scrape and
	 * freed once sent.  glibc raises its mmap threshold to the largest
	 * block freed, so such pages would come from the heap and stay in the
	 * RSS between scrapes; a fixed threshold gives them back.
	 */
	mallopt(M_MMAP_THRESHOLD, 256 << 10);
	if (argp_parse(&argp, argc, argv, 0, NULL, &o))
		return 2;
	/* listen first: a port in use is found before the probes load */
	fd = listen_on(o.listen, msg, sizeof(msg));
	if (fd < 0) {
		fprintf(stderr, "reclaimscope: %s\n", msg);
		return 1;
	}
	rs_cli_collector_opts(&o.common, &copts);
	pthread_mutex_init(&s.lock, NULL);
	s.session.expire_after = o.expire;
	if (rs_session_open(&s.session, &copts)) {
		close(fd);
		remove_our_socket(o.listen);
		return 1;
	}
	rs_cli_on_signals(&stop);
	if (fit_connections(&o.max_connections, &spare))
		guard = rs_http_guard_new(RS_REQUEST_DEADLINE_S,
					  RS_FIRST_REQUEST_S,
					  (unsigned int)o.max_connections);
	if (guard)
		mhd = start_http(&o, spare, fd, &s, guard);
	if (mhd) {
		fprintf(stderr,
			"reclaimscope: serving on %s (%s mode, kernel %s, "
			"capabilities kept: %s): /metrics, /api/v1/snapshot, "
			"/healthz\n",
			o.listen, rs_mode(&s.session.info),
			s.session.info.kernel, s.session.info.caps_kept);
		refresh_until_stopped(&o, &s, &stop);
		fprintf(stderr,
			"reclaimscope: stopping (%llu requests served)\n",
			(unsigned long long)s.requests);
		rc = 0;
	}
	if (mhd)
		MHD_stop_daemon(mhd);
	else
		close(fd);
	rs_http_guard_free(guard);
	remove_our_socket(o.listen);
	pthread_mutex_lock(&s.lock);
	rs_session_close(&s.session);
	pthread_mutex_unlock(&s.lock);
	return rc;
}

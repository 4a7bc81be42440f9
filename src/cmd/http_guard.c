// SPDX-License-Identifier: GPL-2.0
#include "http_guard.h"
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

/* One open connection: since when it has been waiting for a request. */
struct slot {
	struct slot *prev, *next;
	int fd;
	__u64 waiting_since; /* 0 while a request is being answered */
	bool sent_request;   /* a request line came on it, ever */
	bool cut;	     /* shut down here: the server frees it soon */
};

struct rs_http_guard {
	pthread_mutex_t lock;
	pthread_t sweeper;
	bool running, stop;
	__u64 deadline_ns, first_request_ns;
	unsigned int max_open, open; /* slots not cut */
	struct slot head;	     /* a ring: head.next is the oldest */
};

struct rs_http_guard *rs_http_guard_new(double deadline_s,
					double first_request_s,
					unsigned int max_connections)
{
	struct rs_http_guard *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	pthread_mutex_init(&g->lock, NULL);
	g->deadline_ns = (__u64)(deadline_s * 1e9);
	g->first_request_ns = (__u64)(first_request_s * 1e9);
	g->max_open = max_connections;
	g->head.prev = g->head.next = &g->head;
	return g;
}

/*
 * Shut a connection down, under the lock.  The server then finds it closed
 * and frees it as it does any other; the socket is never closed here, so
 * its number cannot be reused under the server.
 */
static void cut(struct rs_http_guard *g, struct slot *s)
{
	shutdown(s->fd, SHUT_RDWR);
	s->cut = true;
	g->open--;
}

/* Every second: a connection past its deadline is shut down. */
static void *sweep(void *arg)
{
	struct rs_http_guard *g = arg;
	const struct timespec second = {.tv_sec = 1};

	for (;;) {
		__u64 now = rs_now_ns();

		pthread_mutex_lock(&g->lock);
		if (g->stop) {
			pthread_mutex_unlock(&g->lock);
			return NULL;
		}
		for (struct slot *s = g->head.next; s != &g->head;
		     s = s->next) {
			__u64 since = __atomic_load_n(&s->waiting_since,
						      __ATOMIC_RELAXED);
			bool spoke = __atomic_load_n(&s->sent_request,
						     __ATOMIC_RELAXED);

			/* since may be after now: a response ended
			 * between the clock read and this look */
			if (!s->cut &&
			    rs_past_deadline(since, now,
					     spoke ? g->deadline_ns
						   : g->first_request_ns))
				cut(g, s);
		}
		pthread_mutex_unlock(&g->lock);
		nanosleep(&second, NULL);
	}
}

/*
 * Over the limit: the connection waiting longest for its request is cut,
 * under the lock.  Waiting (idle, or its headers not all in) is what a
 * client that only holds a slot does, while a scraper's request comes with
 * its connection and is answered at once; so the newcomer wins, unless
 * every other is being answered: then it is the one cut (refused).
 */
static void evict_for(struct rs_http_guard *g, struct slot *newcomer)
{
	struct slot *victim = newcomer;
	__u64 oldest = UINT64_MAX;

	for (struct slot *s = g->head.next; s != &g->head; s = s->next) {
		__u64 since =
			__atomic_load_n(&s->waiting_since, __ATOMIC_RELAXED);

		if (!s->cut && since && since < oldest) {
			oldest = since;
			victim = s;
		}
	}
	cut(g, victim);
}

int rs_http_guard_start(struct rs_http_guard *g)
{
	int err = pthread_create(&g->sweeper, NULL, sweep, g);

	g->running = !err;
	return -err;
}

void rs_http_guard_free(struct rs_http_guard *g)
{
	if (!g)
		return;
	if (g->running) {
		pthread_mutex_lock(&g->lock);
		g->stop = true;
		pthread_mutex_unlock(&g->lock);
		pthread_join(g->sweeper, NULL);
	}
	/* the server is stopped first: every slot was freed on close */
	pthread_mutex_destroy(&g->lock);
	free(g);
}

void rs_http_guard_connection(void *cls, struct MHD_Connection *conn,
			      void **socket_context,
			      enum MHD_ConnectionNotificationCode code)
{
	struct rs_http_guard *g = cls;
	struct slot *s = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *info = MHD_get_connection_info(
			conn, MHD_CONNECTION_INFO_CONNECTION_FD);

		s = calloc(1, sizeof(*s));
		if (!s || !info) {
			free(s);
			return; /* unguarded: the idle timeout still holds */
		}
		s->fd = info->connect_fd;
		s->waiting_since = rs_now_ns();
		pthread_mutex_lock(&g->lock);
		s->prev = g->head.prev;
		s->next = &g->head;
		g->head.prev->next = s;
		g->head.prev = s;
		if (++g->open > g->max_open)
			evict_for(g, s);
		pthread_mutex_unlock(&g->lock);
		*socket_context = s;
		return;
	}
	if (code == MHD_CONNECTION_NOTIFY_CLOSED && s) {
		pthread_mutex_lock(&g->lock);
		s->prev->next = s->next;
		s->next->prev = s->prev;
		if (!s->cut)
			g->open--;
		pthread_mutex_unlock(&g->lock);
		free(s);
		*socket_context = NULL;
	}
}

static struct slot *slot_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(
		conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return info ? info->socket_context : NULL;
}

void *rs_http_guard_request_line(void *cls, const char *uri,
				 struct MHD_Connection *conn)
{
	struct slot *s = slot_of(conn);

	(void)cls;
	(void)uri;
	if (s)
		__atomic_store_n(&s->sent_request, true, __ATOMIC_RELAXED);
	return NULL; /* the handler's request state starts empty */
}

/* Plain stores: the sweeper reads them under the lock a second later at
 * most; a stale read only delays or skips one shutdown. */
void rs_http_guard_serving(struct MHD_Connection *conn)
{
	struct slot *s = slot_of(conn);

	if (s)
		__atomic_store_n(&s->waiting_since, 0, __ATOMIC_RELAXED);
}

void rs_http_guard_completed(void *cls, struct MHD_Connection *conn,
			     void **req_state,
			     enum MHD_RequestTerminationCode code)
{
	struct slot *s = slot_of(conn);

	(void)cls;
	(void)req_state;
	(void)code;
	/* kept alive: the next request has the same deadline */
	if (s)
		__atomic_store_n(&s->waiting_since, rs_now_ns(),
				 __ATOMIC_RELAXED);
}

long rs_http_fd_room(long *limit)
{
	/* cgroupfs reads, /proc, the log, libbpf's own opens */
	enum { RESERVE = 32 };
	struct rlimit rl;
	long open_now = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -1;
	*limit = rl.rlim_cur == RLIM_INFINITY ? 1L << 30 : (long)rl.rlim_cur;
	while (d && (e = readdir(d)))
		open_now += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return *limit - open_now - RESERVE;
}

void rs_http_log(void *cls, const char *fmt, va_list ap)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char last[256];
	static __u64 last_ns;
	static unsigned long suppressed;
	char msg[256];
	__u64 now = rs_now_ns();

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	pthread_mutex_lock(&lock);
	if (!strcmp(msg, last) && now - last_ns < 10000000000ULL) {
		suppressed++;
		pthread_mutex_unlock(&lock);
		return;
	}
	if (suppressed)
		fprintf(stderr,
			"reclaimscope: http: (the last message %lu more "
			"times)\n",
			suppressed);
	suppressed = 0;
	snprintf(last, sizeof(last), "%s", msg);
	last_ns = now;
	fprintf(stderr, "reclaimscope: http: %s", msg);
	pthread_mutex_unlock(&lock);
}

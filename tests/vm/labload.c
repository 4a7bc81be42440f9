// SPDX-License-Identifier: GPL-2.0
/*
 * rs-labload: the reclaim lab's workloads (tests/vm/workloads/), each the
 * VM-sized model of a result in the MGLRU series' cover letters, measuring
 * its own outcome.  The parent stays where it was started (outside the
 * memcg under test, so an OOM kill there never takes it) and forks workers
 * that join MEMCG (a path under the cgroup v2 mount, e.g. /wb) before they
 * touch memory.  When they are done it writes `outcome` records (the
 * workload, then each worker; docs/recording-format.md) to the file named
 * by $RS_OUTCOME (stdout if unset), for `record --outcome`.  (ycsb runs
 * a real program instead, PostgreSQL's pgbench from the tools disk, and
 * stride rs-workload's strided reader.)
 *
 *
 *   writeback MEMCG PATH MB        write MB to PATH in 1 MiB writes, no sync
 *   aging MEMCG FILE READERS THREADS ANON_MB ROUNDS
 *                                  READERS read all of FILE through mmap,
 *                                  pausing 120 ms after each pass; once
 *                                  each read it once, THREADS threads of
 *                                  one process fault ANON_MB of anon
 *                                  between them, which is then freed, 1 s
 *                                  apart, ROUNDS times
 *   tenants PARENT MEMCGS WORKERS ANON_MB DIR SECONDS
 *                                  MEMCGS memcgs PARENT/t0.. of WORKERS
 *                                  workers each; a worker holds ANON_MB of
 *                                  anon and its file in DIR (tenant0..) and
 *                                  serves requests (read a random
 *                                  sixteenth of both), each timed, for
 *                                  SECONDS from when every worker has
 *                                  touched its working sets
 *
 * Latencies go into log-linear buckets (64 per power of two): a quantile
 * is its bucket's upper bound, within 1.6 % of the value.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LOAD_NAME "rs-labload"
#include "load.h"

#define CGROOT "/sys/fs/cgroup"
#define MAX_WORKERS 256
#define SUB 64	     /* sub-buckets per power of two */
#define POWERS 40    /* up to 2^40 ns, 18 minutes */
#define LOG2_HIST 38 /* the recording's log2 buckets (RS_HIST_BUCKETS) */

/* What workers share with the parent: survives a worker's OOM kill. */
struct shared {
	uint64_t progress[MAX_WORKERS]; /* requests, iterations or passes */
	int ready;	   /* workers ready: aging's readers have read the file
			    * once, tenants' workers touched their working sets */
	int stop;	   /* aging: the readers stop */
	int64_t tn_end_us; /* tenants: the measured window's end (now()) */
	uint64_t bytes[MAX_WORKERS];
	uint64_t lat[POWERS * SUB];
	uint64_t lat_sum_ns, lat_n;
};

static struct shared *sh;

/* --- latency buckets -------------------------------------------------- */

static int lat_index(uint64_t ns)
{
	int e = 0;

	if (ns < SUB)
		return (int)ns; /* exact below 64 ns */
	while ((ns >> e) >= 2 * SUB)
		e++;
	/* ns in [SUB << e, 2 * SUB << e): sub-bucket (ns >> e) - SUB */
	if (e + 1 >= POWERS)
		return POWERS * SUB - 1;
	return (e + 1) * SUB + (int)((ns >> e) - SUB);
}

/* the largest ns of bucket i */
static double lat_upper(int i)
{
	int e = i / SUB - 1;

	if (i < SUB)
		return i;
	return ldexp((double)(i % SUB + SUB + 1), e) - 1;
}

static void lat_add(double seconds)
{
	uint64_t ns = (uint64_t)(seconds * 1e9);

	__atomic_fetch_add(&sh->lat[lat_index(ns)], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&sh->lat_sum_ns, ns, __ATOMIC_RELAXED);
	__atomic_fetch_add(&sh->lat_n, 1, __ATOMIC_RELAXED);
}

static double lat_quantile_ms(double q)
{
	uint64_t seen = 0, want = (uint64_t)ceil(q * (double)sh->lat_n);

	if (!sh->lat_n)
		return NAN;
	for (int i = 0; i < POWERS * SUB; i++) {
		seen += sh->lat[i];
		if (seen >= want && seen)
			return lat_upper(i) / 1e6;
	}
	return NAN;
}

/* --- the outcome records ------------------------------------------------ */

static FILE *out;

/* A key and a number; NaN is left out (the reader: absent, unknown). */
static void key_num(const char *key, double v)
{
	if (!isnan(v))
		fprintf(out, ",\"%s\":%.9g", key, v);
}

/* the workload's latency buckets in the recording's log2 form */
static void key_hist(void)
{
	uint64_t log2[LOG2_HIST] = {0};
	bool first = true;

	if (!sh->lat_n)
		return;
	for (int i = 0; i < POWERS * SUB; i++) {
		double up = lat_upper(i);
		int b = 0;

		while (b < LOG2_HIST - 1 && ldexp(1, b) < up)
			b++;
		log2[b] += sh->lat[i];
	}
	fprintf(out, ",\"lat_hist\":[");
	for (int b = 0; b < LOG2_HIST; b++)
		if (log2[b]) {
			fprintf(out, "%s[%llu,%llu]", first ? "" : ",",
				1ULL << b, (unsigned long long)log2[b]);
			first = false;
		}
	fputc(']', out);
}

/* a record's start: {"type":"outcome","workload":W[,"worker":N],"memcg":M */
static void record_start(const char *workload, int worker, const char *memcg)
{
	fprintf(out, "{\"type\":\"outcome\",\"workload\":\"%s\"", workload);
	if (worker >= 0)
		fprintf(out, ",\"worker\":%d", worker);
	fprintf(out, ",\"memcg\":\"%s\"", memcg);
}

/* --- workers ------------------------------------------------------------ */

struct worker {
	pid_t pid;
	char memcg[256]; /* relative to CGROOT */
	int exit_status;
	bool oom_killed;
};

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		die(path);
	close(fd);
}

/* Fork a worker into memcg; it runs fn(idx) and exits 0. */
static void spawn(struct worker *w, const char *memcg, void (*fn)(int), int idx)
{
	char path[512];

	snprintf(w->memcg, sizeof(w->memcg), "%s", memcg);
	w->pid = fork();
	if (w->pid < 0)
		die("fork");
	if (w->pid)
		return;
	snprintf(path, sizeof(path), CGROOT "%s/cgroup.procs", memcg);
	write_file(path, "0");
	fn(idx);
	_exit(0);
}

static unsigned long long oom_kills(const char *memcg)
{
	char path[512], key[64];
	unsigned long long v, found = 0;
	FILE *f;

	snprintf(path, sizeof(path), CGROOT "%s/memory.events", memcg);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fscanf(f, "%63s %llu", key, &v) == 2)
		if (!strcmp(key, "oom_kill"))
			found = v;
	fclose(f);
	return found;
}

/*
 * Wait for every worker.  SIGKILL while its memcg's oom_kill count rose:
 * the OOM killer's doing (nothing else in the guest sends SIGKILL).
 */
static void reap(struct worker *w, int n)
{
	for (int i = 0; i < n; i++) {
		int status;

		if (waitpid(w[i].pid, &status, 0) < 0)
			die("waitpid");
		w[i].exit_status = WIFEXITED(status) ? WEXITSTATUS(status)
						     : 128 + WTERMSIG(status);
		w[i].oom_killed = WIFSIGNALED(status) &&
				  WTERMSIG(status) == SIGKILL &&
				  oom_kills(w[i].memcg) > 0;
	}
}

/*
 * Wait until the first n workers are ready (sh->ready).  One that ends
 * before makes a failed run: the others, which would wait or run for ever,
 * are killed and the load exits 1, saying why.
 */
static void await_ready(struct worker *w, int n, const char *why)
{
	while (__atomic_load_n(&sh->ready, __ATOMIC_SEQ_CST) < n) {
		for (int i = 0; i < n; i++)
			if (waitpid(w[i].pid, NULL, WNOHANG) == w[i].pid) {
				fprintf(stderr,
					LOAD_NAME ": %s: a failed run\n", why);
				for (int j = 0; j < n; j++)
					if (j != i)
						kill(w[j].pid, SIGKILL);
				exit(1);
			}
		usleep(10 * 1000);
	}
}

/* The workload's whole: exit status the worst of its workers', OOM kills. */
static void workload_record(const char *name, const char *memcg,
			    const struct worker *w, int n, double seconds)
{
	int status = 0, killed = 0;

	for (int i = 0; i < n; i++) {
		if (w[i].exit_status && !status)
			status = w[i].exit_status;
		killed += w[i].oom_killed;
	}
	record_start(name, -1, memcg);
	fprintf(out, ",\"exit_status\":%d,\"oom_killed\":%s", status,
		killed ? "true" : "false");
	key_num("duration_s", seconds);
	key_num("workers", n);
	key_num("workers_oom_killed", killed);
}

static void worker_records(const char *name, const struct worker *w, int n)
{
	for (int i = 0; i < n; i++) {
		record_start(name, i, w[i].memcg);
		fprintf(out, ",\"exit_status\":%d,\"oom_killed\":%s",
			w[i].exit_status, w[i].oom_killed ? "true" : "false");
		key_num("progress", (double)sh->progress[i]);
		fprintf(out, "}\n");
	}
}

static void latency_keys(void)
{
	key_num("lat_mean_ms",
		sh->lat_n ? sh->lat_sum_ns / 1e6 / (double)sh->lat_n : NAN);
	key_num("lat_p50_ms", lat_quantile_ms(0.50));
	key_num("lat_p95_ms", lat_quantile_ms(0.95));
	key_num("lat_p99_ms", lat_quantile_ms(0.99));
	key_hist();
}

/* 1 to MAX_WORKERS workers, or a usage error */
static void workers_in_range(long n)
{
	if (n < 1 || n > MAX_WORKERS) {
		fprintf(stderr, LOAD_NAME ": 1 to %d workers\n", MAX_WORKERS);
		exit(2);
	}
}

/* The requests all n workers served, their rate and latency. */
static void request_keys(int n, double seconds)
{
	uint64_t ops = 0;

	for (int i = 0; i < n; i++)
		ops += sh->progress[i];
	key_num("ops", (double)ops);
	key_num("ops_per_s", (double)ops / seconds);
	latency_keys();
}

/* --- writeback: the dd reproducer ---------------------------------------- */

static const char *wb_path;
static long wb_mb;

static void wb_worker(int idx)
{
	static char buf[1 << 20];
	int fd = open(wb_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die(wb_path);
	memset(buf, 0, sizeof(buf));
	for (long i = 0; i < wb_mb; i++) {
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("write");
		sh->bytes[idx] += sizeof(buf);
		sh->progress[idx]++;
	}
	close(fd); /* dd does not sync either */
}

static void do_writeback(const char *memcg, const char *path, long mb)
{
	struct worker w;
	double t = now(), took;

	wb_path = path;
	wb_mb = mb;
	spawn(&w, memcg, wb_worker, 0);
	reap(&w, 1);
	took = now() - t;
	workload_record("writeback", memcg, &w, 1, took);
	key_num("mb_per_s",
		w.exit_status ? NAN : (double)sh->bytes[0] / 1e6 / took);
	key_num("ops", (double)sh->progress[0]); /* MiB written */
	fprintf(out, "}\n");
	worker_records("writeback", &w, 1);
}

/* --- aging: the file/anon mix that OOM-killed MGLRU ---------------------- */

/*
 * The cover letter's reproducer (file_anon_mix_pressure, its link [4]),
 * in the shape it has there: READERS processes, each with its own mm,
 * read every page of one shared FILE through mmap and pause 120 ms after
 * each whole pass, for the whole run; once every reader has read the file
 * once (the page cache primed), one process maps ANON_MB of anonymous
 * memory, has THREADS threads fault disjoint slices of it at once (many
 * direct reclaimers entering reclaim together), unmaps it, waits 1 s, and
 * does that ROUNDS times.  The outcome is the rounds it finished (the
 * seed's "Finished N iterations"); the OOM killer ends it early.
 */
#define AG_READER_PAUSE_US (120 * 1000)
#define AG_ROUND_WAIT_S 1

static const char *ag_file;
static long ag_threads, ag_anon_mb, ag_rounds;

static void ag_reader(int idx)
{
	struct stat st;
	volatile unsigned char sum = 0;
	unsigned char *p;
	bool primed = false;
	int fd;

	fd = open(ag_file, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(ag_file);
	p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	close(fd);
	while (!__atomic_load_n(&sh->stop, __ATOMIC_SEQ_CST)) {
		for (off_t off = 0; off < st.st_size; off += PAGE)
			sum += p[off];
		sh->progress[idx]++;
		if (!primed) {
			__atomic_add_fetch(&sh->ready, 1, __ATOMIC_SEQ_CST);
			primed = true;
		}
		usleep(AG_READER_PAUSE_US);
	}
	(void)sum;
}

struct ag_slice {
	unsigned char *base;
	size_t len;
};

static void *ag_fault(void *arg)
{
	struct ag_slice *s = arg;

	for (size_t off = 0; off < s->len; off += PAGE)
		s->base[off] = (unsigned char)(off >> 12);
	return NULL;
}

static void ag_pressure(int idx)
{
	size_t size = (size_t)ag_anon_mb << 20;
	size_t per = (size / (size_t)ag_threads) & ~(size_t)(PAGE - 1);
	pthread_t tid[MAX_WORKERS];
	struct ag_slice slice[MAX_WORKERS];

	for (long round = 0; round < ag_rounds; round++) {
		unsigned char *p = mmap(
			NULL, size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (p == MAP_FAILED)
			die("mmap anon");
		for (long t = 0; t < ag_threads; t++) {
			slice[t] = (struct ag_slice){p + (size_t)t * per, per};
			errno = pthread_create(&tid[t], NULL, ag_fault,
					       &slice[t]);
			if (errno)
				die("pthread_create");
		}
		for (long t = 0; t < ag_threads; t++)
			pthread_join(tid[t], NULL);
		munmap(p, size);
		sh->progress[idx]++;
		if (round + 1 < ag_rounds)
			sleep(AG_ROUND_WAIT_S);
	}
}

static void do_aging(const char *memcg, const char *file, long readers,
		     long threads, long anon_mb, long rounds)
{
	struct worker w[MAX_WORKERS];
	int n = 0;
	double t, took;
	uint64_t passes = 0;

	workers_in_range(readers + 1);
	workers_in_range(threads);
	ag_file = file;
	ag_threads = threads;
	ag_anon_mb = anon_mb;
	ag_rounds = rounds;
	for (int i = 0; i < readers; i++, n++)
		spawn(&w[n], memcg, ag_reader, n);
	/* primed: every reader has read the whole file once */
	await_ready(w, (int)readers,
		    "a reader ended before it read the file once");
	t = now();
	spawn(&w[n], memcg, ag_pressure, n);
	reap(&w[n], 1);
	took = now() - t;
	n++;
	__atomic_store_n(&sh->stop, 1, __ATOMIC_SEQ_CST);
	reap(w, (int)readers);
	for (int i = 0; i < readers; i++)
		passes += sh->progress[i];
	workload_record("aging", memcg, w, n, took);
	/* rounds of anon pressure finished: the reproducer's "Finished N
	 * iterations" (an OOM kill ends them short) */
	key_num("iterations", (double)sh->progress[readers]);
	key_num("ops", (double)passes); /* the readers' passes */
	fprintf(out, "}\n");
	worker_records("aging", w, n);
}

/* --- tenants: many memcgs of workers with anon and file working sets ----- */

static const char *tn_dir;
static long tn_anon_mb;

/* now() in whole microseconds: shared with the workers as an integer */
static int64_t now_us(void)
{
	return (int64_t)(now() * 1e6);
}

/* every word of a page, read */
static uint64_t page_sum(const volatile uint64_t *p)
{
	uint64_t x = 0;

	for (size_t i = 0; i < PAGE / sizeof(*p); i++)
		x += p[i];
	return x;
}

static void tn_worker(int idx)
{
	char path[512];
	size_t anon = (size_t)tn_anon_mb << 20, pages = anon / PAGE;
	unsigned int seed = 0x7e4a + idx;
	volatile unsigned char sum = 0;
	unsigned char *a, *f;
	struct stat st;
	int64_t end;
	int fd;

	snprintf(path, sizeof(path), "%s/tenant%d", tn_dir, idx);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(path);
	f = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	a = mmap(NULL, anon, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (f == MAP_FAILED || a == MAP_FAILED)
		die("mmap");
	/* the working sets, whole, before the window: a worker still
	 * faulting its anon in while others serve would count its set-up
	 * as unfairness (Jain's index near 0.5 when the window began at the
	 * first worker's start) */
	for (size_t off = 0; off < anon; off += PAGE)
		a[off] = (unsigned char)off;
	for (off_t off = 0; off < st.st_size; off += PAGE)
		sum += f[off];
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_SEQ_CST);
	while (!(end = __atomic_load_n(&sh->tn_end_us, __ATOMIC_SEQ_CST)))
		usleep(1000);
	/* a request reads a random sixteenth of each working set, every
	 * byte of the pages it touches (a request's work, beside which a
	 * page brought back is a cost and not the whole of it), and writes
	 * to the anon ones */
	while (now_us() < end) {
		double t = now();

		for (size_t i = 0; i < pages / 16; i++) {
			uint64_t *p = (uint64_t *)(a + (rand_r(&seed) % pages) *
							       PAGE);

			p[0] += page_sum(p);
		}
		for (size_t i = 0; i < (size_t)st.st_size / PAGE / 16; i++)
			sum += (unsigned char)page_sum(
				(const uint64_t *)(f + (rand_r(&seed) %
							(st.st_size / PAGE)) *
							       PAGE));
		lat_add(now() - t);
		sh->progress[idx]++;
	}
	(void)sum;
}

static void do_tenants(const char *parent, long memcgs, long per, long anon_mb,
		       const char *dir, long seconds)
{
	struct worker w[MAX_WORKERS];
	int n = 0;
	double t, took;

	workers_in_range(memcgs * per);
	tn_dir = dir;
	tn_anon_mb = anon_mb;
	for (int m = 0; m < memcgs; m++) {
		char memcg[256];

		snprintf(memcg, sizeof(memcg), "%s/t%d", parent, m);
		for (int i = 0; i < per; i++, n++)
			spawn(&w[n], memcg, tn_worker, n);
	}
	/* one window for all: it opens once every worker has touched its
	 * working sets */
	await_ready(w, n,
		    "a tenant's worker ended before every worker had touched "
		    "its working sets");
	t = now();
	__atomic_store_n(&sh->tn_end_us, now_us() + (int64_t)seconds * 1000000,
			 __ATOMIC_SEQ_CST);
	reap(w, n);
	took = now() - t;
	workload_record("tenants", parent, w, n, took);
	request_keys(n, took);
	fprintf(out, "}\n");
	worker_records("tenants", w, n);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rs-labload writeback MEMCG PATH MB\n"
		"       rs-labload aging MEMCG FILE READERS THREADS ANON_MB "
		"ROUNDS\n"
		"       rs-labload tenants PARENT MEMCGS WORKERS ANON_MB DIR "
		"SECONDS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *outcome = getenv("RS_OUTCOME");

	if (argc < 2)
		usage();
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap shared");
	out = outcome ? fopen(outcome, "a") : stdout;
	if (!out)
		die(outcome);
	if (!strcmp(argv[1], "writeback") && argc == 5)
		do_writeback(argv[2], argv[3], number(argv[4]));
	else if (!strcmp(argv[1], "aging") && argc == 8)
		do_aging(argv[2], argv[3], number(argv[4]), number(argv[5]),
			 number(argv[6]), number(argv[7]));
	else if (!strcmp(argv[1], "tenants") && argc == 8)
		do_tenants(argv[2], number(argv[3]), number(argv[4]),
			   number(argv[5]), argv[6], number(argv[7]));
	else
		usage();
	if (fclose(out))
		die("writing the outcome");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * rs-workload: memory pressure for the VM scenarios, run inside a memcg.
 *
 *   rs-workload write PATH MB            write MB of data to PATH
 *   rs-workload mmap PATH PASSES MS      read PATH through mmap PASSES times,
 *                                        pausing MS between passes
 *   rs-workload anon MB SECONDS          allocate, touch and free MB of
 *                                        anonymous memory for SECONDS
 *   rs-workload hold MB SECONDS          allocate MB of anonymous memory, touch
 *                                        every page twice, then keep touching
 *                                        it until SECONDS have passed: held,
 *                                        however slow the machine
 *   rs-workload mix PATH PASSES ANON_MB  mmap reader and anon worker at once
 *   rs-workload stride PATH SECONDS KB [RAMP]
 *                                        read 4 KiB every KB KiB of PATH
 *                                        through mmap, over and over for
 *                                        SECONDS (seed 011's fio job, below);
 *                                        with RAMP, first for RAMP seconds
 *                                        more, then print one JSON line of
 *                                        the SECONDS measured: reads, bytes,
 *                                        seconds
 *   rs-workload readlat PATH PASSES      read PATH with read(2) in 256 KiB
 *                                        chunks PASSES times, timing each;
 *                                        print one JSON line: wall and CPU
 *                                        seconds, chunk latency p50/p99/max
 *                                        (make bench)
 *   rs-workload reclaimloop PATH ROUNDS [MEMCG_DIR]
 *                                        ROUNDS times: read PATH into the
 *                                        page cache of our memcg (MEMCG_DIR;
 *                                        default our cgroup v2 one), then
 *                                        empty it -- its size to v2's
 *                                        memory.reclaim, or v1's
 *                                        memory.force_empty -- timing only
 *                                        that; one JSON line: those writes'
 *                                        wall and CPU seconds, latency
 *                                        p50/p99/max, pages reclaimed (v2's
 *                                        pgsteal, v1's pgpgout) (make bench)
 *   rs-workload stallers MEMCG_DIR N AT_ONCE
 *                                        N short-lived threads, AT_ONCE at a
 *                                        time, each writing 4K to MEMCG_DIR's
 *                                        memory.reclaim once (a proactive
 *                                        reclaim stall of its own) and
 *                                        exiting; prints the threads run
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LOAD_NAME "rs-workload"
#include "load.h"

static int do_write(const char *path, long mb)
{
	static char buf[1 << 20];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die(path);
	for (long i = 0; i < mb; i++) {
		memset(buf, (int)(i & 0xff) | 1, sizeof(buf));
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("write");
	}
	if (fsync(fd) || close(fd))
		die("fsync");
	return 0;
}

static int do_mmap(const char *path, long passes, long pause_ms)
{
	struct stat st;
	volatile unsigned long sum = 0;
	int fd = open(path, O_RDONLY);
	unsigned char *p;

	if (fd < 0 || fstat(fd, &st))
		die(path);
	p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	for (long pass = 0; pass < passes; pass++) {
		for (off_t off = 0; off < st.st_size; off += PAGE)
			sum += p[off];
		if (pause_ms)
			usleep(pause_ms * 1000);
	}
	munmap(p, st.st_size);
	close(fd);
	return sum == 1; /* keeps the reads; never true for our data */
}

/*
 * Seed 011's reproducer is fio's mmap engine in strided zones (4 KiB read
 * from each 64 KiB zone, sequentially, over and over, --fadvise_hint=0:
 * no madvise).  Debian's fio cannot run it: its mmap engine (3.33 here;
 * sid's 3.41 not tried) copies every zone's read from the file's first page
 * (measured on a 160 MiB file: after fio read 76 GB, the 2,048 pages
 * cached were all in the first 8 MiB, one read-around from page 0).
 * Upstream's mmap engine fixes of November 2025 (fio's pull request 2017,
 * "fix logic when offset > 0"), before the seed's 3.42, may be this; not
 * checked.  This is the job as the seed describes it: the file mapped
 * whole and shared, no advice, a 4 KiB memcpy from each zone's start.
 */
static int do_stride(const char *path, double seconds, long stride_kb,
		     double ramp)
{
	static unsigned char buf[PAGE];
	struct stat st;
	volatile unsigned long sum = 0;
	double start = now(), measured = start + ramp, end = measured + seconds;
	double t = start;
	unsigned long reads = 0;
	bool counting = ramp == 0;
	size_t stride = (size_t)stride_kb << 10;
	int fd = open(path, O_RDONLY);
	unsigned char *p;

	if (stride < PAGE) {
		fprintf(stderr, LOAD_NAME ": stride below one page\n");
		return 2;
	}
	if (fd < 0 || fstat(fd, &st))
		die(path);
	if ((size_t)st.st_size < PAGE) {
		fprintf(stderr, LOAD_NAME ": %s: smaller than one page\n",
			path);
		return 2;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	/* fault-around and read-around bring in the pages between the strides,
	 * which this reader never touches: they compete with the ones it does
	 */
	while (t < end) {
		for (size_t off = 0;
		     off + PAGE <= (size_t)st.st_size && t < end;
		     off += stride) {
			memcpy(buf, p + off, PAGE);
			/* the copy is the read: kept whole */
			__asm__ volatile("" : : "r"(buf) : "memory");
			sum += buf[0];
			if (counting)
				reads++;
			/* the clock read every 64 reads: cheap beside a fault
			 */
			if (reads % 64 == 0 || !counting) {
				t = now();
				if (!counting && t >= measured) {
					counting = true;
					measured = t;
					end = t + seconds;
				}
			}
		}
	}
	munmap(p, st.st_size);
	close(fd);
	if (ramp > 0)
		printf("{\"reads\":%lu,\"bytes\":%lu,\"seconds\":%.6f}\n",
		       reads, reads * (unsigned long)PAGE, t - measured);
	return sum == 1;
}

static int do_anon(long mb, double seconds)
{
	double end = now() + seconds;
	size_t size = (size_t)mb << 20;

	while (now() < end) {
		unsigned char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			die("mmap anon");
		for (int round = 0; round < 4; round++)
			for (size_t off = 0; off < size; off += PAGE)
				p[off] = (unsigned char)(off + round);
		munmap(p, size);
		usleep(50 * 1000);
	}
	return 0;
}

static int do_hold(long mb, double seconds)
{
	double end = now() + seconds;
	size_t size = (size_t)mb << 20;
	unsigned char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap anon");
	for (int round = 0; round < 2 || now() < end; round++)
		for (size_t off = 0; off < size; off += PAGE)
			p[off] = (unsigned char)(off + round);
	munmap(p, size);
	return 0;
}

static int do_mix(const char *path, long passes, long anon_mb)
{
	int pipefd[2], status = 0;
	pid_t child;

	if (pipe(pipefd))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		/* anon worker: runs until the reader closes the pipe */
		char c;

		close(pipefd[1]);
		fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
		while (read(pipefd[0], &c, 1) < 0 && errno == EAGAIN)
			do_anon(anon_mb, 0.5);
		_exit(0);
	}
	close(pipefd[0]);
	do_mmap(path, passes, 200);
	close(pipefd[1]);
	if (waitpid(child, &status, 0) < 0)
		die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int do_readlat(const char *path, long passes)
{
	static char buf[256 << 10];
	struct stat st;
	struct rusage ru;
	double start = now(), *lat;
	size_t nr = 0, max;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die(path);
	max = (size_t)passes * ((size_t)st.st_size / sizeof(buf) + 1);
	lat = malloc(max * sizeof(*lat));
	if (!lat)
		die("malloc");
	for (long pass = 0; pass < passes; pass++) {
		ssize_t n = 1;

		if (lseek(fd, 0, SEEK_SET))
			die("lseek");
		while (n > 0 && nr < max) {
			double t = now();

			n = read(fd, buf, sizeof(buf));
			if (n < 0)
				die("read");
			lat[nr++] = now() - t;
		}
	}
	if (getrusage(RUSAGE_SELF, &ru))
		die("getrusage");
	qsort(lat, nr, sizeof(*lat), cmp_double);
	printf("{\"wall_s\": %.6f, \"cpu_s\": %.6f, \"reads\": %zu, "
	       "\"p50_us\": %.1f, \"p99_us\": %.1f, \"max_us\": %.1f}\n",
	       now() - start,
	       ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6,
	       nr, lat[nr / 2] * 1e6, lat[nr * 99 / 100] * 1e6,
	       lat[nr - 1] * 1e6);
	free(lat);
	close(fd);
	return 0;
}

static double thread_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		die("getrusage");
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* A count of the memcg's memory.stat. */
static unsigned long long memcg_stat(const char *memcg, const char *name)
{
	char path[4300], key[64];
	unsigned long long v, found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.stat", memcg);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fscanf(f, "%63s %llu", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

/* v1's memory.usage_in_bytes */
static unsigned long long usage(const char *memcg)
{
	char path[4300];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.usage_in_bytes", memcg);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%llu", &v) != 1)
		die(path);
	fclose(f);
	return v;
}

/*
 * A workload that is almost all reclaim: the CPU time of a memory.reclaim
 * write is the kernel reclaiming, so a tool's cost on reclaim shows in it
 * undiluted (the readlat reader mostly copies).
 */
static int do_reclaimloop(const char *path, long rounds, const char *dir)
{
	static char buf[256 << 10];
	char self[4096], memcg[4200], size[32], line[4096], reclaim[4300];
	double wall = 0, cpu = 0, *lat;
	unsigned long long before, freed = 0;
	bool v1 = false;
	struct stat st;
	FILE *f;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die(path);
	if (dir) {
		snprintf(memcg, sizeof(memcg), "%s", dir);
	} else {
		/* cgroup v2: "0::/path" is our memcg */
		f = fopen("/proc/self/cgroup", "r");
		if (!f)
			die("/proc/self/cgroup");
		self[0] = '\0';
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "0::", 3))
				snprintf(self, sizeof(self), "%s", line + 3);
		fclose(f);
		self[strcspn(self, "\n")] = '\0';
		snprintf(memcg, sizeof(memcg), "/sys/fs/cgroup%s", self);
	}
	/* v2 reclaims SIZE bytes; v1 (no memory.reclaim) everything it can */
	snprintf(reclaim, sizeof(reclaim), "%s/memory.reclaim", memcg);
	snprintf(size, sizeof(size), "%lld", (long long)st.st_size);
	if (access(reclaim, W_OK)) {
		snprintf(reclaim, sizeof(reclaim), "%s/memory.force_empty",
			 memcg);
		snprintf(size, sizeof(size), "0");
		v1 = true;
		if (access(reclaim, W_OK)) {
			fprintf(stderr,
				LOAD_NAME
				": %s has neither "
				"memory.reclaim nor memory.force_empty\n",
				memcg);
			return 1;
		}
	}
	lat = calloc(rounds ? rounds : 1, sizeof(*lat));
	if (!lat)
		die("calloc");
	/*
	 * v1 has no per-memcg pgsteal, and its pgpgout counts folios: there,
	 * the usage each write frees is what it reclaimed
	 */
	before = v1 ? 0 : memcg_stat(memcg, "pgsteal");
	for (long r = 0; r < rounds; r++) {
		double t, c;
		int rfd;

		if (lseek(fd, 0, SEEK_SET))
			die("lseek");
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		rfd = open(reclaim, O_WRONLY);
		if (rfd < 0)
			die(reclaim);
		if (v1)
			freed += usage(memcg);
		c = thread_cpu();
		t = now();
		/*
		 * EAGAIN (v2), EBUSY (v1): not all of it was reclaimable;
		 * still timed
		 */
		if (write(rfd, size, strlen(size)) < 0 && errno != EAGAIN &&
		    errno != EBUSY)
			die("memory.reclaim");
		lat[r] = now() - t;
		cpu += thread_cpu() - c;
		if (v1)
			freed -= usage(memcg);
		wall += lat[r];
		close(rfd);
	}
	qsort(lat, rounds, sizeof(*lat), cmp_double);
	printf("{\"wall_s\": %.6f, \"cpu_s\": %.6f, \"reclaims\": %ld, "
	       "\"p50_us\": %.1f, \"p99_us\": %.1f, \"max_us\": %.1f, "
	       "\"reclaimed\": %llu}\n",
	       wall, cpu, rounds, lat[rounds / 2] * 1e6,
	       lat[rounds * 99 / 100] * 1e6, lat[rounds ? rounds - 1 : 0] * 1e6,
	       v1 ? freed / PAGE : memcg_stat(memcg, "pgsteal") - before);
	free(lat);
	close(fd);
	return 0;
}

static const char *stall_file;

/* One stall of a task of its own: memory.reclaim, whatever it frees. */
static void *one_stall(void *arg)
{
	int fd = open(stall_file, O_WRONLY);

	(void)arg;
	if (fd < 0)
		die(stall_file);
	/* EAGAIN: it reclaimed less than asked; the stall happened */
	if (write(fd, "4K", 2) < 0 && errno != EAGAIN)
		die("write memory.reclaim");
	close(fd);
	return NULL;
}

static int do_stallers(const char *memcg, long n, long at_once)
{
	static char path[512];
	pthread_t *t = calloc((size_t)at_once, sizeof(*t));
	long done = 0;

	if (!t || at_once <= 0)
		die("stallers");
	snprintf(path, sizeof(path), "%s/memory.reclaim", memcg);
	stall_file = path;
	while (done < n) {
		long k = n - done < at_once ? n - done : at_once;

		for (long i = 0; i < k; i++)
			if (pthread_create(&t[i], NULL, one_stall, NULL))
				die("pthread_create");
		for (long i = 0; i < k; i++)
			pthread_join(t[i], NULL);
		done += k;
	}
	printf("%ld\n", done);
	free(t);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "write"))
		return do_write(argv[2], number(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "mmap"))
		return do_mmap(argv[2], number(argv[3]), number(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "hold"))
		return do_hold(number(argv[2]), number(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "anon"))
		return do_anon(number(argv[2]), number(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "mix"))
		return do_mix(argv[2], number(argv[3]), number(argv[4]));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "stride"))
		return do_stride(argv[2], number(argv[3]), number(argv[4]),
				 argc == 6 ? number(argv[5]) : 0);
	if (argc == 4 && !strcmp(argv[1], "readlat"))
		return do_readlat(argv[2], number(argv[3]));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "reclaimloop") &&
	    number(argv[3]) > 0)
		return do_reclaimloop(argv[2], number(argv[3]),
				      argc == 5 ? argv[4] : NULL);
	if (argc == 5 && !strcmp(argv[1], "stallers"))
		return do_stallers(argv[2], number(argv[3]), number(argv[4]));
	fprintf(stderr,
		"usage: rs-workload write PATH MB | mmap PATH PASSES MS"
		" | anon MB SECONDS | hold MB SECONDS | mix PATH PASSES ANON_MB"
		" | stride PATH SECONDS KB [RAMP] | readlat PATH PASSES"
		" | reclaimloop PATH ROUNDS [MEMCG_DIR]"
		" | stallers MEMCG_DIR N AT_ONCE\n");
	return 2;
}

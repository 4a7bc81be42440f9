// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include "output.h"
#include "util.h"

#define TICK_US 100000 /* how often a blocked call looks at the run */
#define GRACE_NS (RS_OUTPUT_STOP_GRACE_S * 1000000000ULL)

static void on_tick(int sig)
{
	(void)sig;
}

/*
 * SIGALRM every tick while on, to end a blocked open or write (EINTR, or
 * a write cut short) so that the caller looks at the stop flag and the
 * deadline.  SIGINT and SIGTERM cannot do it: their handlers restart such
 * calls (rs_cli_on_signals: a write goes on after a signal rather than lose
 * the summary), and the deadline sends no signal at all.  The handler is
 * installed without SA_RESTART for that; a tick that comes after the timer
 * is off at most ends a poll of the ring early, which the collector takes
 * as a poll that found nothing.
 */
static void ticks(bool on)
{
	static bool handled;
	struct itimerval every = {0};

	if (!handled) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_tick;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		handled = true;
	}
	if (on) {
		every.it_value.tv_usec = TICK_US;
		every.it_interval.tv_usec = TICK_US;
	}
	setitimer(ITIMER_REAL, &every, NULL);
}

static bool stopping(const struct rs_output *out, __u64 now)
{
	return out->finishing || (out->stop && *out->stop) ||
	       (out->deadline_ns && now >= out->deadline_ns);
}

/*
 * Whether a write waiting for room is to give up: never while the run goes
 * on, and once it is to stop, when the reader took nothing for the grace
 * since the later of that moment and the last bytes it took.
 */
static bool waited_enough(struct rs_output *out)
{
	__u64 now = rs_now_ns(), since;

	if (!stopping(out, now))
		return false;
	if (!out->stop_seen_ns)
		out->stop_seen_ns = now;
	since = out->stop_seen_ns > out->progress_ns ? out->stop_seen_ns
						     : out->progress_ns;
	return now - since >= GRACE_NS;
}

/* stdio's write: all of buf, or -1 and errno (ETIMEDOUT: gave up). */
static ssize_t output_write(void *cookie, const char *buf, size_t size)
{
	struct rs_output *out = cookie;
	size_t done = 0;
	int err = 0;

	if (out->gave_up) {
		errno = ETIMEDOUT;
		return -1;
	}
	out->progress_ns = rs_now_ns();
	if (out->may_block)
		ticks(true);
	while (done < size) {
		ssize_t n = write(out->fd, buf + done, size - done);

		if (n > 0) {
			done += (size_t)n;
			out->progress_ns = rs_now_ns();
			continue;
		}
		err = n ? errno : EIO;
		if (err != EINTR)
			break;
		if (waited_enough(out)) {
			out->gave_up = true;
			out->unwritten = size - done;
			err = ETIMEDOUT;
			break;
		}
	}
	if (out->may_block)
		ticks(false);
	if (done == size)
		return (ssize_t)size;
	errno = err;
	return -1;
}

int rs_output_open(struct rs_output *out, const char *path)
{
	static const cookie_io_functions_t io = {.write = output_write};
	struct stat st;
	int err = 0;

	out->fd = STDOUT_FILENO;
	if (path) {
		/* a FIFO's open waits for a reader, a tick at a time */
		ticks(true);
		do
			out->fd = open(path,
				       O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				       0666);
		while (out->fd < 0 && errno == EINTR &&
		       !stopping(out, rs_now_ns()));
		err = out->fd < 0 ? errno : 0;
		ticks(false);
		if (err == EINTR)
			return RS_OUTPUT_NO_READER;
		if (err)
			return -err;
		out->own_fd = true;
	}
	/* a regular file's writes do not wait for anyone: no ticks for them */
	out->may_block = fstat(out->fd, &st) || !S_ISREG(st.st_mode);
	out->file = fopencookie(out, "w", io);
	if (!out->file) {
		err = errno;
		if (out->own_fd)
			close(out->fd);
		return -err;
	}
	return 0;
}

void rs_output_finishing(struct rs_output *out)
{
	out->finishing = true;
}

int rs_output_close(struct rs_output *out)
{
	int err = 0;

	if (!out->file)
		return 0;
	out->finishing = true;
	if (fclose(out->file))
		err = errno ? errno : EIO;
	out->file = NULL;
	/* a file system may tell of a failed write only here (NFS) */
	if (out->own_fd && close(out->fd) && !err)
		err = errno;
	return err;
}

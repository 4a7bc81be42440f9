// SPDX-License-Identifier: GPL-2.0
/* What report and diff share: options, reading recordings, pages. */
#include <argp.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "recordings.h"
#include "util.h"

/*
 * Whether an output (--html, --trace) may write out (0): a new file, or one
 * that starts as ours does (head: a page or a trace written before), and
 * never one of the inputs (EEXIST); else why the path cannot be used
 * (ENOTDIR, EACCES, ...).  A recording given where the output's name
 * belongs (`diff --html a.ndjson b.ndjson c.ndjson`) would otherwise be
 * replaced.
 */
static int out_ok(const char *out, const char *head,
		  const struct report_opts *o)
{
	size_t len = strlen(head);
	char seen[32];
	struct stat st, in;
	FILE *f;
	bool ok;

	if (stat(out, &st))
		return errno == ENOENT ? 0 : errno;
	for (int i = 0; i < o->nr_files; i++)
		if (!stat(o->files[i], &in) && in.st_dev == st.st_dev &&
		    in.st_ino == st.st_ino)
			return EEXIST;
	if (!S_ISREG(st.st_mode))
		return EEXIST;
	if (!st.st_size)
		return 0;
	f = fopen(out, "re");
	if (!f)
		return 0; /* the write says why it cannot */
	ok = len <= sizeof(seen) && fread(seen, 1, len, f) == len &&
	     !memcmp(seen, head, len);
	fclose(f);
	return ok ? 0 : EEXIST;
}

/* out_ok said on stderr for option opt ("--html"): 0 or EINVAL */
static int check_out(struct argp_state *state, const char *opt, const char *out,
		     const char *head, const char *what)
{
	int why = out_ok(out, head, state->input);
	char pb[RS_PATH_BUF];

	if (why == EEXIST)
		argp_error(state,
			   "%s %s: the file exists and is not %s of ours (a "
			   "recording? the output name forgotten?); not "
			   "overwritten: remove it or name another",
			   opt, rs_name_shown(out, pb, sizeof(pb), 0), what);
	else if (why)
		argp_error(state, "%s %s: %s", opt,
			   rs_name_shown(out, pb, sizeof(pb), 0),
			   strerror(why));
	return why ? EINVAL : 0;
}

/* Report row i among the metrics shown (--metric, --headline), once. */
static error_t add_metric(struct report_opts *o, int i)
{
	for (int j = 0; j < o->compare.nr_metrics; j++)
		if (o->metrics[j] == i)
			return 0;
	if (!o->metrics &&
	    !(o->metrics = calloc(rs_nr_report_rows, sizeof(int))))
		return ENOMEM;
	o->metrics[o->compare.nr_metrics++] = i;
	o->compare.metrics = o->metrics;
	return 0;
}

error_t rs_recordings_parse(int key, char *arg, struct argp_state *state)
{
	struct report_opts *o = state->input;
	int want = o->want_files;

	switch (key) {
	case OPT_HTML:
		o->html = arg;
		return 0;
	case OPT_TRACE:
		o->trace = arg;
		return 0;
	case OPT_BUDGET:
		return rs_cli_parse_budget(state, arg, &o->budget_ns);
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_MARKDOWN:
		o->markdown = true;
		return 0;
	case OPT_METRICS:
		/* name, unit, better direction, section, meaning: for
		 * --metric and scripts */
		for (int i = 0; i < rs_nr_report_rows; i++)
			printf("%s\t%s\t%s\t%s\t%s\n", rs_rows[i].key,
			       rs_row_unit(i), rs_row_better_name(i),
			       rs_rows[i].section, rs_row_help(i));
		exit(fflush(stdout) || ferror(stdout) ? 1 : 0);
	case OPT_GROUPS:
		o->groups = true;
		return 0;
	case OPT_ALL:
		o->all = true;
		return 0;
	case OPT_TOTAL:
		o->compare.total_only = true;
		return 0;
	case OPT_HEADLINE: {
		/* the catalogue's headline rows, after any --metric given
		 * before; the list holds report rows only */
		int *rows = calloc(rs_nr_rows, sizeof(int));
		int n = rows ? rs_row_list(RS_LIST_HEADLINE, rows, rs_nr_rows)
			     : 0;
		error_t err = rows ? 0 : ENOMEM;

		for (int k = 0; k < n && !err; k++)
			err = add_metric(o, rows[k]);
		free(rows);
		return err;
	}
	case OPT_METRIC: {
		int i = 0;

		while (i < rs_nr_report_rows && strcmp(rs_rows[i].key, arg))
			i++;
		if (i == rs_nr_report_rows) {
			argp_error(
				state,
				"no metric '%s': `reclaimscope report` lists "
				"them, one per line",
				arg);
			return EINVAL;
		}
		o->compare.metrics_named = true;
		return add_metric(o, i);
	}
	case ARGP_KEY_ARG:
		if (o->nr_files == o->max_files) {
			argp_error(state, "unexpected argument '%s'", arg);
			return EINVAL;
		}
		o->files[o->nr_files++] = arg;
		return 0;
	case ARGP_KEY_END:
		if (o->nr_files < want) {
			argp_error(state, "give %s",
				   want == 2 ? "two recordings (or folders of "
					       "them), A and B"
					     : "one recording");
			return EINVAL;
		}
		if (o->json + o->markdown + !!o->html > 1) {
			argp_error(state, "give one of --json, --markdown and "
					  "--html");
			return EINVAL;
		}
		if (o->trace && o->html && !strcmp(o->trace, o->html)) {
			argp_error(state, "--trace and --html name the same "
					  "file: give each its own");
			return EINVAL;
		}
		if (o->html && check_out(state, "--html", o->html,
					 "<!DOCTYPE html>", "a page"))
			return EINVAL;
		if (o->trace && check_out(state, "--trace", o->trace,
					  "{\"traceEvents\":[", "a trace"))
			return EINVAL;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* Read one recording, or say which line is wrong and how. */
/* The recording at path (or - for standard input) into r, its events also
 * handed to sink (NULL: none).  0, or 1 said on stderr. */
int rs_load_events(const char *path, __u64 budget_ns, struct rs_recording *r,
		   const struct rs_event_sink *sink)
{
	char err[512], shown[RS_ESCAPED_SIZE(512)], pb[RS_PATH_BUF];
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	struct stat st;
	int rc;

	if (!f) {
		fprintf(stderr, "reclaimscope: cannot read %s: %s\n",
			rs_name_shown(path, pb, sizeof(pb), 0),
			strerror(errno));
		return 1;
	}
	/* a device such as /dev/zero never ends: files, pipes and sockets */
	if (!fstat(fileno(f), &st) && !S_ISREG(st.st_mode) &&
	    !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
		fprintf(stderr,
			"reclaimscope: %s is not a file or a pipe; give a "
			"recording (or - for standard input)\n",
			rs_name_shown(path, pb, sizeof(pb), 0));
		if (f != stdin)
			fclose(f);
		return 1;
	}
	rc = rs_recording_read_events(f, path, (double)budget_ns, r, sink, err,
				      sizeof(err));
	if (f != stdin)
		fclose(f);
	if (rc) {
		/* the message quotes the file's name and may quote its
		 * content (a record's type, jansson's "near ..."): bytes a
		 * hostile file chose, escaped for the terminal */
		fprintf(stderr, "reclaimscope: %s\n",
			rs_name_shown(err, shown, sizeof(shown), 0));
		return 1;
	}
	return 0;
}

int rs_load(const char *path, __u64 budget_ns, struct rs_recording *r)
{
	return rs_load_events(path, budget_ns, r, NULL);
}

int rs_page_open(struct page_out *p, const char *out)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	if (asprintf(&p->tmp, "%s.tmp.%d", out, (int)getpid()) < 0) {
		p->tmp = NULL;
		return ENOMEM;
	}
	p->f = fopen(p->tmp, "wxe");
	return p->f ? 0 : errno;
}

int rs_page_close(struct page_out *p, int err, const char *detail)
{
	char pb[RS_PATH_BUF];

	if (p->f) {
		if (!err && ferror(p->f))
			err = errno ? errno : EIO;
		if (fclose(p->f) && !err)
			err = errno ? errno : EIO;
		if (!err && rename(p->tmp, p->out))
			err = errno;
		if (err && p->tmp)
			unlink(p->tmp);
	}
	/* after what stdout holds: the notice must not land in the middle
	 * of a report when both go to one terminal or file */
	fflush(stdout);
	if (err)
		fprintf(stderr, "reclaimscope: cannot write %s: %s\n",
			rs_name_shown(p->out, pb, sizeof(pb), 0),
			strerror(err));
	else
		fprintf(stderr, "reclaimscope: wrote %s%s\n",
			rs_name_shown(p->out, pb, sizeof(pb), 0),
			detail ? detail : "");
	free(p->tmp);
	return err ? 1 : 0;
}

int rs_write_page(const char *out, int (*page)(FILE *f, const void *ctx),
		  const void *ctx)
{
	struct page_out p;
	int err = rs_page_open(&p, out);

	if (!err && page(p.f, ctx))
		err = errno ? errno : EIO;
	return rs_page_close(&p, err, NULL);
}

/*
 * The lines a fleet's controller and one host's raidlab exchange over the
 * ssh session that runs `raidlab run --fleet-host NAME` there. ssh is the
 * transport; these are only lines on the session's own streams:
 *
 *   host -> controller, on stderr, among raidlab's own messages (which
 *   never start with '@'):
 *     @fleet 1 ready HOST VERSION     the lab loaded and checked there
 *     @fleet 1 wait N                 round N is next: waiting for "go N"
 *     @fleet 1 live V W K RD WR FS    about once a second while variant
 *                                     V runs workload W, round K: MB/s
 *                                     read and written, files/s (C
 *                                     locale, "%.3f")
 *     @fleet 1 done RAN FAILED        the runs finished, the record
 *                                     follows on stdout
 *   host -> controller, on stdout: the run's record as JSON (`--json`),
 *   nothing else.
 *   controller -> host, on stdin:
 *     go N                            start round N
 *     (end of file)                   stop: the host's run is interrupted
 *                                     as by ^C, tears down what it built
 *                                     and exits
 *
 * V and W are lab names (lab_name_ok(): no blank), HOST a host's name. A
 * line that does not parse is a message, shown as the host's. The
 * version after "@fleet" changes with any change of meaning; each side
 * refuses another. Pure functions; any thread.
 */
#ifndef RAIDLAB_FLEET_PROTO_H
#define RAIDLAB_FLEET_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#define FLEET_PROTO_PREFIX "@fleet "
#define FLEET_PROTO_VERSION 1
/* A protocol line's longest form, '\n' included. */
#define FLEET_PROTO_LINE 640
#define FLEET_PROTO_NAME 128

enum fleet_msg_kind {
	FLEET_MSG_TEXT, /* not a protocol line: a message */
	FLEET_MSG_READY,
	FLEET_MSG_WAIT,
	FLEET_MSG_LIVE,
	FLEET_MSG_DONE,
	FLEET_MSG_BAD, /* "@fleet" with another version or a bad field */
};

struct fleet_msg {
	enum fleet_msg_kind kind;
	char host[FLEET_PROTO_NAME]; /* READY */
	char version[64]; /* READY: raidlab's */
	char variant[FLEET_PROTO_NAME], workload[FLEET_PROTO_NAME]; /* LIVE */
	long round; /* WAIT, LIVE: 1-based */
	double read_mbps, write_mbps, files_s; /* LIVE */
	long ran, failed; /* DONE */
};

/* Parse one line (without its '\n'). m is always filled; its kind says
   what the line was. */
enum fleet_msg_kind fleet_proto_parse(const char *line, struct fleet_msg *m);

/* The line for m (READY, WAIT, LIVE or DONE) with its '\n' into buf;
   returns its length, or -1 when m cannot be written (a name with a
   blank, or too long). */
int fleet_proto_format(const struct fleet_msg *m, char *buf, size_t len);

/* The controller's "go N\n" into buf; its length. */
int fleet_proto_go(long round, char *buf, size_t len);
/* A controller's line read by the host: "go N" gives N, anything else
   -1. */
long fleet_proto_parse_go(const char *line);

#endif

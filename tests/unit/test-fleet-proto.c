/*
 * The fleet's protocol lines (fleet-proto.h): each kind formatted and
 * parsed back to the same message, with its exact text; the longest
 * name; lines of another version, with negative or missing numbers,
 * extra words or names with blanks (a tab too) refused as BAD; lines
 * without the prefix are messages; names with blanks, negative figures
 * and lines the parser would refuse are not written; the controller's
 * "go N".
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "fleet/fleet-proto.h"

/* m formatted, then parsed back: the same message. */
static void
round_trip(const struct fleet_msg *m, const char *want)
{
	char line[FLEET_PROTO_LINE];
	struct fleet_msg back;
	int n = fleet_proto_format(m, line, sizeof line);

	cr_assert_gt(n, 0);
	cr_assert_eq((size_t)n, strlen(line));
	if (want != NULL)
		cr_assert_str_eq(line, want);
	line[n - 1] = '\0'; /* the parser takes the line without '\n' */
	cr_assert_eq(fleet_proto_parse(line, &back), m->kind, "%s", line);
	cr_assert_str_eq(back.host, m->host);
	cr_assert_str_eq(back.version, m->version);
	cr_assert_str_eq(back.variant, m->variant);
	cr_assert_str_eq(back.workload, m->workload);
	cr_assert_eq(back.round, m->round);
	cr_assert_float_eq(back.read_mbps, m->read_mbps, 0.0005);
	cr_assert_float_eq(back.write_mbps, m->write_mbps, 0.0005);
	cr_assert_float_eq(back.files_s, m->files_s, 0.0005);
	cr_assert_eq(back.ran, m->ran);
	cr_assert_eq(back.failed, m->failed);
}

Test(fleet_proto, ready_round_trips)
{
	struct fleet_msg m = { .kind = FLEET_MSG_READY };

	strcpy(m.host, "h2");
	strcpy(m.version, "0.1.0");
	round_trip(&m, "@fleet 1 ready h2 0.1.0\n");
}

Test(fleet_proto, wait_round_trips)
{
	struct fleet_msg m = { .kind = FLEET_MSG_WAIT, .round = 12 };

	round_trip(&m, "@fleet 1 wait 12\n");
}

Test(fleet_proto, live_round_trips_with_three_decimals)
{
	struct fleet_msg m = { .kind = FLEET_MSG_LIVE,
		.round = 2,
		.read_mbps = 0,
		.write_mbps = 45.25,
		.files_s = 11035.2 };

	strcpy(m.variant, "v-1");
	strcpy(m.workload, "small.files");
	round_trip(&m,
	    "@fleet 1 live v-1 small.files 2 0.000 45.250 11035.200\n");
}

Test(fleet_proto, done_round_trips)
{
	struct fleet_msg m = { .kind = FLEET_MSG_DONE, .ran = 4, .failed = 0 };

	round_trip(&m, "@fleet 1 done 4 0\n");
}

Test(fleet_proto, a_line_without_the_prefix_is_a_message)
{
	struct fleet_msg m;

	cr_assert_eq(fleet_proto_parse("raidlab run: note", &m),
	    FLEET_MSG_TEXT);
	cr_assert_eq(m.kind, FLEET_MSG_TEXT);
	cr_assert_eq(fleet_proto_parse("", &m), FLEET_MSG_TEXT);
	cr_assert_eq(fleet_proto_parse("@fleet", &m), FLEET_MSG_TEXT);
	cr_assert_eq(fleet_proto_parse(" @fleet 1 wait 1", &m), FLEET_MSG_TEXT);
}

/* Parameters go to the test's process as bytes: text, not pointers. */
struct bad_line {
	char line[64];
};

ParameterizedTestParameters(fleet_proto, bad_lines_are_bad)
{
	static struct bad_line lines[] = {
		{ "@fleet 2 ready h2 0.1.0" }, /* another version */
		{ "@fleet 0 wait 1" },
		{ "@fleet x wait 1" },
		{ "@fleet " },
		{ "@fleet 1" },
		{ "@fleet 1 hello 3" }, /* no such kind */
		{ "@fleet 1 ready h2" }, /* missing fields */
		{ "@fleet 1 ready" },
		{ "@fleet 1 ready h2 0.1.0 extra" },
		{ "@fleet 1 wait" },
		{ "@fleet 1 wait 0" },
		{ "@fleet 1 wait -1" },
		{ "@fleet 1 wait 1.5" },
		{ "@fleet 1 wait 1 2" },
		{ "@fleet 1 live v w 1 0.0 0.0" },
		{ "@fleet 1 live v w 1 0.0 0.0 0.0 9" },
		{ "@fleet 1 live v w 0 0.0 0.0 0.0" },
		{ "@fleet 1 live v w 1 -1.0 0.0 0.0" }, /* negative */
		{ "@fleet 1 live v w 1 0.0 nan 0.0" },
		{ "@fleet 1 live v w 1 0.0 0.0 inf" },
		{ "@fleet 1 live v w 1 0.0 0.0 1e16" },
		{ "@fleet 1 live v w 1 0,5 0.0 0.0" },
		{ "@fleet 1 live v\tx w 1 0.0 0.0 0.0" }, /* a blank in a name
							   */
		{ "@fleet 1 done 4" },
		{ "@fleet 1 done -1 0" },
		{ "@fleet 1 done 4 -2" },
		{ "@fleet 1 done 4 0 0" },
	};

	return cr_make_param_array(struct bad_line, lines,
	    sizeof lines / sizeof lines[0]);
}

ParameterizedTest(struct bad_line *b, fleet_proto, bad_lines_are_bad)
{
	struct fleet_msg m;

	cr_assert_eq(fleet_proto_parse(b->line, &m), FLEET_MSG_BAD, "%s",
	    b->line);
	cr_assert_eq(m.kind, FLEET_MSG_BAD);
}

Test(fleet_proto, names_with_blanks_are_not_written)
{
	struct fleet_msg m = { .kind = FLEET_MSG_LIVE, .round = 1 };
	char line[FLEET_PROTO_LINE];

	strcpy(m.variant, "a b");
	strcpy(m.workload, "w");
	cr_assert_eq(fleet_proto_format(&m, line, sizeof line), -1);
	strcpy(m.variant, "a");
	strcpy(m.workload, "");
	cr_assert_eq(fleet_proto_format(&m, line, sizeof line), -1);
	strcpy(m.workload, "w\n");
	cr_assert_eq(fleet_proto_format(&m, line, sizeof line), -1);
	strcpy(m.workload, "w");
	m.files_s = -1;
	cr_assert_eq(fleet_proto_format(&m, line, sizeof line), -1);
	m.files_s = 0;
	cr_assert_gt(fleet_proto_format(&m, line, sizeof line), 0);
	cr_assert_eq(fleet_proto_format(&m, line, 10), -1, "too small");

	struct fleet_msg r = { .kind = FLEET_MSG_READY };

	strcpy(r.host, "h 2");
	strcpy(r.version, "1");
	cr_assert_eq(fleet_proto_format(&r, line, sizeof line), -1);
	/* the longest name a message holds goes through */
	memset(r.host, 'x', sizeof r.host - 1);
	r.host[sizeof r.host - 1] = '\0';
	round_trip(&r, NULL);
}

Test(fleet_proto, only_lines_that_parse_back_are_written)
{
	struct fleet_msg w = { .kind = FLEET_MSG_WAIT, .round = 0 };
	struct fleet_msg d = { .kind = FLEET_MSG_DONE, .ran = -1 };
	struct fleet_msg t = { .kind = FLEET_MSG_TEXT };
	char line[FLEET_PROTO_LINE];

	cr_assert_eq(fleet_proto_format(&w, line, sizeof line), -1);
	cr_assert_eq(fleet_proto_format(&d, line, sizeof line), -1);
	cr_assert_eq(fleet_proto_format(&t, line, sizeof line), -1);
}

Test(fleet_proto, go_lines)
{
	char line[32];

	cr_assert_eq(fleet_proto_go(3, line, sizeof line), 5);
	cr_assert_str_eq(line, "go 3\n");
	cr_assert_eq(fleet_proto_go(123456, line, 4), -1);
	cr_assert_eq(fleet_proto_parse_go("go 3"), 3);
	cr_assert_eq(fleet_proto_parse_go("go 17 "), 17);
	cr_assert_eq(fleet_proto_parse_go("go 0"), -1);
	cr_assert_eq(fleet_proto_parse_go("go -1"), -1);
	cr_assert_eq(fleet_proto_parse_go("go"), -1);
	cr_assert_eq(fleet_proto_parse_go("go "), -1);
	cr_assert_eq(fleet_proto_parse_go("go 1 2"), -1);
	cr_assert_eq(fleet_proto_parse_go("go x"), -1);
	cr_assert_eq(fleet_proto_parse_go("Go 1"), -1);
	cr_assert_eq(fleet_proto_parse_go("stop"), -1);
	cr_assert_eq(fleet_proto_parse_go(""), -1);
}

/*
 * Internals of the Compose screen, shared by tui-compose.c (the screen:
 * layout, variant list, keys), tui-compose-plan.c (the plan preview),
 * tui-compose-fields.c (the variant as form fields), tui-compose-choices.c
 * (what each choice offers), tui-compose-apply.c
 * (form events applied to the model through lab-edit.h) and
 * tui-compose-pick.c (the device picker). UI thread.
 */
#ifndef RAIDLAB_TUI_COMPOSE_H
#define RAIDLAB_TUI_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>

#include "disk/disk.h"
#include "lab/lab.h"
#include "tui-form.h"
#include "tui-list.h"
#include "tui-prompt.h"

struct err;
struct errlist;
struct lab_key;
struct lab_variant;
struct tui;

/* The form's fields. */
enum cf {
	CF_NAME,
	CF_DESC,
	CF_TARGET,
	CF_DIRECTORY,
	CF_ENGINE,
	CF_LEVEL,
	CF_LEGS, /* nesting: no legs, or 2..4 */
	CF_LEG_LEVEL, /* every leg's */
	CF_LEG_CHUNK,
	CF_LEG_INFO, /* information: the shape and each leg's devices */
	CF_LAYOUT,
	CF_CHUNK,
	CF_DEVICES,
	CF_SPARES,
	CF_SCRATCH_COUNT,
	CF_SCRATCH_SIZE,
	CF_SCRATCH_DIR,
	CF_BITMAP,
	CF_BITMAP_FILE,
	CF_BITMAP_CHUNK,
	CF_MD_JOURNAL,
	/* The array's plain table keys (LAB_KEY_FORM): CF_AKEY + enum
	   lab_a_field, drawn, offered and applied from lab-schema.h. */
	CF_AKEY,
	CF_AKEY_END = CF_AKEY + LAB_A__COUNT - 1,
	CF_FSTYPE,
	CF_FSJOURNAL,
	CF_FSJOURNAL_DEV,
	CF_FSJOURNAL_LEVEL, /* the journal's own array */
	CF_FSJOURNAL_ARRAY,
	CF_FSJOURNAL_SIZE,
	CF_GEOMETRY,
	CF_GEOMETRY_AUTO, /* information: what auto computes */
	CF_STRIDE,
	CF_STRIPE_WIDTH,
	CF_SU,
	CF_SW,
	/* The filesystem's plain table keys: CF_FKEY + enum lab_f_field. */
	CF_FKEY,
	CF_FKEY_END = CF_FKEY + LAB_F__COUNT - 1,
	CF_READAHEAD,
	CF_PROBLEMS, /* information: problems no field shows */
	CF__COUNT,
};

/* A device offered by the picker and the journal choices. */
struct cand {
	char *dev; /* "scratch:2", "/dev/sdb" */
	char *about; /* "scratch disk", "8G free" */
	bool busy; /* the inventory says busy */
	char state; /* ' ', 'M' member, 'S' spare, 'J' a journal */
	bool implicit; /* a member only because no device list is given */
};

enum prompt {
	PROMPT_NONE,
	PROMPT_ADD,
	PROMPT_CLONE,
	PROMPT_RENAME,
	PROMPT_DELETE,
};

struct compose {
	struct tui_form *form;
	struct tui_list list; /* the variants, beside the form */

	char **plan; /* the preview, a line each */
	size_t nplan, plan_top;
	bool plan_more; /* the last frame left lines of the plan out */
	char *geometry; /* what auto geometry tells mkfs, or NULL */
	bool geom_ok; /* the values below are the array's */
	unsigned long long stride, stripe_width, su, sw;

	/* Layout of the body. */
	bool wide;
	int form_x, form_w, form_h, plan_y, plan_x, plan_w, plan_h;

	enum prompt prompt; /* what the open prompt is for */
	struct tui_prompt np;

	bool picking;
	struct tui_popup pick;
	struct cand *cands;
	size_t ncands;
	bool pick_changed;
	bool pick_log; /* picking the journal array's devices */
	struct disk_list disks;
	bool scanned;

	bool shown[CF__COUNT]; /* the field is in the form */
	bool *bad; /* per variant: lab_check has something to say */
	size_t nbad;
};

/* A choice list: labels shown, values applied (NULL: the default;
   CL_KEEP: leave the lab as it is). */
#define CL_MAX 96
#define CL_KEEP ""
struct clist {
	char *label[CL_MAX];
	char *value[CL_MAX];
	size_t n, cur;
};

/* tui-compose-choices.c */
/* The choices of field id for variant v, the variant's selected. */
void compose_choices(struct compose *s, const struct lab_variant *v, int id,
    struct clist *c);
void compose_clist_done(struct clist *c);
/* The variant is a directory tested as it is (not an array). */
bool compose_is_directory(const struct lab_variant *v);

/* tui-compose-fields.c */
/* The current variant's fields into the form (problems not attached). */
void compose_fields(struct compose *s, struct tui *t);
/* The field a lab_check() message names; -1 when no field shows it. */
int compose_field_of(struct compose *s, const struct tui *t, const char *field);
/* The value of choice idx of field id (NULL: the default); false when
   there is no such choice. */
bool compose_choice_value(struct compose *s, const struct lab_variant *v,
    int id, size_t idx, char **value);
/* The schema line of a table key's field (CF_AKEY + f, CF_FKEY + f),
 *group its group (LAB_V_ARRAY, LAB_V_FS); NULL for another field. */
const struct lab_key *compose_schema_key(int id, enum lab_v_field *group);
/* Forget the variant's own value of field id (back to the default). */
int compose_reset(struct tui *t, int id, struct err *e);

/* tui-compose-apply.c */
/* A new array variant gets something to start from: two 1G scratch
   disks, RAID1 (what defaults give is kept). */
void compose_starting_point(struct tui *t, size_t i);
/*
 * Apply a form event to the current variant; 0 when the model changed
 * (or nothing needed to), a negative errno with e set otherwise.
 */
int compose_apply(struct compose *s, struct tui *t, int event,
    const struct tui_form_ev *ev, struct err *e);

/* tui-compose-pick.c */
/* Device candidates: scratch disks, then the inventory's disks. */
void
compose_cands(struct compose *s, const struct lab_variant *v, bool inventory);
void compose_cands_done(struct compose *s);
/* Open the picker on the current variant: members and spares, or (log)
   the devices of the journal's own array. */
void compose_pick_open(struct compose *s, struct tui *t, bool log);
/* A key while the picker is open; true when the model changed. */
bool compose_pick_key(struct compose *s, struct tui *t, int ch);
/* A click in t->mouse while the picker is open: it selects the device
   under it, and on the selected one it stands for Space (the next mark).
   Returns the key for compose_pick_key(), 0 for none. */
int compose_pick_click(struct compose *s, const struct tui *t);

/* tui-compose-plan.c */
/* Active members of the top array, as plan and lab_check count them. */
unsigned compose_members(const struct lab_variant *v);
void compose_plan_clear(struct compose *s);
void compose_plan_add(struct compose *s, const char *line);
/* The preview of variant v, whose lab_check() messages are mine. */
void compose_plan_build(struct compose *s, const struct lab_variant *v,
    const struct errlist *mine);

/* tui-compose.c */
/* Re-check the lab, rebuild the form and the plan preview. */
void compose_refresh(struct compose *s, struct tui *t);
/* The model changed: dirty, redraw, refresh. */
void compose_changed(struct compose *s, struct tui *t);

#endif

/*
 * The template of the synthetic tree (tree.h): the directories at the top
 * of a Linux 2.6.20 tree with roughly their real file counts as weights,
 * the architectures (arch/X, include/asm-X), a few later areas that give
 * the tree the depth and the scripts of a 6.1 one (drivers/gpu/drm/amd,
 * drivers/staging, tools/testing/selftests), and the syllables of
 * generated names, as the nodes tree.c scales to the file count asked
 * for. Data and a builder; any thread.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/xalloc.h"
#include "tree-int.h"

/* An entry: path under linux/, files of its own (weight), kind, flags. */
struct tmpl {
	const char *path;
	uint16_t own;
	uint8_t kind;
	uint8_t flags;
};

/*
 * The top of a 2.6.20 tree. A parent comes before its children. The
 * architectures (arch/X, include/asm-X) are added by arch_nodes().
 */
static const struct tmpl tmpl_table[] = {
	{ "Documentation", 240, K_DOC, F_FLAT },
	{ "Documentation/DocBook", 60, K_DOC, 0 },
	{ "Documentation/filesystems", 90, K_DOC, 0 },
	{ "Documentation/networking", 80, K_DOC, 0 },
	{ "Documentation/video4linux", 60, K_DOC, F_SPLIT },
	{ "Documentation/sound", 10, K_DOC, 0 },
	{ "Documentation/sound/alsa", 60, K_DOC, 0 },
	{ "Documentation/scsi", 40, K_DOC, 0 },
	{ "Documentation/usb", 30, K_DOC, 0 },
	{ "Documentation/i2c", 25, K_DOC, 0 },
	{ "Documentation/power", 20, K_DOC, 0 },
	{ "Documentation/powerpc", 20, K_DOC, 0 },
	{ "Documentation/arm", 40, K_DOC, F_SPLIT },
	{ "Documentation/fb", 25, K_DOC, 0 },
	{ "Documentation/hwmon", 40, K_DOC, 0 },
	{ "Documentation/isdn", 25, K_DOC, 0 },
	{ "Documentation/ABI", 5, K_DOC, F_SPLIT },
	{ "Documentation/s390", 15, K_DOC, 0 },
	{ "Documentation/dvb", 12, K_DOC, 0 },
	{ "Documentation/input", 15, K_DOC, 0 },
	{ "Documentation/serial", 15, K_DOC, 0 },
	{ "arch", 0, K_ARCH, 0 },
	{ "block", 15, K_SRC, 0 },
	{ "crypto", 75, K_SRC, 0 },
	{ "drivers", 0, K_SRC, 0 },
	{ "drivers/acpi", 120, K_SRC, F_SPLIT },
	{ "drivers/ata", 80, K_SRC, 0 },
	{ "drivers/atm", 60, K_SRC, 0 },
	{ "drivers/base", 50, K_SRC, F_SPLIT },
	{ "drivers/block", 110, K_SRC, F_SPLIT },
	{ "drivers/bluetooth", 30, K_SRC, 0 },
	{ "drivers/char", 300, K_SRC, F_SPLIT },
	{ "drivers/char/agp", 25, K_SRC, 0 },
	{ "drivers/char/drm", 70, K_SRC, 0 },
	{ "drivers/char/watchdog", 90, K_SRC, 0 },
	{ "drivers/char/ipmi", 10, K_SRC, 0 },
	{ "drivers/edac", 25, K_SRC, 0 },
	{ "drivers/firmware", 10, K_SRC, 0 },
	{ "drivers/gpu", 0, K_SRC, 0 },
	{ "drivers/gpu/drm", 60, K_SRC, F_SPLIT },
	{ "drivers/gpu/drm/amd", 0, K_SRC, 0 },
	{ "drivers/gpu/drm/amd/display", 10, K_SRC, 0 },
	{ "drivers/gpu/drm/amd/display/dc", 200, K_SRC, F_DEEP },
	{ "drivers/hwmon", 120, K_SRC, F_FLAT },
	{ "drivers/i2c", 5, K_SRC, 0 },
	{ "drivers/i2c/algos", 10, K_SRC, 0 },
	{ "drivers/i2c/busses", 70, K_SRC, 0 },
	{ "drivers/i2c/chips", 25, K_SRC, 0 },
	{ "drivers/ide", 200, K_SRC, F_SPLIT },
	{ "drivers/ieee1394", 60, K_SRC, 0 },
	{ "drivers/infiniband", 230, K_SRC, F_SPLIT },
	{ "drivers/input", 40, K_SRC, 0 },
	{ "drivers/input/joystick", 50, K_SRC, F_SPLIT },
	{ "drivers/input/keyboard", 30, K_SRC, 0 },
	{ "drivers/input/mouse", 25, K_SRC, 0 },
	{ "drivers/input/serio", 25, K_SRC, 0 },
	{ "drivers/input/touchscreen", 20, K_SRC, 0 },
	{ "drivers/isdn", 450, K_SRC, F_SPLIT },
	{ "drivers/macintosh", 50, K_SRC, 0 },
	{ "drivers/md", 60, K_SRC, 0 },
	{ "drivers/media", 20, K_SRC, 0 },
	{ "drivers/media/common", 20, K_SRC, 0 },
	{ "drivers/media/dvb", 380, K_SRC, F_SPLIT },
	{ "drivers/media/radio", 30, K_SRC, 0 },
	{ "drivers/media/video", 550, K_SRC, F_SPLIT },
	{ "drivers/message", 0, K_SRC, 0 },
	{ "drivers/message/fusion", 40, K_SRC, 0 },
	{ "drivers/message/i2o", 20, K_SRC, 0 },
	{ "drivers/mmc", 25, K_SRC, 0 },
	{ "drivers/mtd", 70, K_SRC, 0 },
	{ "drivers/mtd/chips", 40, K_SRC, 0 },
	{ "drivers/mtd/maps", 110, K_SRC, 0 },
	{ "drivers/mtd/nand", 50, K_SRC, 0 },
	{ "drivers/net", 900, K_SRC, F_SPLIT },
	{ "drivers/net/wireless", 180, K_SRC, F_SPLIT },
	{ "drivers/pci", 60, K_SRC, 0 },
	{ "drivers/pci/hotplug", 50, K_SRC, 0 },
	{ "drivers/pcmcia", 60, K_SRC, 0 },
	{ "drivers/rtc", 60, K_SRC, 0 },
	{ "drivers/s390", 180, K_SRC, F_SPLIT },
	{ "drivers/sbus", 40, K_SRC, F_SPLIT },
	{ "drivers/scsi", 850, K_SRC, F_SPLIT },
	{ "drivers/scsi/aic7xxx", 60, K_SRC, F_SPLIT },
	{ "drivers/serial", 120, K_SRC, 0 },
	{ "drivers/staging", 40, K_SRC, F_SPLIT },
	{ "drivers/staging/media", 0, K_SRC, 0 },
	{ "drivers/staging/media/atomisp", 10, K_SRC, 0 },
	{ "drivers/staging/media/atomisp/pci", 200, K_SRC, F_DEEP },
	{ "drivers/usb", 20, K_SRC, 0 },
	{ "drivers/usb/core", 25, K_SRC, 0 },
	{ "drivers/usb/gadget", 60, K_SRC, 0 },
	{ "drivers/usb/host", 60, K_SRC, 0 },
	{ "drivers/usb/media", 70, K_SRC, F_SPLIT },
	{ "drivers/usb/misc", 50, K_SRC, F_SPLIT },
	{ "drivers/usb/net", 30, K_SRC, 0 },
	{ "drivers/usb/serial", 60, K_SRC, 0 },
	{ "drivers/usb/storage", 50, K_SRC, 0 },
	{ "drivers/video", 300, K_SRC, F_SPLIT },
	{ "drivers/video/console", 30, K_SRC, 0 },
	{ "drivers/video/logo", 40, K_SRC, 0 },
	{ "drivers/w1", 25, K_SRC, F_SPLIT },
	{ "fs", 80, K_SRC, F_FLAT },
	{ "fs/9p", 20, K_SRC, 0 },
	{ "fs/afs", 40, K_SRC, 0 },
	{ "fs/cifs", 60, K_SRC, 0 },
	{ "fs/coda", 20, K_SRC, 0 },
	{ "fs/dlm", 40, K_SRC, 0 },
	{ "fs/ext2", 20, K_SRC, 0 },
	{ "fs/ext3", 20, K_SRC, 0 },
	{ "fs/ext4", 25, K_SRC, 0 },
	{ "fs/fat", 10, K_SRC, 0 },
	{ "fs/gfs2", 60, K_SRC, F_SPLIT },
	{ "fs/hfsplus", 20, K_SRC, 0 },
	{ "fs/isofs", 15, K_SRC, 0 },
	{ "fs/jbd", 10, K_SRC, 0 },
	{ "fs/jffs2", 45, K_SRC, 0 },
	{ "fs/jfs", 60, K_SRC, 0 },
	{ "fs/lockd", 15, K_SRC, 0 },
	{ "fs/ncpfs", 20, K_SRC, 0 },
	{ "fs/nfs", 50, K_SRC, 0 },
	{ "fs/nfsd", 25, K_SRC, 0 },
	{ "fs/nls", 50, K_SRC, 0 },
	{ "fs/ntfs", 60, K_SRC, 0 },
	{ "fs/ocfs2", 60, K_SRC, F_SPLIT },
	{ "fs/partitions", 40, K_SRC, 0 },
	{ "fs/proc", 25, K_SRC, 0 },
	{ "fs/reiserfs", 35, K_SRC, 0 },
	{ "fs/smbfs", 20, K_SRC, 0 },
	{ "fs/udf", 30, K_SRC, 0 },
	{ "fs/xfs", 130, K_SRC, F_SPLIT },
	{ "fs/xfs/linux-2.6", 40, K_SRC, 0 },
	{ "include", 0, K_HDR, 0 },
	{ "include/acpi", 80, K_HDR, 0 },
	{ "include/asm-generic", 40, K_HDR, 0 },
	{ "include/linux", 900, K_HDR, F_FLAT },
	{ "include/linux/mtd", 40, K_HDR, 0 },
	{ "include/linux/netfilter", 40, K_HDR, 0 },
	{ "include/linux/netfilter_ipv4", 40, K_HDR, 0 },
	{ "include/linux/netfilter_ipv6", 15, K_HDR, 0 },
	{ "include/linux/raid", 15, K_HDR, 0 },
	{ "include/linux/sunrpc", 30, K_HDR, 0 },
	{ "include/linux/usb", 20, K_HDR, 0 },
	{ "include/media", 30, K_HDR, 0 },
	{ "include/net", 200, K_HDR, F_SPLIT },
	{ "include/pcmcia", 40, K_HDR, 0 },
	{ "include/rdma", 20, K_HDR, 0 },
	{ "include/scsi", 60, K_HDR, F_SPLIT },
	{ "include/sound", 100, K_HDR, 0 },
	{ "include/video", 60, K_HDR, 0 },
	{ "init", 10, K_SRC, 0 },
	{ "ipc", 12, K_SRC, 0 },
	{ "kernel", 130, K_SRC, F_FLAT },
	{ "kernel/irq", 10, K_SRC, 0 },
	{ "kernel/power", 10, K_SRC, 0 },
	{ "kernel/time", 10, K_SRC, 0 },
	{ "lib", 90, K_SRC, F_FLAT },
	{ "lib/zlib_deflate", 8, K_SRC, 0 },
	{ "lib/zlib_inflate", 10, K_SRC, 0 },
	{ "mm", 70, K_SRC, 0 },
	{ "net", 60, K_SRC, 0 },
	{ "net/bluetooth", 60, K_SRC, F_SPLIT },
	{ "net/bridge", 40, K_SRC, F_SPLIT },
	{ "net/core", 40, K_SRC, 0 },
	{ "net/dccp", 40, K_SRC, F_SPLIT },
	{ "net/decnet", 40, K_SRC, F_SPLIT },
	{ "net/ieee80211", 40, K_SRC, F_SPLIT },
	{ "net/ipv4", 100, K_SRC, 0 },
	{ "net/ipv4/netfilter", 100, K_SRC, F_FLAT },
	{ "net/ipv6", 70, K_SRC, 0 },
	{ "net/ipv6/netfilter", 30, K_SRC, 0 },
	{ "net/irda", 70, K_SRC, F_SPLIT },
	{ "net/netfilter", 80, K_SRC, 0 },
	{ "net/sched", 50, K_SRC, 0 },
	{ "net/sctp", 40, K_SRC, 0 },
	{ "net/sunrpc", 40, K_SRC, F_SPLIT },
	{ "net/tipc", 60, K_SRC, 0 },
	{ "net/xfrm", 10, K_SRC, 0 },
	{ "scripts", 40, K_SCRIPT, 0 },
	{ "scripts/basic", 5, K_SCRIPT, 0 },
	{ "scripts/genksyms", 15, K_SCRIPT, 0 },
	{ "scripts/kconfig", 45, K_SCRIPT, 0 },
	{ "scripts/kconfig/lxdialog", 15, K_SCRIPT, 0 },
	{ "scripts/mod", 10, K_SCRIPT, 0 },
	{ "security", 15, K_SRC, 0 },
	{ "security/keys", 15, K_SRC, 0 },
	{ "security/selinux", 50, K_SRC, F_SPLIT },
	{ "sound", 10, K_SRC, 0 },
	{ "sound/core", 120, K_SRC, F_SPLIT },
	{ "sound/drivers", 30, K_SRC, F_SPLIT },
	{ "sound/isa", 100, K_SRC, F_SPLIT },
	{ "sound/oss", 200, K_SRC, F_SPLIT },
	{ "sound/pci", 300, K_SRC, F_SPLIT },
	{ "sound/soc", 40, K_SRC, F_SPLIT },
	{ "sound/usb", 20, K_SRC, 0 },
	{ "tools", 10, K_SRC, 0 },
	{ "tools/perf", 120, K_SRC, F_SPLIT },
	{ "tools/testing", 0, K_SCRIPT, 0 },
	{ "tools/testing/selftests", 330, K_SCRIPT, F_SPLIT },
	{ "usr", 8, K_SRC, 0 },
};

/* Architectures: name, files under arch/NAME, generated-dir prefix. */
static const struct {
	const char *name;
	uint16_t files;
	const char *prefix;
} arch_table[] = {
	{ "alpha", 150, "" },
	{ "arm", 1000, "mach-" },
	{ "avr32", 80, "mach-" },
	{ "cris", 220, "arch-" },
	{ "frv", 100, "" },
	{ "h8300", 70, "platform-" },
	{ "i386", 300, "mach-" },
	{ "ia64", 280, "" },
	{ "m32r", 110, "" },
	{ "m68k", 230, "" },
	{ "m68knommu", 140, "platform-" },
	{ "mips", 620, "" },
	{ "parisc", 140, "" },
	{ "powerpc", 700, "platforms-" },
	{ "ppc", 450, "platforms-" },
	{ "s390", 140, "" },
	{ "sh", 380, "board-" },
	{ "sh64", 90, "mach-" },
	{ "sparc", 190, "" },
	{ "sparc64", 180, "" },
	{ "um", 230, "" },
	{ "v850", 90, "" },
	{ "x86_64", 150, "" },
	{ "xtensa", 80, "platform-" },
};

/* Syllables of generated names ("ehci-hcd", "cx88_core", "saa7134"). */
const char *const tree_stems[] = {
	"ata",
	"usb",
	"pci",
	"net",
	"dev",
	"core",
	"hw",
	"irq",
	"dma",
	"bus",
	"tx",
	"rx",
	"phy",
	"mac",
	"io",
	"mem",
	"inode",
	"file",
	"dir",
	"super",
	"lock",
	"sched",
	"timer",
	"clk",
	"gpio",
	"i2c",
	"spi",
	"uart",
	"serial",
	"tty",
	"video",
	"snd",
	"pcm",
	"mixer",
	"codec",
	"ctl",
	"eth",
	"wlan",
	"scsi",
	"sd",
	"host",
	"hcd",
	"hub",
	"ehci",
	"ohci",
	"uhci",
	"main",
	"init",
	"setup",
	"proc",
	"sys",
	"util",
	"debug",
	"trace",
	"quirks",
	"power",
	"pm",
	"mtd",
	"nand",
	"flash",
	"map",
	"cfi",
	"radeon",
	"intel",
	"amd",
	"via",
	"sis",
	"ati",
	"tulip",
	"e1000",
	"bnx2",
	"tg3",
	"sky2",
	"cx88",
	"saa7134",
	"bttv",
	"ov511",
	"pwc",
	"em28xx",
	"ivtv",
	"sym",
	"aic",
	"qla",
	"lpfc",
	"mpt",
	"fc",
	"iscsi",
	"sas",
	"raid",
	"md",
	"dm",
	"crypt",
	"hash",
	"cache",
	"page",
	"buf",
	"queue",
	"cmd",
	"ops",
	"attr",
	"mod",
	"fw",
	"rom",
	"nvram",
	"rtc",
	"wdt",
	"led",
	"kbd",
	"mouse",
	"joy",
	"fb",
	"con",
	"logo",
	"tbl",
	"reg",
	"regs",
	"probe",
	"ioctl",
	"xmit",
	"ring",
	"desc",
	"ack",
	"ether",
	"arp",
	"route",
	"sock",
	"tcp",
	"udp",
	"ip",
	"frag",
	"conntrack",
	"nat",
	"filter",
	"table",
	"match",
	"target",
	"mgmt",
	"auth",
	"assoc",
	"scan",
	"smp",
	"numa",
	"acpi",
	"apic",
	"mpparse",
	"entry",
	"signal",
	"ptrace",
	"traps",
	"time",
	"cpu",
	"topology",
	"vm",
	"mmap",
	"tlb",
	"fault",
	"swap",
	"slab",
	"aops",
	"journal",
	"xattr",
	"acl",
	"namei",
	"symlink",
	"export",
	"ialloc",
	"balloc",
	"extent",
};

const size_t tree_nstems = sizeof tree_stems / sizeof tree_stems[0];

static size_t
node_add(struct tree_nodes *tn, const char *path, uint32_t own, uint8_t kind,
    uint8_t flags, const char *prefix)
{
	struct tree_node *nd;
	const char *slash = strrchr(path, '/');
	size_t i;

	if (tn->n == tn->cap) {
		tn->cap = tn->cap ? tn->cap * 2 : 256;
		tn->v = xreallocarray(tn->v, tn->cap, sizeof *tn->v);
	}
	nd = &tn->v[tn->n];
	memset(nd, 0, sizeof *nd);
	snprintf(nd->path, sizeof nd->path, "%s", path);
	nd->own = own;
	nd->kind = kind;
	nd->flags = flags;
	nd->prefix = prefix;
	nd->parent = 0; /* the root node */
	if (slash != NULL)
		for (i = 0; i < tn->n; i++)
			if (strlen(tn->v[i].path) == (size_t)(slash - path) &&
			    strncmp(tn->v[i].path, path,
				(size_t)(slash - path)) == 0)
				nd->parent = (uint32_t)i;
	return tn->n++;
}

/* arch/NAME/{kernel,mm,lib,boot,configs} and include/asm-NAME. */
static void
arch_nodes(struct tree_nodes *tn, bool headers)
{
	static const struct {
		const char *sub;
		uint8_t pct, kind;
	} parts[] = {
		{ "boot", 5, K_ARCH },
		{ "configs", 8, K_CONF },
		{ "kernel", 40, K_ARCH },
		{ "lib", 7, K_ARCH },
		{ "mm", 8, K_ARCH },
	};
	char p[96];
	size_t i, j;

	for (i = 0; i < sizeof arch_table / sizeof arch_table[0]; i++) {
		uint32_t f = arch_table[i].files;

		if (headers) {
			snprintf(p, sizeof p, "include/asm-%s",
			    arch_table[i].name);
			node_add(tn, p, f / 2, K_HDR, F_SPLIT,
			    *arch_table[i].prefix ? "arch-" : "");
			continue;
		}
		snprintf(p, sizeof p, "arch/%s", arch_table[i].name);
		node_add(tn, p, f * 32 / 100, K_ARCH, F_SPLIT,
		    arch_table[i].prefix);
		for (j = 0; j < sizeof parts / sizeof parts[0]; j++) {
			snprintf(p, sizeof p, "arch/%s/%s", arch_table[i].name,
			    parts[j].sub);
			node_add(tn, p, f * parts[j].pct / 100, parts[j].kind,
			    0, "");
		}
	}
}

void
tree_template(struct tree_nodes *tn)
{
	size_t i;

	node_add(tn, "", 7, K_ROOT, 0, "");
	for (i = 0; i < sizeof tmpl_table / sizeof tmpl_table[0]; i++) {
		const struct tmpl *tp = &tmpl_table[i];

		node_add(tn, tp->path, tp->own, tp->kind, tp->flags, "");
		if (strcmp(tp->path, "arch") == 0)
			arch_nodes(tn, false);
		else if (strcmp(tp->path, "include") == 0)
			arch_nodes(tn, true);
	}
	tn->v[0].parent = TREE_NO_SRC;
	for (i = tn->n; i-- > 0;) {
		tn->v[i].sub += tn->v[i].own;
		if (i > 0)
			tn->v[tn->v[i].parent].sub += tn->v[i].sub;
	}
}

// qemu-insn-count.c -- a TCG plugin for qemu's user mode that counts the guest instructions a
// program executes (as callgrind's "Collected" does natively): every translated block adds its
// instruction count to one counter each time it runs (an inline add, no callback per block).
// And the distinct instructions (each address once, as callgrind's --dump-instr lists them): a
// block is translated when it is first run, so its instructions' addresses, kept in a set when
// it is translated, are the code run at least once.
// At exit it writes "insns N" and "distinct N" to qemu's log (-d plugin -D FILE). Built by
// tools/bench/instructions.sh with the host's gcc; loaded with
//   qemu-aarch64 -plugin ./qemu-insn-count.so -d plugin -D log ./program ...
//
// Debian ships qemu's plugin API but not its header, so the few declarations used are written
// out here, as qemu-plugin.h of qemu 7.2 (plugin API version 1) declares them; they are stable
// across 7.x and 8.x (the inline add was deprecated only in 9.0).
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr,
                                              uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t instructions;

// The addresses seen, an open-addressed set (0 is never an instruction's address here); grown
// at half full. A block translated again (a jump into the middle of one, a flush) adds nothing.
// Not locked: qemu's user mode translates one block at a time (under its mmap lock), and the
// translation callback is where the set is touched.
static uint64_t *seen;
static size_t capacity, distinct;

// Puts `address` into `table` (a power of two of slots); 1 when it was not there.
static int insert(uint64_t *table, size_t slots, uint64_t address) {
    size_t i = (size_t)((address >> 2) * 0x9E3779B97F4A7C15ull) & (slots - 1);
    while (table[i] && table[i] != address) i = (i + 1) & (slots - 1);
    if (table[i]) return 0;
    table[i] = address;
    return 1;
}

static int remember(uint64_t address) {
    if (2 * (distinct + 1) > capacity) {
        size_t slots = capacity ? 2 * capacity : 1 << 16;
        uint64_t *table = calloc(slots, sizeof *table);
        if (!table) return -1;
        for (size_t i = 0; i < capacity; i++)
            if (seen[i]) insert(table, slots, seen[i]);
        free(seen);
        seen = table;
        capacity = slots;
    }
    distinct += (size_t)insert(seen, capacity, address);
    return 0;
}

static int failed;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &instructions, n);
    for (size_t i = 0; i < n && !failed; i++)
        if (remember(qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i))) != 0) failed = 1;
}

static void finished(qemu_plugin_id_t id, void *userdata) {
    (void)id;
    (void)userdata;
    char line[96];
    snprintf(line, sizeof line, "insns %" PRIu64 "\n", instructions);
    qemu_plugin_outs(line);
    // No figure rather than a wrong one when the set could not grow.
    if (!failed) {
        snprintf(line, sizeof line, "distinct %zu\n", distinct);
        qemu_plugin_outs(line);
    }
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                                               int argc, char **argv) {
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_atexit_cb(id, finished, NULL);
    return 0;
}

/* fitscale — the output forms of every answer: kubectl-style tables, and JSON or YAML
 * written as a stream, for the commands (cli/) and the HTTP service (server/).
 *
 * An FsEmitter writes one structured document to a FILE as calls arrive (yajl_gen for JSON,
 * the libyaml emitter for YAML); the same calls give both formats, so an answer document
 * (render/plan.h, why.h, capacity.h, nodes.h, hpa.h, hvpa.h, simulate.h, quantity.h) is
 * described once.  An FsTable gathers rows of strings and prints them aligned, as kubectl
 * does.  Both own their memory; free them with g_autoptr.  The caller owns the FILE. */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "fitscale/model/fit.h"
#include "fitscale/model/resources.h"

G_BEGIN_DECLS

typedef enum {
  FS_OUTPUT_TABLE,
  FS_OUTPUT_WIDE,
  FS_OUTPUT_JSON,
  FS_OUTPUT_YAML,
  FS_OUTPUT_JSON_COMPACT,   /* JSON on one line (for command lines) */
} FsOutputFormat;

/* The formats -o accepts, in the order the message lists them: "wide", "json", "yaml". */
#define FS_OUTPUT_N_NAMES 3
extern const char *const fs_output_names[FS_OUTPUT_N_NAMES];
/* "", "wide", "json", "yaml" (NULL means the table); else FALSE with FS_ERROR_USAGE
 * ("-o TEXT: not an output format; give wide, json or yaml"). */
gboolean fs_output_parse (const char *text, FsOutputFormat *format, GError **error);

typedef struct FsEmitter FsEmitter;

/* FORMAT is FS_OUTPUT_JSON, FS_OUTPUT_JSON_COMPACT or FS_OUTPUT_YAML. */
FsEmitter *fs_emitter_new (FsOutputFormat format, FILE *out);
/* Flushes the document (a newline after JSON) and frees. */
void fs_emitter_free (FsEmitter *emitter);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsEmitter, fs_emitter_free)
/* A compact JSON document written into memory (answers and log lines of the service, the
 * patch of plan --apply-patch); fs_emitter_take_string ends it. */
FsEmitter *fs_emitter_new_string (void);
/* An answer's emitter (fs_emitter_new, fs_emitter_new_string) that opens every document with
 * the answer's WARNINGS (an array of FsWarning, plan/completeness.h; referenced, NULL for
 * none): a map gets "warnings": [{"reason", "message"}, ...] as its first key, a list is
 * written as {"warnings": [...], "items": [...]}.  Every command's and the service's answers
 * are written by one of these; other documents (a patch, a log line) are not. */
FsEmitter *fs_emitter_new_answer (FsOutputFormat format, FILE *out, GArray *warnings);
FsEmitter *fs_emitter_new_answer_string (GArray *warnings);
/* An answer emitter's document says, after its warnings, what it was answered on (serve):
 * "snapshot": {"resourceVersion", "ageSeconds", "metricsAgeSeconds"}; METRICS_AGE < 0 is
 * null (no PodMetrics listed). */
void fs_emitter_set_snapshot (FsEmitter *emitter, const char *resource_version, double age, double metrics_age);
/* Frees EMITTER and returns its document, without a newline at the end (caller frees). */
char *fs_emitter_take_string (FsEmitter *emitter);

void fs_emit_map_open (FsEmitter *emitter);
void fs_emit_map_close (FsEmitter *emitter);
void fs_emit_list_open (FsEmitter *emitter);
void fs_emit_list_close (FsEmitter *emitter);
void fs_emit_key (FsEmitter *emitter, const char *key);
void fs_emit_string (FsEmitter *emitter, const char *value); /* NULL emits null */
void fs_emit_int (FsEmitter *emitter, int64_t value);
void fs_emit_bool (FsEmitter *emitter, gboolean value);
void fs_emit_null (FsEmitter *emitter);
/* A JSON number written as TEXT gives it ("1.5e3"), unchanged (objects copied whole). */
void fs_emit_number (FsEmitter *emitter, const char *text);
/* A number written with DIGITS decimals ("1.2714"); null when VALUE is not finite. */
void fs_emit_decimal (FsEmitter *emitter, double value, int digits);
/* A Kubernetes resource list: {"cpu": "500m", "memory": "6Gi", ...}, zero amounts included
 * only when WITH_ZERO; pods appear only when set. */
void fs_emit_resources (FsEmitter *emitter, const FsResources *resources, gboolean with_zero);
/* A filter verdict's reasons (fit.h), as a list of strings. */
void fs_emit_reasons (FsEmitter *emitter, const FsVerdict *verdict);


typedef struct FsTable FsTable;

FsTable *fs_table_new (guint n_columns, const char *const *headers);
void fs_table_free (FsTable *table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsTable, fs_table_free)
/* Appends a row of n_columns strings (copied). */
/* Adds a row; each cell is escaped with fs_terminal_safe. */
void fs_table_add_row (FsTable *table, const char *const *cells);
/* TEXT (from the cluster: a name, an event's or a kubelet's message) made safe for a
 * terminal, as kubectl's printers escape it: ESC as "^[", CR as "\\r", other controls in
 * caret notation, invalid UTF-8 made valid.  Newly allocated. */
char *fs_terminal_safe (const char *text);
/* fs_terminal_safe for the names in a sentence: the escaped copy lives in SCRATCH (made by
 * FS_SCRATCH) until the function returns; NULL stays NULL.
 *   FS_SCRATCH (safe);
 *   fprintf (out, "Pod %s/%s ...", fs_safe (safe, pod->namespace), fs_safe (safe, pod->name)); */
const char *fs_safe (GPtrArray *scratch, const char *text);
/* fs_safe for a word of a shell command: also shell-quoted when it holds more than letters,
 * digits and ._-/:=@ (a name from a snapshot file need not be a DNS name). */
const char *fs_shell_word (GPtrArray *scratch, const char *text);
#define FS_SCRATCH(name) g_autoptr (GPtrArray) name = g_ptr_array_new_with_free_func (g_free)
/* Prints the headers and rows, columns separated by three spaces, as kubectl does. */
void fs_table_print (const FsTable *table, FILE *out);

G_END_DECLS

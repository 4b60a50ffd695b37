/* fitscale — streaming decoders: Kubernetes JSON and YAML into a snapshot builder.
 *
 * Bytes go in as they arrive (a file read in 64 KiB chunks, an HTTP body as curl hands it
 * over); objects come out into an FsSnapshotBuilder as soon as each one ends.  No document
 * tree is built: memory grows with the objects kept, not with the bytes read.  Inputs may be
 * single objects, typed lists (NodeList, PodList, ... whose items may omit kind), `v1 List`s
 * of mixed kinds, several JSON values in a row, or multi-document YAML.  Limits guard every
 * input: a string over FS_DECODE_MAX_STRING bytes, nesting deeper than FS_DECODE_MAX_DEPTH
 * or more than FS_DECODE_MAX_OBJECTS objects is an error, never a crash.  Errors name the
 * source, the object (kind/namespace/name or item index) and the field.
 *
 * FsDecoder is the event sink both front ends drive, and owns the yajl callback table the
 * JSON front end (FsJsonFeed) gives yajl; load.c reads files, large ones on a second thread. */
#pragma once

#include <glib.h>
#include <yajl/yajl_parse.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

#define FS_DECODE_MAX_STRING (4u << 20)

/* The annotations of the List `fitscale snapshot` writes: the namespace it was taken of ("":
 * every namespace; a reader then counts its pods as the whole cluster's, even when they
 * happen to be of one namespace), the API server's version and the time it was taken. */
#define FS_SNAPSHOT_SCOPE_ANNOTATION "snapshot.fitscale.io/namespace"
#define FS_SNAPSHOT_VERSION_ANNOTATION "snapshot.fitscale.io/server-version"
#define FS_SNAPSHOT_TIME_ANNOTATION "snapshot.fitscale.io/taken-at"
#define FS_DECODE_MAX_DEPTH 200
#define FS_DECODE_MAX_OBJECTS 20000000u

typedef enum {
  FS_SCALAR_NULL,
  FS_SCALAR_BOOL,   /* text "true" or "false" */
  FS_SCALAR_NUMBER, /* text as written */
  FS_SCALAR_STRING,
} FsScalarType;

typedef struct FsDecoder FsDecoder;

/* SOURCE names the input in errors (a path, "<stdin>", a URL). */
FsDecoder *fs_decoder_new (FsSnapshotBuilder *builder, const char *source);
void fs_decoder_free (FsDecoder *decoder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsDecoder, fs_decoder_free)

/* Document events.  Each returns FALSE after an error, which fs_decoder_take_error hands
 * over (with the object and field named). */
gboolean fs_decoder_map_begin (FsDecoder *decoder);
gboolean fs_decoder_map_key (FsDecoder *decoder, const char *key, gsize len);
gboolean fs_decoder_map_end (FsDecoder *decoder);
gboolean fs_decoder_list_begin (FsDecoder *decoder);
gboolean fs_decoder_list_end (FsDecoder *decoder);
gboolean fs_decoder_scalar (FsDecoder *decoder, FsScalarType type, const char *text, gsize len);
/* The callbacks for yajl (the context being DECODER), owned by the decoder and valid while it
 * lives.  yajl_alloc keeps them by reference: inside subtrees nobody reads, the decoder
 * clears the key and scalar entries so that yajl does not call them. */
const yajl_callbacks *fs_decoder_yajl_callbacks (FsDecoder *decoder);
/* Where the front end is, for messages: "byte 1234" or "line 7, column 3". */
void fs_decoder_set_position (FsDecoder *decoder, const char *position);
/* The pending error, with the source, position, object and field prefixed. */
GError *fs_decoder_take_error (FsDecoder *decoder);
/* An error the front end found (syntax), wrapped with the same context. */
GError *fs_decoder_wrap_error (FsDecoder *decoder, const char *message);
/* Whether a document is open (events since the last top-level value ended). */
gboolean fs_decoder_in_document (const FsDecoder *decoder);

/* An integer scalar as the decoders and tree readers take one: decimal digits after an
 * optional sign (a YAML plain scalar may carry '+'), from MIN to MAX; no spaces, fractions
 * or exponents (the rules of g_ascii_string_to_signed in base 10, read in place). */
gboolean fs_decode_int (const char *text, gsize len, int64_t min, int64_t max, int64_t *out);

/* ---- JSON (yajl) -------------------------------------------------------------------- */

typedef struct FsJsonFeed FsJsonFeed;

FsJsonFeed *fs_json_feed_new (FsSnapshotBuilder *builder, const char *source);
void fs_json_feed_free (FsJsonFeed *feed);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsJsonFeed, fs_json_feed_free)
gboolean fs_json_feed_bytes (FsJsonFeed *feed, const char *data, gsize len, GError **error);
/* End of input: a truncated document is an error here. */
gboolean fs_json_feed_finish (FsJsonFeed *feed, GError **error);

/* ---- YAML (libyaml) ----------------------------------------------------------------- */

/* The type a plain (unquoted) YAML scalar has for sigs.k8s.io/yaml (go-yaml v2 resolve.go):
 * writers quote a string whenever this is not FS_SCALAR_STRING. */
FsScalarType fs_yaml_resolve_plain (const char *text);

/* Decodes a whole YAML stream (every document) held in DATA. */
gboolean fs_yaml_decode (FsSnapshotBuilder *builder, const char *source, const char *data,
                         gsize len, GError **error);

/* ---- files -------------------------------------------------------------------------- */

/* Reads PATH into BUILDER: a file (JSON or YAML by its first byte), a directory (every
 * *.json, *.yaml and *.yml in it, sorted by name), or "-" for standard input. */
gboolean fs_load_path (FsSnapshotBuilder *builder, const char *path, GError **error);
/* Reads bytes in memory (JSON or YAML by the first non-blank byte). */
gboolean fs_load_bytes (FsSnapshotBuilder *builder, const char *source, const char *data,
                        gsize len, GError **error);
/* Builds a snapshot from PATHS (NULL-terminated). */
FsSnapshot *fs_load_snapshot (const char *const *paths, GError **error);

G_END_DECLS

/* fitscale — the schema: which fields of which kinds fitscale reads, as a trie of paths
 * (`metadata.labels.*`, `spec.containers[].resources.requests.*`, the pod-spec paths under
 * both `spec.` and `spec.template.spec.`, ...) whose nodes say what a scalar there is (an
 * FsField) or what a map there begins (an FsRecord, fields.h).
 *
 * Private to kube/: schema.c builds the trie once, on first use, and it is never freed;
 * decode.c walks it, one lookup per key, with the inline lookups below. */
#pragma once

#include <string.h>

#include "fields.h"

#define SCHEMA_BUCKETS 16

typedef struct SchemaNode SchemaNode;
struct SchemaNode {
  const char *key;          /* edge from the parent: a name, "*" or "[]" */
  gsize key_len;
  FsField field;            /* scalar read here */
  FsRecord record;          /* map that begins/ends a record here */
  SchemaNode *first_child;  /* named children */
  SchemaNode *next_sibling;
  SchemaNode *buckets[SCHEMA_BUCKETS]; /* the named children again, hashed for lookup */
  SchemaNode *next_in_bucket;
  SchemaNode *any;          /* "*": every key of a map */
  SchemaNode *elem;         /* "[]": every element of a list */
};

/* The trie's root: an object.  Thread-safe; built once and kept for the process's life. */
const SchemaNode *fs_schema_root (void);

static inline guint
key_bucket (const char *key, gsize len)
{
  return (guint) (len * 7 + (guchar) key[0] * 3 + (guchar) key[len - 1]) % SCHEMA_BUCKETS;
}

/* Whether A and B (LEN bytes each, LEN > 0) are equal: schema keys are short, and two
 * overlapping loads per side beat a call to memcmp. */
static inline gboolean
same_bytes (const char *a, const char *b, gsize len)
{
  if (len >= 8)
    {
      for (gsize at = 0; at + 8 < len; at += 8)
        {
          guint64 wa, wb;
          memcpy (&wa, a + at, 8);
          memcpy (&wb, b + at, 8);
          if (wa != wb)
            return FALSE;
        }
      guint64 ta, tb;
      memcpy (&ta, a + len - 8, 8);
      memcpy (&tb, b + len - 8, 8);
      return ta == tb;
    }
  if (len >= 4)
    {
      guint32 ha, hb, ta, tb;
      memcpy (&ha, a, 4);
      memcpy (&hb, b, 4);
      memcpy (&ta, a + len - 4, 4);
      memcpy (&tb, b + len - 4, 4);
      return ha == hb && ta == tb;
    }
  for (gsize at = 0; at < len; at++)
    if (a[at] != b[at])
      return FALSE;
  return TRUE;
}

static inline __attribute__ ((always_inline)) const SchemaNode *
schema_lookup (const SchemaNode *parent, const char *key, gsize len)
{
  if (len > 0)
    for (const SchemaNode *child = parent->buckets[key_bucket (key, len)]; child != NULL;
         child = child->next_in_bucket)
      if (child->key_len == len && same_bytes (child->key, key, len))
        return child;
  return parent->any;
}

static inline gboolean
schema_is_container (const SchemaNode *node)
{
  return node->first_child != NULL || node->any != NULL;
}

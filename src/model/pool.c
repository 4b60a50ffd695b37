/* fitscale — arena with interning (see include/fitscale/pool.h).
 *
 * Interned strings and blobs are found through open-addressing tables of
 * {hash, length, pointer}: one probe usually, no allocation per lookup, and the key is
 * compared in place (the caller's bytes need no NUL or copy). */
#include "config.h"

#include <string.h>
#include <sys/mman.h>

#include "fitscale/model/pool.h"

#define POOL_BLOCK_SIZE (256 * 1024)
/* Once a pool holds this much (a cluster of thousands of pods), it takes its memory in
 * 2 MiB blocks the kernel may back with transparent huge pages: a 150,000-pod snapshot
 * then takes a few dozen faults for its arena instead of about 20,000. */
#define POOL_HUGE_AFTER (8 * 1024 * 1024)
#define HUGE_PAGE_SIZE (2 * 1024 * 1024)

typedef struct {
  guint32 hash;       /* 0 = empty slot */
  guint32 len;
  const char *bytes;  /* in the arena */
} Slot;               /* 16 bytes: four to a cache line */

#define RECENT_SLOTS 4096 /* 64 KiB: stays in the CPU's cache */

typedef struct {
  Slot *slots;
  gsize mask;         /* capacity - 1, capacity a power of two */
  gsize used;
  /* A direct-mapped cache of recent entries in front of the table: a snapshot of 150,000
   * pods interns millions of strings that repeat (label keys, namespaces, node names),
   * and the table itself is too large to stay in cache. */
  Slot recent[RECENT_SLOTS];
} InternTable;

struct FsPool {
  GPtrArray *blocks;  /* owned arena blocks (g_malloc) */
  GPtrArray *huge_blocks; /* owned arena blocks (huge_alloc) */
  char *cursor;       /* next free byte in the newest block */
  gsize left;         /* bytes left in the newest block */
  gsize held_bytes;
  InternTable strings;
  InternTable blobs;
  const FsPool *parent;  /* interned first there (read-only), see fs_pool_new_child */
  guint depth;           /* parents above */
  gint ref_count;        /* fs_pool_ref; fs_pool_free drops one */
};

/* *SIZE bytes, rounded up to whole huge pages (and *SIZE with them), aligned and marked
 * for transparent huge pages (advice only: where THP is off, they are ordinary pages).
 * Free with g_aligned_free. */
static void *
huge_alloc (gsize *size)
{
  *size = (*size + HUGE_PAGE_SIZE - 1) & ~(gsize) (HUGE_PAGE_SIZE - 1);
  void *bytes = g_aligned_alloc (1, *size, HUGE_PAGE_SIZE);
#ifdef MADV_HUGEPAGE
  (void) madvise (bytes, *size, MADV_HUGEPAGE);
#endif
  return bytes;
}

/* Slot arrays of a megabyte or more (the tables of a large snapshot) on huge pages too. */
static gboolean
slots_are_huge (gsize capacity)
{
  return capacity * sizeof (Slot) >= HUGE_PAGE_SIZE / 2;
}

static Slot *
slots_new (gsize capacity)
{
  if (!slots_are_huge (capacity))
    return g_new0 (Slot, capacity);
  gsize bytes = capacity * sizeof (Slot);
  return memset (huge_alloc (&bytes), 0, capacity * sizeof (Slot));
}

static void
slots_free (Slot *slots, gsize capacity)
{
  if (slots_are_huge (capacity))
    g_aligned_free (slots);
  else
    g_free (slots);
}

static void
table_init (InternTable *table)
{
  memset (table, 0, sizeof *table);
  table->mask = 255;
  table->slots = slots_new (table->mask + 1);
}

FsPool *
fs_pool_new (void)
{
  FsPool *pool = g_new0 (FsPool, 1);
  pool->ref_count = 1;
  pool->blocks = g_ptr_array_new_with_free_func (g_free);
  pool->huge_blocks = g_ptr_array_new_with_free_func (g_aligned_free);
  table_init (&pool->strings);
  table_init (&pool->blobs);
  return pool;
}

FsPool *
fs_pool_ref (FsPool *pool)
{
  g_atomic_int_inc (&pool->ref_count);
  return pool;
}

FsPool *
fs_pool_new_child (const FsPool *parent)
{
  FsPool *pool = fs_pool_new ();
  pool->parent = parent;
  pool->depth = parent->depth + 1;
  return pool;
}

guint
fs_pool_depth (const FsPool *pool)
{
  return pool->depth;
}

void
fs_pool_free (FsPool *pool)
{
  if (pool == NULL || !g_atomic_int_dec_and_test (&pool->ref_count))
    return;
  slots_free (pool->strings.slots, pool->strings.mask + 1);
  slots_free (pool->blobs.slots, pool->blobs.mask + 1);
  g_ptr_array_unref (pool->blocks);
  g_ptr_array_unref (pool->huge_blocks);
  g_free (pool);
}

static void *
pool_take (FsPool *pool, gsize size)
{
  gsize aligned = (size + 7) & ~(gsize) 7;
  if (aligned > pool->left)
    {
      gboolean huge = pool->held_bytes >= POOL_HUGE_AFTER;
      gsize block_size = MAX (huge ? HUGE_PAGE_SIZE : POOL_BLOCK_SIZE, aligned);
      char *block;
      if (huge)
        {
          block = huge_alloc (&block_size);
          g_ptr_array_add (pool->huge_blocks, block);
        }
      else
        {
          block = g_malloc (block_size);
          g_ptr_array_add (pool->blocks, block);
        }
      pool->held_bytes += block_size;
      pool->cursor = block;
      pool->left = block_size;
    }
  void *bytes = pool->cursor;
  pool->cursor += aligned;
  pool->left -= aligned;
  return bytes;
}

void *
fs_pool_alloc (FsPool *pool, gsize size)
{
  if (size == 0)
    return NULL;
  void *bytes = pool_take (pool, size);
  memset (bytes, 0, size);
  return bytes;
}

const char *
fs_pool_strdup (FsPool *pool, const char *text, gsize len)
{
  char *copy = pool_take (pool, len + 1);
  memcpy (copy, text, len);
  copy[len] = '\0';
  return copy;
}

/* A word-at-a-time multiplicative hash, never 0 (0 marks an empty slot). */
static guint32
hash_bytes (const void *data, gsize size)
{
  const guchar *bytes = data;
  guint64 hash = 0x9E3779B97F4A7C15ull ^ size;
  gsize i = 0;
  for (; i + 8 <= size; i += 8)
    {
      guint64 word;
      memcpy (&word, bytes + i, 8);
      hash = (hash ^ word) * 0xFF51AFD7ED558CCDull;
      hash ^= hash >> 32;
    }
  for (; i < size; i++)
    hash = (hash ^ bytes[i]) * 0x100000001B3ull;
  hash ^= hash >> 29;
  hash *= 0xC4CEB9FE1A85EC53ull; /* murmur's finaliser: every output bit depends on every input */
  hash ^= hash >> 32;
  return (guint32) hash != 0 ? (guint32) hash : 1;
}

/* Tables grow at three quarters full: with linear probing over 16-byte slots a lookup still
 * stays within a cache line or two, and the blob table of a 150,000-pod snapshot is then
 * 8 MB rather than 16 MB of memory touched at random. */
static gboolean
table_full (gsize used, const InternTable *table)
{
  return used * 4 > (table->mask + 1) * 3;
}

static void
table_grow (InternTable *table)
{
  gsize old_capacity = table->mask + 1;
  Slot *old = table->slots;
  table->mask = old_capacity * 2 - 1;
  table->slots = slots_new (table->mask + 1);
  for (gsize i = 0; i < old_capacity; i++)
    {
      if (old[i].hash == 0)
        continue;
      gsize at = old[i].hash & table->mask;
      while (table->slots[at].hash != 0)
        at = (at + 1) & table->mask;
      table->slots[at] = old[i];
    }
  slots_free (old, old_capacity);
}

/* The slot holding DATA, or the empty slot where it belongs. */
static Slot *
table_find (InternTable *table, guint32 hash, const void *data, gsize len)
{
  gsize at = hash & table->mask;
  for (;;)
    {
      Slot *slot = &table->slots[at];
      if (slot->hash == 0
          || (slot->hash == hash && slot->len == len && memcmp (slot->bytes, data, len) == 0))
        return slot;
      at = (at + 1) & table->mask;
    }
}

/* An entry equal to DATA in the parents' tables (STRINGS or blobs), or NULL.  Reads only. */
static const char *
parent_find (const FsPool *pool, gboolean strings, guint32 hash, const void *data, gsize len)
{
  for (const FsPool *parent = pool->parent; parent != NULL; parent = parent->parent)
    {
      InternTable *table = (InternTable *) (strings ? &parent->strings : &parent->blobs);
      const Slot *slot = table_find (table, hash, data, len);
      if (slot->hash != 0)
        return slot->bytes;
    }
  return NULL;
}

static const char *
table_intern (FsPool *pool, InternTable *table, const void *data, gsize len, gsize extra)
{
  guint32 hash = hash_bytes (data, len);
  Slot *recent = &table->recent[(hash >> 7) & (RECENT_SLOTS - 1)];
  if (recent->hash == hash && recent->len == len && memcmp (recent->bytes, data, len) == 0)
    return recent->bytes;
  Slot *slot = table_find (table, hash, data, len);
  if (slot->hash != 0)
    {
      *recent = *slot;
      return slot->bytes;
    }
  /* what a parent holds keeps its pointer, so that equal parts stay one pointer */
  const char *inherited = pool->parent != NULL ? parent_find (pool, table == &pool->strings, hash, data, len) : NULL;
  if (inherited != NULL)
    {
      *slot = (Slot){ hash, (guint32) len, inherited };
      *recent = *slot;
      if (table_full (++table->used, table))
        table_grow (table);
      return inherited;
    }
  char *copy = pool_take (pool, len + extra);
  memcpy (copy, data, len);
  if (extra > 0)
    copy[len] = '\0';
  *slot = (Slot){ hash, (guint32) len, copy };
  *recent = *slot;
  if (table_full (++table->used, table))
    table_grow (table);
  return copy;
}

const char *
fs_pool_intern (FsPool *pool, const char *text, gsize len)
{
  return table_intern (pool, &pool->strings, text, len, 1);
}

const void *
fs_pool_intern_blob (FsPool *pool, const void *data, gsize size)
{
  if (size == 0)
    return NULL;
  return table_intern (pool, &pool->blobs, data, size, 0);
}

gsize
fs_pool_bytes (const FsPool *pool)
{
  return pool->held_bytes + sizeof *pool
         + (pool->strings.mask + 1 + pool->blobs.mask + 1) * sizeof (Slot);
}

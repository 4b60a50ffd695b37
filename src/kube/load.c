/* fitscale — reading files, directories and standard input into a snapshot builder.
 * JSON is streamed in 64 KiB chunks; YAML is read whole (it is small in practice, and
 * bounded).  A large regular file is read ahead on a second thread, in 1 MiB buffers, so
 * that the kernel's copy out of the page cache overlaps the decoding.
 * (see include/fitscale/decode.h) */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"

#define CHUNK_SIZE (64 * 1024)

typedef enum { FORMAT_EMPTY, FORMAT_JSON, FORMAT_YAML } Format;

/* JSON when the first byte that is not blank (or a UTF-8 BOM) opens an object or list. */
static Format
sniff_format (const char *data, gsize len, gboolean *decided)
{
  gsize pos = len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  while (pos < len && g_ascii_isspace (data[pos]))
    pos++;
  *decided = pos < len;
  if (pos == len)
    return FORMAT_EMPTY;
  return data[pos] == '{' || data[pos] == '[' ? FORMAT_JSON : FORMAT_YAML;
}

gboolean
fs_load_bytes (FsSnapshotBuilder *builder, const char *source, const char *data, gsize len,
               GError **error)
{
  gboolean decided;
  switch (sniff_format (data, len, &decided))
    {
    case FORMAT_JSON:
      {
        g_autoptr (FsJsonFeed) feed = fs_json_feed_new (builder, source);
        return fs_json_feed_bytes (feed, data, len, error) && fs_json_feed_finish (feed, error);
      }
    case FORMAT_YAML:
      return fs_yaml_decode (builder, source, data, len, error);
    case FORMAT_EMPTY:
    default:
      return TRUE;
    }
}

static gboolean
io_error (const char *path, const char *doing, int errsv, GError **error)
{
  g_set_error (error, FS_ERROR, FS_ERROR_IO, "%s: cannot %s: %s", path, doing,
               g_strerror (errsv));
  return FALSE;
}

/* ---- read-ahead --------------------------------------------------------------------- */

#define AHEAD_AFTER (16u << 20) /* files at least this large are read ahead */
#define AHEAD_SIZE (1u << 20)
#define AHEAD_BUFFERS 4

typedef struct {
  int fd;
  GThread *thread;
  GMutex lock;
  GCond changed;
  char *data[AHEAD_BUFFERS];
  gssize len[AHEAD_BUFFERS]; /* bytes read; 0 at the end of the file, -1 after an error */
  int errsv;                 /* the read error */
  guint filled;              /* buffers the reader has filled, ever */
  guint taken;               /* buffers the decoder has handed back, ever */
  gboolean holding;          /* the decoder holds buffer `taken` */
  gboolean quit;
} ReadAhead;

/* Fills BUFFER (SIZE bytes) unless the file ends first: the length, or -1 with errno set. */
static gssize
read_full (int fd, char *buffer, gsize size)
{
  gsize done = 0;
  while (done < size)
    {
      gssize got = read (fd, buffer + done, size - done);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return -1;
      if (got == 0)
        break;
      done += (gsize) got;
    }
  return (gssize) done;
}

static gpointer
read_ahead_run (gpointer data)
{
  ReadAhead *ahead = data;
  for (guint n = 0;; n++)
    {
      g_mutex_lock (&ahead->lock);
      while (n - ahead->taken >= AHEAD_BUFFERS && !ahead->quit)
        g_cond_wait (&ahead->changed, &ahead->lock);
      gboolean quit = ahead->quit;
      g_mutex_unlock (&ahead->lock);
      if (quit)
        return NULL;
      guint slot = n % AHEAD_BUFFERS;
      gssize got = read_full (ahead->fd, ahead->data[slot], AHEAD_SIZE);
      int errsv = errno;
      g_mutex_lock (&ahead->lock);
      ahead->len[slot] = got;
      ahead->errsv = errsv;
      ahead->filled = n + 1;
      g_cond_broadcast (&ahead->changed);
      g_mutex_unlock (&ahead->lock);
      if (got <= 0)
        return NULL;
    }
}

/* A reader thread for FD, or NULL (FD is not a large regular file, or no thread). */
static ReadAhead *
read_ahead_start (int fd)
{
  struct stat info;
  if (fstat (fd, &info) != 0 || !S_ISREG (info.st_mode) || info.st_size < (off_t) AHEAD_AFTER)
    return NULL;
  ReadAhead *ahead = g_new0 (ReadAhead, 1);
  ahead->fd = fd;
  g_mutex_init (&ahead->lock);
  g_cond_init (&ahead->changed);
  for (guint i = 0; i < AHEAD_BUFFERS; i++)
    ahead->data[i] = g_malloc (AHEAD_SIZE);
  ahead->thread = g_thread_try_new ("fitscale-read", read_ahead_run, ahead, NULL);
  if (ahead->thread != NULL)
    return ahead;
  for (guint i = 0; i < AHEAD_BUFFERS; i++)
    g_free (ahead->data[i]);
  g_mutex_clear (&ahead->lock);
  g_cond_clear (&ahead->changed);
  g_free (ahead);
  return NULL;
}

/* Hands back the buffer held and waits for the next: its length (0 at the end of the
 * file, -1 with errno set on an error) and, in *DATA, its bytes. */
static gssize
read_ahead_next (ReadAhead *ahead, const char **data)
{
  g_mutex_lock (&ahead->lock);
  if (ahead->holding)
    {
      ahead->taken++;
      ahead->holding = FALSE;
      g_cond_broadcast (&ahead->changed);
    }
  while (ahead->filled == ahead->taken)
    g_cond_wait (&ahead->changed, &ahead->lock);
  guint slot = ahead->taken % AHEAD_BUFFERS;
  gssize got = ahead->len[slot];
  int errsv = ahead->errsv;
  ahead->holding = got > 0;
  g_mutex_unlock (&ahead->lock);
  *data = ahead->data[slot];
  if (got < 0)
    errno = errsv;
  return got;
}

static void
read_ahead_free (ReadAhead *ahead)
{
  if (ahead == NULL)
    return;
  g_mutex_lock (&ahead->lock);
  ahead->quit = TRUE;
  g_cond_broadcast (&ahead->changed);
  g_mutex_unlock (&ahead->lock);
  g_thread_join (ahead->thread);
  for (guint i = 0; i < AHEAD_BUFFERS; i++)
    g_free (ahead->data[i]);
  g_mutex_clear (&ahead->lock);
  g_cond_clear (&ahead->changed);
  g_free (ahead);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ReadAhead, read_ahead_free)

/* ---- loading ------------------------------------------------------------------------ */

/* Reads FD to the end: JSON is fed as it comes, anything else is gathered for libyaml. */
static gboolean
load_fd (FsSnapshotBuilder *builder, const char *source, int fd, GError **error)
{
  g_autoptr (ReadAhead) ahead = read_ahead_start (fd);
  g_autofree char *own_chunk = ahead == NULL ? g_malloc (CHUNK_SIZE) : NULL;
  g_autoptr (GByteArray) pending = g_byte_array_new (); /* bytes before the format is known */
  g_autoptr (FsJsonFeed) feed = NULL;
  Format format = FORMAT_EMPTY;
  for (;;)
    {
      const char *chunk = own_chunk;
      gssize got = ahead != NULL ? read_ahead_next (ahead, &chunk) : read (fd, own_chunk, CHUNK_SIZE);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return io_error (source, "read", errno, error);
      if (got == 0)
        break;
      if (feed != NULL)
        {
          if (!fs_json_feed_bytes (feed, chunk, (gsize) got, error))
            return FALSE;
          continue;
        }
      g_byte_array_append (pending, (const guint8 *) chunk, (guint) got);
      if (pending->len > (256u << 20))
        return fs_yaml_decode (builder, source, (const char *) pending->data, pending->len, error);
      gboolean decided;
      format = sniff_format ((const char *) pending->data, pending->len, &decided);
      if (format == FORMAT_JSON)
        {
          feed = fs_json_feed_new (builder, source);
          if (!fs_json_feed_bytes (feed, (const char *) pending->data, pending->len, error))
            return FALSE;
          g_byte_array_set_size (pending, 0);
        }
    }
  if (feed != NULL)
    return fs_json_feed_finish (feed, error);
  if (format == FORMAT_YAML)
    return fs_yaml_decode (builder, source, (const char *) pending->data, pending->len, error);
  return TRUE;
}

static gboolean
load_file (FsSnapshotBuilder *builder, const char *path, GError **error)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return io_error (path, "open", errno, error);
  gboolean ok = load_fd (builder, path, fd, error);
  close (fd);
  return ok;
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static gboolean
load_directory (FsSnapshotBuilder *builder, const char *path, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GDir) dir = g_dir_open (path, 0, &local_error);
  if (dir == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_IO, "%s", local_error->message);
      return FALSE;
    }
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".json") || g_str_has_suffix (name, ".yaml")
        || g_str_has_suffix (name, ".yml"))
      g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    if (!load_file (builder, names->pdata[i], error))
      return FALSE;
  return TRUE;
}

gboolean
fs_load_path (FsSnapshotBuilder *builder, const char *path, GError **error)
{
  if (strcmp (path, "-") == 0)
    return load_fd (builder, "<stdin>", STDIN_FILENO, error);
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return load_directory (builder, path, error);
  return load_file (builder, path, error);
}

FsSnapshot *
fs_load_snapshot (const char *const *paths, GError **error)
{
  g_autoptr (FsSnapshotBuilder) builder = fs_snapshot_builder_new ();
  for (; paths != NULL && *paths != NULL; paths++)
    if (!fs_load_path (builder, *paths, error))
      return NULL;
  return fs_snapshot_builder_finish (g_steal_pointer (&builder), error);
}

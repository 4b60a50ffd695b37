/* fitscale — the JSON front end: yajl, whose callbacks are the FsDecoder's own
 * (fs_decoder_yajl_callbacks), fed chunk by chunk.
 * (see include/fitscale/decode.h) */
#include "config.h"

#include <string.h>
#include <yajl/yajl_parse.h>

#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"

struct FsJsonFeed {
  FsDecoder *decoder;
  yajl_handle parser;
  guint64 offset;         /* bytes handed to yajl before the current chunk */
  /* Length guard: yajl buffers a whole string (or number) before its callback.  Every token
   * longer than the limit lies between two unescaped quotes that are further apart, so it
   * is enough to know, at the end of each chunk, how many bytes have passed since the last
   * unescaped quote: one memrchr per chunk, checked before yajl sees the chunk. */
  guint64 run_start;      /* offset just after the last unescaped quote */
};

FsJsonFeed *
fs_json_feed_new (FsSnapshotBuilder *builder, const char *source)
{
  FsJsonFeed *feed = g_new0 (FsJsonFeed, 1);
  feed->decoder = fs_decoder_new (builder, source);
  feed->parser = yajl_alloc (fs_decoder_yajl_callbacks (feed->decoder), NULL, feed->decoder);
  yajl_config (feed->parser, yajl_allow_multiple_values, 1);
  return feed;
}

void
fs_json_feed_free (FsJsonFeed *feed)
{
  if (feed == NULL)
    return;
  yajl_free (feed->parser);
  fs_decoder_free (feed->decoder);
  g_free (feed);
}

/* Whether the quote at DATA[AT] is escaped: an odd run of backslashes before it.  A run
 * that reaches the chunk's start is taken as escaped, which only makes the guard stricter. */
static gboolean
quote_is_escaped (const char *data, gsize at)
{
  gsize backslashes = 0;
  while (backslashes < at && data[at - 1 - backslashes] == '\\')
    backslashes++;
  return backslashes == at ? backslashes > 0 : backslashes % 2 == 1;
}

static gboolean
guard_lengths (FsJsonFeed *feed, const char *data, gsize len, GError **error)
{
  gsize search = len;
  while (search > 0)
    {
      const char *quote = memrchr (data, '"', search);
      if (quote == NULL)
        break;
      gsize at = (gsize) (quote - data);
      if (!quote_is_escaped (data, at))
        {
          feed->run_start = feed->offset + at + 1;
          break;
        }
      search = at;
    }
  if (feed->offset + len - feed->run_start <= FS_DECODE_MAX_STRING)
    return TRUE;
  g_autofree char *position = g_strdup_printf ("byte %" G_GUINT64_FORMAT, feed->run_start);
  fs_decoder_set_position (feed->decoder, position);
  g_autofree char *message = g_strdup_printf ("a string or number longer than %u bytes",
                                              FS_DECODE_MAX_STRING);
  GError *wrapped = fs_decoder_wrap_error (feed->decoder, message);
  wrapped->code = FS_ERROR_LIMIT;
  g_propagate_error (error, wrapped);
  return FALSE;
}

static gboolean
parse_failed (FsJsonFeed *feed, const unsigned char *data, gsize len, const char *what,
              GError **error)
{
  guint64 at = feed->offset + yajl_get_bytes_consumed (feed->parser);
  g_autofree char *position = g_strdup_printf ("byte %" G_GUINT64_FORMAT, at);
  fs_decoder_set_position (feed->decoder, position);
  GError *decoder_error = fs_decoder_take_error (feed->decoder);
  if (decoder_error != NULL)
    {
      g_propagate_error (error, decoder_error);
      return FALSE;
    }
  unsigned char *yajl_message = yajl_get_error (feed->parser, 0, data, len);
  g_autofree char *message = g_strdup_printf ("%s: %s", what, g_strstrip ((char *) yajl_message));
  yajl_free_error (feed->parser, yajl_message);
  g_propagate_error (error, fs_decoder_wrap_error (feed->decoder, message));
  return FALSE;
}

#define FEED_PIECE (64 * 1024)

/* DATA goes to yajl in pieces of at most 64 KiB, each measured by the length guard first,
 * so no token yajl buffers can outgrow the limit by more than one piece. */
gboolean
fs_json_feed_bytes (FsJsonFeed *feed, const char *data, gsize len, GError **error)
{
  for (gsize done = 0; done < len;)
    {
      gsize piece = MIN (len - done, FEED_PIECE);
      const char *bytes = data + done;
      if (!guard_lengths (feed, bytes, piece, error))
        return FALSE;
      yajl_status status = yajl_parse (feed->parser, (const unsigned char *) bytes, piece);
      if (status != yajl_status_ok)
        return parse_failed (feed, (const unsigned char *) bytes, piece, "invalid JSON", error);
      feed->offset += piece;
      done += piece;
    }
  return TRUE;
}

gboolean
fs_json_feed_finish (FsJsonFeed *feed, GError **error)
{
  yajl_status status = yajl_complete_parse (feed->parser);
  if (status != yajl_status_ok)
    return parse_failed (feed, NULL, 0, "truncated input", error);
  if (fs_decoder_in_document (feed->decoder))
    {
      g_propagate_error (error, fs_decoder_wrap_error (feed->decoder, "truncated input"));
      return FALSE;
    }
  return TRUE;
}

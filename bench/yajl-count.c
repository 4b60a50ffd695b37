/* yajl-count: the baseline for the ingest benchmark.
 *
 * Reads a JSON file in 64 KiB chunks and runs yajl_parse() over it with callbacks that do
 * nothing but count.  No tree, no number conversion (the yajl_number callback receives the
 * raw text), UTF-8 validation left on as yajl does by default.  Whatever fitscale's
 * streaming decoder does costs this much plus its own work.
 *
 *   gcc -std=c11 -O2 -Wall -Wextra -Werror bench/yajl-count.c $(pkg-config --cflags --libs yajl) -o yajl-count
 *   ./yajl-count FILE          (FILE "-" reads stdin)
 *   ./yajl-count -v FILE       also print keys, maps, arrays, strings, numbers, bytes
 *
 * Prints the number of JSON values (every scalar, object and array, keys not counted).
 * Exit status 0 on a complete, valid document; 1 on a parse or I/O error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

typedef struct {
    unsigned long long nulls, bools, numbers, strings, maps, arrays, keys;
} Counts;

static int on_null(void *ctx) { ((Counts *)ctx)->nulls++; return 1; }
static int on_bool(void *ctx, int v) { (void)v; ((Counts *)ctx)->bools++; return 1; }
static int on_number(void *ctx, const char *s, size_t n) { (void)s; (void)n; ((Counts *)ctx)->numbers++; return 1; }
static int on_string(void *ctx, const unsigned char *s, size_t n) { (void)s; (void)n; ((Counts *)ctx)->strings++; return 1; }
static int on_start_map(void *ctx) { ((Counts *)ctx)->maps++; return 1; }
static int on_key(void *ctx, const unsigned char *s, size_t n) { (void)s; (void)n; ((Counts *)ctx)->keys++; return 1; }
static int on_end(void *ctx) { (void)ctx; return 1; }
static int on_start_array(void *ctx) { ((Counts *)ctx)->arrays++; return 1; }

static const yajl_callbacks callbacks = {
    .yajl_null = on_null,
    .yajl_boolean = on_bool,
    .yajl_integer = NULL,
    .yajl_double = NULL,
    .yajl_number = on_number,
    .yajl_string = on_string,
    .yajl_start_map = on_start_map,
    .yajl_map_key = on_key,
    .yajl_end_map = on_end,
    .yajl_start_array = on_start_array,
    .yajl_end_array = on_end,
};

#define CHUNK (64 * 1024)

int main(int argc, char **argv)
{
    int verbose = 0, argi = 1;
    if (argi < argc && strcmp(argv[argi], "-v") == 0) {
        verbose = 1;
        argi++;
    }
    if (argc - argi != 1) {
        fprintf(stderr, "usage: %s [-v] FILE|-\n", argv[0]);
        return 2;
    }
    const char *path = argv[argi];
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "yajl-count: %s: %s\n", path, strerror(errno));
        return 1;
    }

    Counts c = {0};
    yajl_handle h = yajl_alloc(&callbacks, NULL, &c);
    if (!h) {
        fprintf(stderr, "yajl-count: yajl_alloc failed\n");
        return 1;
    }

    static unsigned char buf[CHUNK];
    unsigned long long bytes = 0;
    int rc = 0;
    size_t n;
    yajl_status st = yajl_status_ok;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        bytes += n;
        st = yajl_parse(h, buf, n);
        if (st != yajl_status_ok)
            break;
    }
    if (ferror(f)) {
        fprintf(stderr, "yajl-count: %s: read error: %s\n", path, strerror(errno));
        rc = 1;
    } else {
        if (st == yajl_status_ok)
            st = yajl_complete_parse(h);
        if (st != yajl_status_ok) {
            unsigned char *err = yajl_get_error(h, 1, buf, n);
            fprintf(stderr, "yajl-count: %s: %s", path, (const char *)err);
            yajl_free_error(h, err);
            rc = 1;
        }
    }
    yajl_free(h);
    if (f != stdin)
        fclose(f);
    if (rc)
        return rc;

    unsigned long long values = c.nulls + c.bools + c.numbers + c.strings + c.maps + c.arrays;
    printf("%llu\n", values);
    if (verbose)
        fprintf(stderr,
                "bytes %llu  values %llu  keys %llu  maps %llu  arrays %llu  strings %llu  "
                "numbers %llu  bools %llu  nulls %llu\n",
                bytes, values, c.keys, c.maps, c.arrays, c.strings, c.numbers, c.bools, c.nulls);
    return 0;
}

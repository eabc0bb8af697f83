/* A plain C DLX: Knuth's Algorithm X on dancing links, a yardstick for bench/peers.py.

   Written for the benchmark from Knuth's description (The Art of Computer Programming,
   Volume 4B, section 7.2.2.1, and his DLX1 program's layout): items and nodes live in flat
   integer arrays; primary items are chosen by MRV (the active primary item with the fewest
   options, the first in list order on ties); secondary items are covered with the options
   that use them but never chosen, so each is covered at most once. No extra speed tricks, so
   it is the "textbook DLX" of the benchmark tables.

   Input (stdin), any number of problems one after another, all integers separated by blanks:
       primary secondary options limit
       k item item ... item        (one line per option: its length, then its items)
   Items are numbered from 0; numbers from `primary` on are secondary items. `limit` is the
   most solutions to count (0: all).

   Output (stdout), one line per problem:
       count nodes updates seconds setup_seconds
   `nodes`: search tree nodes (the root, every branch entered, dead ends and solutions
   included), the same figure pysolver's dlx engine reports; `updates`: node unlinkings, as
   Knuth counts them; `seconds`: CPU seconds of the search alone
   (clock_gettime(CLOCK_PROCESS_CPUTIME_ID)); `setup_seconds`: those of reading the problem's
   text and linking its matrix, before the search.

   Build: cc -O2 -o dlx dlx.c
*/

#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Node layout, Knuth's: node 0 is the root of the primary items' circular list (LLINK/RLINK);
   nodes 1..N are the item headers; node N+1 heads the secondary items' own circular list. The
   option nodes follow, each option preceded by a spacer (TOP <= 0) whose ULINK is the first
   node of the option before it and whose DLINK is the last node of the option after it; one
   last spacer closes the final option. Header i keeps its option count in LEN[i]. */
static int *llink, *rlink;      /* item lists, indices 0..N+1 */
static int *len;                /* per item header: options still in its column */
static int *top, *ulink, *dlink; /* per node: item (or -option for a spacer), column links */

static long long solutions, limit, nodes, updates;
static int stopped;

static void *allocate(size_t count, size_t size) {
    void *memory = calloc(count ? count : 1, size);
    if (memory == NULL) {
        fprintf(stderr, "dlx: out of memory\n");
        exit(2);
    }
    return memory;
}

/* Take option node p's option out of every column but p's own. */
static void hide(int p) {
    int q = p + 1;
    while (q != p) {
        int x = top[q], u = ulink[q], d = dlink[q];
        if (x <= 0) {
            q = u; /* the spacer after the option: go round to its first node */
        } else {
            dlink[u] = d;
            ulink[d] = u;
            len[x]--;
            updates++;
            q++;
        }
    }
}

/* Put back what hide(p) took out, in reverse order. */
static void unhide(int p) {
    int q = p - 1;
    while (q != p) {
        int x = top[q], u = ulink[q], d = dlink[q];
        if (x <= 0) {
            q = d; /* the spacer before the option: go round to its last node */
        } else {
            dlink[u] = q;
            ulink[d] = q;
            len[x]++;
            q--;
        }
    }
}

static void cover(int i) {
    for (int p = dlink[i]; p != i; p = dlink[p]) hide(p);
    int l = llink[i], r = rlink[i];
    rlink[l] = r;
    llink[r] = l;
}

static void uncover(int i) {
    int l = llink[i], r = rlink[i];
    rlink[l] = i;
    llink[r] = i;
    for (int p = ulink[i]; p != i; p = ulink[p]) unhide(p);
}

/* Algorithm X, recursively: one call is one node of the search tree. */
static void search(void) {
    nodes++;
    if (rlink[0] == 0) {
        solutions++;
        if (limit && solutions >= limit) stopped = 1;
        return;
    }
    /* MRV: the fewest options, the first on ties. */
    int best = rlink[0];
    for (int i = rlink[best]; i != 0 && len[best] > 0; i = rlink[i])
        if (len[i] < len[best]) best = i;
    if (len[best] == 0) return; /* a dead end */
    cover(best);
    for (int x = dlink[best]; x != best && !stopped; x = dlink[x]) {
        /* Cover the option's other items, left to right, wrapping past its end. */
        for (int p = x + 1; p != x;) {
            int j = top[p];
            if (j <= 0) {
                p = ulink[p];
            } else {
                cover(j);
                p++;
            }
        }
        search();
        /* Uncover them right to left. */
        for (int p = x - 1; p != x;) {
            int j = top[p];
            if (j <= 0) {
                p = dlink[p];
            } else {
                uncover(j);
                p--;
            }
        }
    }
    uncover(best);
}

static int read_int(long long *value) { return scanf("%lld", value) == 1; }

static void fail(const char *message) {
    fprintf(stderr, "dlx: %s\n", message);
    exit(2);
}

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* Read one problem, link it, search it, print its line. Returns 0 at the end of the input. */
static int solve_one(void) {
    long long primary, secondary, option_count;
    double setup_start = cpu_seconds();
    if (!read_int(&primary)) return 0;
    if (!read_int(&secondary) || !read_int(&option_count) || !read_int(&limit))
        fail("a problem header is primary secondary options limit");
    if (primary < 0 || secondary < 0 || option_count < 0 || limit < 0)
        fail("negative numbers in a problem header");
    int items = (int)(primary + secondary);
    llink = allocate((size_t)items + 2, sizeof(int));
    rlink = allocate((size_t)items + 2, sizeof(int));
    /* Item lists: primary 1..primary through root 0; secondary through header items+1. */
    for (int i = 0; i <= primary; i++) {
        rlink[i] = i == primary ? 0 : i + 1;
        llink[i] = i == 0 ? (int)primary : i - 1;
    }
    int second_root = items + 1;
    llink[second_root] = second_root;
    rlink[second_root] = second_root;
    for (int i = (int)primary + 1; i <= items; i++) {
        llink[i] = llink[second_root];
        rlink[i] = second_root;
        rlink[llink[second_root]] = i;
        llink[second_root] = i;
    }
    /* Nodes: headers and the first spacer, then options grown as they are read. */
    size_t capacity = (size_t)items + 2 + 64;
    top = allocate(capacity, sizeof(int));
    ulink = allocate(capacity, sizeof(int));
    dlink = allocate(capacity, sizeof(int));
    len = allocate((size_t)items + 2, sizeof(int));
    for (int i = 1; i <= items; i++) {
        ulink[i] = i;
        dlink[i] = i;
    }
    int spacer = items + 1; /* shares its index with second_root: different arrays */
    top[spacer] = 0;
    ulink[spacer] = 0;
    int last = spacer;
    for (long long o = 1; o <= option_count; o++) {
        long long size;
        if (!read_int(&size) || size < 1) fail("an option is its length (>= 1), then its items");
        if ((size_t)last + (size_t)size + 2 > capacity) {
            capacity = 2 * capacity + (size_t)size + 2;
            top = realloc(top, capacity * sizeof(int));
            ulink = realloc(ulink, capacity * sizeof(int));
            dlink = realloc(dlink, capacity * sizeof(int));
            if (top == NULL || ulink == NULL || dlink == NULL) fail("out of memory");
        }
        int first = last + 1;
        for (long long k = 0; k < size; k++) {
            long long item;
            if (!read_int(&item) || item < 0 || item >= items) fail("an item out of range");
            int header = (int)item + 1, node = ++last;
            for (int other = first; other < node; other++)
                if (top[other] == header) fail("an item twice in one option");
            top[node] = header;
            len[header]++;
            ulink[node] = ulink[header]; /* append at the foot of the column */
            dlink[node] = header;
            dlink[ulink[header]] = node;
            ulink[header] = node;
        }
        dlink[spacer] = last; /* the spacer before this option points to its last node */
        spacer = ++last;
        top[spacer] = (int)-o;
        ulink[spacer] = first;
    }
    dlink[spacer] = 0;

    solutions = nodes = updates = 0;
    stopped = 0;
    double start = cpu_seconds();
    search();
    double seconds = cpu_seconds() - start;
    printf("%lld %lld %lld %.9f %.9f\n", solutions, nodes, updates, seconds, start - setup_start);
    free(llink);
    free(rlink);
    free(len);
    free(top);
    free(ulink);
    free(dlink);
    return 1;
}

int main(void) {
    while (solve_one()) {
    }
    return 0;
}

/*
 * loadgen: drives a JSON-RPC server over its stdin/stdout pipes and prints
 * one JSON object with the measurements. The same client measures every
 * server, so its own cost is the same for all of them.
 *
 *   loadgen throughput [options] -- COMMAND [ARGS...]
 *       Spawns COMMAND, answers one warm-up request, waits --idle-ms, reads
 *       VmRSS/VmHWM of the server (idle), then writes -n requests as fast as
 *       the pipe takes them from this thread while a second thread reads and
 *       checks the replies. Reports requests/s from the first write to the
 *       last reply, the server's RSS right after the run and again
 *       --settle-ms later (once the burst is over), and the server's CPU
 *       time (whole process, and per thread as /proc names them).
 *   loadgen pingpong [options] -- COMMAND [ARGS...]
 *       Spawns COMMAND, then --warmup round trips, then -n measured ones:
 *       write one request, read until its whole reply arrived, repeat.
 *       Reports latency percentiles in microseconds.
 *   loadgen coldstart [options] -- COMMAND [ARGS...]
 *       -n times: spawn COMMAND, write one request, read its reply, close
 *       stdin and reap the process. The time is spawn -> whole first reply.
 *       With --floor, each run first times FLOOR's spawn -> exit (see
 *       startexit), so that what the cold start takes above that floor is
 *       measured in pairs, each pair at the same moment: measured apart (a
 *       floor at one minute, the cold starts at another), the difference of
 *       two medians moved by a millisecond with the machine's speed.
 *   loadgen startexit [options] -- COMMAND [ARGS...]
 *       -n times: spawn COMMAND with stdin at end of input and reap it. The
 *       time is spawn -> exit (the floor a cold start cannot go under, e.g.
 *       `bunting version`).
 *
 * Options:
 *   --framing ndjson|lsp   how requests are framed (default ndjson)
 *   --method NAME          default status
 *   --params JSON          default {}; the empty string leaves params out
 *   -n N                   requests / round trips / runs
 *   --warmup N             pingpong warm-up round trips (default 2000)
 *   --idle-ms MS           throughput: idle time before the idle RSS (default 200)
 *   --settle-ms MS         throughput: time after the last reply before the
 *                          settled RSS, once the burst is over (default 1500)
 *   --stderr PATH          where the server's stderr goes (default /dev/null)
 *   --floor "CMD ARGS"     coldstart: the floor command, its words separated
 *                          by spaces (e.g. "bunting version")
 *   --timeout S            give up (exit 3) after S seconds (default 120)
 *   --expect TEXT          every reply must also contain TEXT (e.g. the exact
 *                          result the server must give)
 *   --requests FILE        the params of the requests, one JSON text a line:
 *                          request id i takes line i mod (lines in FILE), so a
 *                          file of more lines than requests never repeats one
 *   --expect-file FILE     the exact result of each line of --requests, one a
 *                          line: the reply to id i must be
 *                          {"jsonrpc":"2.0","id":i,"result":<line i mod lines>}
 *
 * Every reply is checked: it must start {"jsonrpc":"2.0","id":<the request's
 * id>,"result" — replies in request order, no errors. Mismatches are counted
 * ("bad") and make the exit status 1.
 *
 * Throughput and pingpong also report the server's context switches
 * (voluntary + involuntary, summed over its threads, from
 * /proc/PID/task/TID/status) per request; pingpong reports the server's CPU
 * time per round trip over the measured round trips (from /proc/PID/stat, in
 * clock ticks).
 *
 * Build: gcc -O2 -pthread -o loadgen loadgen.c
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int lsp;
static const char *method = "status";
static const char *params = "{}";
static char **command;
/* coldstart --floor: the command whose start and exit each cold start is paired with (NULL: none). */
static char **floor_command;
static const char *stderr_path = "/dev/null";
static const char *expect;
/* --requests and --expect-file: lines of the files, cycled by request id. */
static char **request_lines, **expected_lines;
static size_t request_count, expected_count;
static size_t longest_line; /* of every file read_lines read */

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what) {
    perror(what);
    exit(2);
}

/* ---- requests ---------------------------------------------------------- */

/* Reads a file into lines (without their newlines); exits when it cannot. */
/* The words of `text`, separated by spaces, as an argv (NULL-terminated). */
static char **split_words(const char *text) {
    char *copy = strdup(text);
    size_t count = 0;
    char **words = calloc(strlen(text) / 2 + 2, sizeof *words);
    if (!copy || !words) die("split_words");
    for (char *word = strtok(copy, " "); word; word = strtok(NULL, " ")) words[count++] = word;
    if (count == 0) {
        fprintf(stderr, "loadgen: --floor needs a command\n");
        exit(2);
    }
    return words;
}

static char **read_lines(const char *path, size_t *count) {
    FILE *f = fopen(path, "rb");
    if (!f) die(path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (fread(text, 1, (size_t)size, f) != (size_t)size) die(path);
    fclose(f);
    text[size] = 0;
    size_t cap = 1024, n = 0;
    char **lines = malloc(cap * sizeof *lines);
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        if (*line) {
            if (strlen(line) > longest_line) longest_line = strlen(line);
            if (n == cap) lines = realloc(lines, (cap *= 2) * sizeof *lines);
            lines[n++] = line;
        }
        if (!nl) break;
        line = nl + 1;
    }
    if (n == 0) {
        fprintf(stderr, "loadgen: %s has no lines\n", path);
        exit(2);
    }
    *count = n;
    return lines;
}

/* Appends one framed request with `id` to buf (which has room); returns its length. */
static size_t format_request(char *buf, size_t room, long id) {
    char body[4096];
    int n;
    const char *p = request_lines ? request_lines[(size_t)id % request_count] : params;
    if (p[0])
        n = snprintf(body, sizeof body, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"%s\",\"params\":%s}", id,
                     method, p);
    else
        n = snprintf(body, sizeof body, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"%s\"}", id, method);
    if (n < 0 || (size_t)n >= sizeof body) {
        fprintf(stderr, "loadgen: request too long\n");
        exit(2);
    }
    int total;
    if (lsp)
        total = snprintf(buf, room, "Content-Length: %d\r\n\r\n%s", n, body);
    else
        total = snprintf(buf, room, "%s\n", body);
    if (total < 0 || (size_t)total >= room) {
        fprintf(stderr, "loadgen: request buffer too small\n");
        exit(2);
    }
    return (size_t)total;
}

static void write_all(int fd, const char *bytes, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, bytes, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            die("write to server");
        }
        bytes += w;
        n -= (size_t)w;
    }
}

/* ---- replies ----------------------------------------------------------- */

struct replies {
    int fd;
    char *buf;
    size_t len, cap;
    long next_id; /* the id the next reply must carry */
    long count, bad;
};

static void replies_init(struct replies *r, int fd, long first_id) {
    r->fd = fd;
    r->cap = 1 << 18;
    r->buf = malloc(r->cap);
    r->len = 0;
    r->next_id = first_id;
    r->count = r->bad = 0;
}

static void check_reply(struct replies *r, const char *body, size_t n) {
    static const char prefix[] = "{\"jsonrpc\":\"2.0\",\"id\":";
    size_t p = sizeof prefix - 1;
    int ok = n > p && memcmp(body, prefix, p) == 0;
    if (ok) {
        long id = 0;
        size_t digits = 0;
        while (p < n && body[p] >= '0' && body[p] <= '9') id = id * 10 + (body[p++] - '0'), digits++;
        ok = digits > 0 && id == r->next_id && n - p >= 9 && memcmp(body + p, ",\"result\"", 9) == 0;
        if (ok && expected_lines) {
            /* Exactly the line's result, then the envelope's closing brace. */
            const char *want = expected_lines[(size_t)id % expected_count];
            size_t w = strlen(want);
            p += 10;
            ok = n == p + w + 1 && body[p - 1] == ':' && memcmp(body + p, want, w) == 0 && body[n - 1] == '}';
        }
    }
    if (ok && expect) ok = memmem(body, n, expect, strlen(expect)) != NULL;
    if (!ok) {
        if (r->bad < 3) fprintf(stderr, "loadgen: unexpected reply (wanted id %ld): %.*s\n", r->next_id,
                                (int)(n > 300 ? 300 : n), body);
        r->bad++;
    }
    r->next_id++;
    r->count++;
}

/* Checks every complete reply in the buffer; returns how many there were. */
static long scan_replies(struct replies *r) {
    size_t pos = 0;
    long found = 0;
    while (pos < r->len) {
        if (!lsp) {
            char *nl = memchr(r->buf + pos, '\n', r->len - pos);
            if (!nl) break;
            size_t end = (size_t)(nl - r->buf);
            check_reply(r, r->buf + pos, end - pos);
            pos = end + 1;
        } else {
            char *blank = memmem(r->buf + pos, r->len - pos, "\r\n\r\n", 4);
            if (!blank) break;
            size_t body = (size_t)(blank - r->buf) + 4;
            long length = -1;
            for (size_t i = pos; i + 15 <= body; i++) {
                if ((i == pos || r->buf[i - 1] == '\n') && strncasecmp(r->buf + i, "Content-Length:", 15) == 0) {
                    length = strtol(r->buf + i + 15, NULL, 10);
                    break;
                }
            }
            if (length < 0) {
                fprintf(stderr, "loadgen: reply header without Content-Length\n");
                exit(2);
            }
            if (r->len - body < (size_t)length) break;
            check_reply(r, r->buf + body, (size_t)length);
            pos = body + (size_t)length;
        }
        found++;
    }
    memmove(r->buf, r->buf + pos, r->len - pos);
    r->len -= pos;
    return found;
}

/* Reads until at least `want` more replies arrived (or end of output: returns -1). */
static int read_replies(struct replies *r, long want) {
    long got = 0;
    while (got < want) {
        if (r->len == r->cap) {
            r->cap *= 2;
            r->buf = realloc(r->buf, r->cap);
        }
        ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) die("read from server");
        if (n == 0) return -1;
        r->len += (size_t)n;
        got += scan_replies(r);
    }
    return 0;
}

/* ---- the server process ------------------------------------------------ */

struct server {
    pid_t pid;
    int in;  /* we write its stdin */
    int out; /* we read its stdout */
};

static struct server spawn_command(char **argv) {
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) die("pipe2");
    int err = open(stderr_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (err < 0) die(stderr_path);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err, 2);
    struct server s;
    int rc = posix_spawnp(&s.pid, argv[0], &actions, NULL, argv, environ);
    if (rc) {
        errno = rc;
        die(argv[0]);
    }
    posix_spawn_file_actions_destroy(&actions);
    close(to[0]);
    close(from[1]);
    close(err);
    s.in = to[1];
    s.out = from[0];
    return s;
}

static struct server spawn_server(void) { return spawn_command(command); }

/* Closes the server's stdin and reaps it; returns its wait status. */
static int finish_server(struct server *s, struct rusage *usage) {
    close(s->in);
    char sink[65536];
    while (read(s->out, sink, sizeof sink) > 0) {}
    close(s->out);
    int status = 0;
    struct rusage ignored;
    while (wait4(s->pid, &status, 0, usage ? usage : &ignored) < 0 && errno == EINTR) {}
    return status;
}

static int exit_code(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

struct memory {
    long rss_kb, hwm_kb;
};

static struct memory read_memory(pid_t pid) {
    struct memory m = {-1, -1};
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return m;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmRSS:", 6) == 0) m.rss_kb = strtol(line + 6, NULL, 10);
        if (strncmp(line, "VmHWM:", 6) == 0) m.hwm_kb = strtol(line + 6, NULL, 10);
    }
    fclose(f);
    return m;
}

/* Writes a JSON object {"thread name": cpu seconds, ...} of the process's
 * threads (user + system time, from /proc/PID/task/TID/stat) into out. */
static void thread_cpu(pid_t pid, char *out, size_t room) {
    char path[320], comm[64], stat[1024];
    size_t used = (size_t)snprintf(out, room, "{");
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *dir = opendir(path);
    long ticks = sysconf(_SC_CLK_TCK);
    if (dir) {
        struct dirent *e;
        int first = 1;
        while ((e = readdir(dir)) && used < room) {
            if (e->d_name[0] == '.') continue;
            snprintf(path, sizeof path, "/proc/%d/task/%s/comm", (int)pid, e->d_name);
            FILE *f = fopen(path, "r");
            if (!f) continue;
            if (!fgets(comm, sizeof comm, f)) comm[0] = 0;
            fclose(f);
            comm[strcspn(comm, "\n\"\\")] = 0;
            snprintf(path, sizeof path, "/proc/%d/task/%s/stat", (int)pid, e->d_name);
            f = fopen(path, "r");
            if (!f) continue;
            size_t n = fread(stat, 1, sizeof stat - 1, f);
            fclose(f);
            stat[n] = 0;
            /* Fields after the ")" that ends the name: state is field 3, utime 14, stime 15. */
            char *p = strrchr(stat, ')');
            unsigned long utime = 0, stime = 0;
            if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
                continue;
            used += (size_t)snprintf(out + used, room - used, "%s\"%s/%s\":%.3f", first ? "" : ",", comm,
                                     e->d_name, (double)(utime + stime) / (double)ticks);
            first = 0;
        }
        closedir(dir);
    }
    if (used < room) snprintf(out + used, room - used, "}");
}

static void cpus_allowed(pid_t pid, char *out, size_t room) {
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    snprintf(out, room, "?");
    FILE *f = fopen(path, "r");
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
            char *v = line + 18;
            while (*v == ' ' || *v == '\t') v++;
            v[strcspn(v, "\n")] = 0;
            snprintf(out, room, "%.*s", (int)room - 1, v);
        }
    }
    fclose(f);
}

/* Context switches (voluntary + involuntary) of all the process's threads. */
static long context_switches(pid_t pid) {
    char path[320], line[256];
    long total = 0;
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *dir = opendir(path);
    if (!dir) return -1;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/%d/task/%s/status", (int)pid, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "voluntary_ctxt_switches:", 24) == 0) total += strtol(line + 24, NULL, 10);
            if (strncmp(line, "nonvoluntary_ctxt_switches:", 27) == 0) total += strtol(line + 27, NULL, 10);
        }
        fclose(f);
    }
    closedir(dir);
    return total;
}

/* CPU seconds (user + system, all threads) the process has used so far. */
static double cpu_seconds(pid_t pid) {
    char path[64], stat[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = 0;
    char *p = strrchr(stat, ')');
    unsigned long utime = 0, stime = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2) return -1;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

/* ---- modes ------------------------------------------------------------- */

static void one_round_trip(struct server *s, struct replies *r, long id) {
    char req[4200];
    size_t n = format_request(req, sizeof req, id);
    write_all(s->in, req, n);
    if (read_replies(r, 1) < 0) {
        fprintf(stderr, "loadgen: the server closed its output\n");
        exit(2);
    }
}

struct reader_args {
    struct replies *r;
    long want;
    uint64_t done_ns;
    int ended_early;
};

static void *reader_main(void *p) {
    struct reader_args *a = p;
    a->ended_early = read_replies(a->r, a->want) < 0;
    a->done_ns = now_ns();
    return NULL;
}

static int throughput(long n, int idle_ms, int settle_ms) {
    /* All requests are formatted up front, so the client only writes. */
    size_t room = (size_t)n * (256 + longest_line) + 4096, len = 0;
    char *all = malloc(room);
    for (long id = 1; id <= n; id++) len += format_request(all + len, room - len, id);

    struct server s = spawn_server();
    struct replies r;
    replies_init(&r, s.out, 0);
    one_round_trip(&s, &r, 0);
    usleep((useconds_t)idle_ms * 1000);
    struct memory idle = read_memory(s.pid);

    long switches0 = context_switches(s.pid);
    struct reader_args args = {&r, n, 0, 0};
    pthread_t reader;
    uint64_t start = now_ns();
    pthread_create(&reader, NULL, reader_main, &args);
    write_all(s.in, all, len);
    uint64_t written = now_ns();
    pthread_join(reader, NULL);
    struct memory after = read_memory(s.pid);
    long switches1 = context_switches(s.pid);
    /* Once the burst is over: what the server kept of it. */
    usleep((useconds_t)settle_ms * 1000);
    struct memory settled = read_memory(s.pid);
    char threads[4096];
    thread_cpu(s.pid, threads, sizeof threads);
    struct rusage usage;
    int status = finish_server(&s, &usage);

    double seconds = (double)(args.done_ns - start) / 1e9;
    double cpu = (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec +
                 usage.ru_stime.tv_usec / 1e6;
    long bad = r.bad + (args.ended_early ? 1 : 0) + (r.count != n + 1);
    printf("{\"mode\":\"throughput\",\"framing\":\"%s\",\"requests\":%ld,\"replies\":%ld,\"bad\":%ld,"
           "\"seconds\":%.6f,\"write_seconds\":%.6f,\"rps\":%.1f,"
           "\"rss_idle_kb\":%ld,\"hwm_idle_kb\":%ld,\"rss_after_kb\":%ld,\"hwm_after_kb\":%ld,\"rss_settled_kb\":%ld,"
           "\"server_cpu_seconds\":%.4f,\"server_cpu_us_per_request\":%.3f,"
           "\"server_user_seconds\":%.4f,\"server_sys_seconds\":%.4f,\"server_thread_cpu_seconds\":%s,"
           "\"server_switches_per_request\":%.3f,\"exit_status\":%d}\n",
           lsp ? "lsp" : "ndjson", n, r.count - 1, bad, seconds, (double)(written - start) / 1e9, n / seconds,
           idle.rss_kb, idle.hwm_kb, after.rss_kb, after.hwm_kb, settled.rss_kb, cpu, cpu / n * 1e6,
           (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6,
           (double)usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6, threads,
           (double)(switches1 - switches0) / (double)n, exit_code(status));
    free(all);
    return bad || exit_code(status) ? 1 : 0;
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int compare_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted values. */
static double percentile(const uint64_t *sorted, long n, double q) {
    long rank = (long)ceil(q * (double)n);
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return (double)sorted[rank - 1];
}

static int pingpong(long n, long warmup) {
    uint64_t *lat = malloc(sizeof *lat * (size_t)n);
    struct server s = spawn_server();
    char client_cpus[256], server_cpus[256];
    cpus_allowed(getpid(), client_cpus, sizeof client_cpus);
    cpus_allowed(s.pid, server_cpus, sizeof server_cpus);
    struct replies r;
    replies_init(&r, s.out, 1);
    char req[4200];
    long switches0 = 0;
    double cpu0 = 0;
    for (long id = 1; id <= warmup + n; id++) {
        if (id == warmup + 1) {
            switches0 = context_switches(s.pid);
            cpu0 = cpu_seconds(s.pid);
        }
        size_t len = format_request(req, sizeof req, id);
        uint64_t t0 = now_ns();
        write_all(s.in, req, len);
        if (read_replies(&r, 1) < 0) {
            fprintf(stderr, "loadgen: the server closed its output\n");
            exit(2);
        }
        uint64_t t1 = now_ns();
        if (id > warmup) lat[id - warmup - 1] = t1 - t0;
    }
    long switches1 = context_switches(s.pid);
    double cpu1 = cpu_seconds(s.pid);
    int status = finish_server(&s, NULL);
    double sum = 0;
    for (long i = 0; i < n; i++) sum += (double)lat[i];
    qsort(lat, (size_t)n, sizeof *lat, compare_u64);
    printf("{\"mode\":\"pingpong\",\"framing\":\"%s\",\"round_trips\":%ld,\"warmup\":%ld,\"bad\":%ld,"
           "\"client_cpus\":\"%s\",\"server_cpus\":\"%s\","
           "\"mean_us\":%.2f,\"p50_us\":%.2f,\"p90_us\":%.2f,\"p99_us\":%.2f,\"p999_us\":%.2f,\"max_us\":%.2f,"
           "\"server_cpu_us_per_round_trip\":%.3f,\"server_switches_per_round_trip\":%.3f,\"exit_status\":%d}\n",
           lsp ? "lsp" : "ndjson", n, warmup, r.bad, client_cpus, server_cpus, sum / n / 1e3,
           percentile(lat, n, 0.50) / 1e3, percentile(lat, n, 0.90) / 1e3, percentile(lat, n, 0.99) / 1e3,
           percentile(lat, n, 0.999) / 1e3, (double)lat[n - 1] / 1e3, (cpu1 - cpu0) / (double)n * 1e6,
           (double)(switches1 - switches0) / (double)n, exit_code(status));
    free(lat);
    return r.bad || exit_code(status) ? 1 : 0;
}

static int coldstart(long runs) {
    uint64_t *t = malloc(sizeof *t * (size_t)runs);
    /* With a floor: its start and exit before each run, and each run's time above it. */
    uint64_t *floor_t = malloc(sizeof *floor_t * (size_t)runs);
    int64_t *above = malloc(sizeof *above * (size_t)runs);
    long bad = 0;
    int failed_exit = 0;
    char req[4200];
    size_t len = format_request(req, sizeof req, 1);
    for (long i = 0; i < runs; i++) {
        if (floor_command) {
            uint64_t f0 = now_ns();
            struct server f = spawn_command(floor_command);
            int status = finish_server(&f, NULL);
            floor_t[i] = now_ns() - f0;
            if (exit_code(status)) failed_exit = exit_code(status);
        }
        uint64_t t0 = now_ns();
        struct server s = spawn_server();
        write_all(s.in, req, len);
        struct replies r;
        replies_init(&r, s.out, 1);
        if (read_replies(&r, 1) < 0) {
            fprintf(stderr, "loadgen: the server closed its output before replying\n");
            exit(2);
        }
        t[i] = now_ns() - t0;
        if (floor_command) above[i] = (int64_t)t[i] - (int64_t)floor_t[i];
        bad += r.bad;
        int status = finish_server(&s, NULL);
        if (exit_code(status)) failed_exit = exit_code(status);
        free(r.buf);
    }
    char floor_fields[160] = "";
    if (floor_command) {
        qsort(floor_t, (size_t)runs, sizeof *floor_t, compare_u64);
        qsort(above, (size_t)runs, sizeof *above, compare_i64);
        snprintf(floor_fields, sizeof floor_fields, ",\"floor_median_ms\":%.3f,\"above_floor_median_ms\":%.3f",
                 percentile(floor_t, runs, 0.5) / 1e6, (double)above[(runs - 1) / 2] / 1e6);
    }
    qsort(t, (size_t)runs, sizeof *t, compare_u64);
    printf("{\"mode\":\"coldstart\",\"framing\":\"%s\",\"runs\":%ld,\"bad\":%ld,"
           "\"median_ms\":%.3f,\"p90_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f%s,\"exit_status\":%d}\n",
           lsp ? "lsp" : "ndjson", runs, bad, percentile(t, runs, 0.5) / 1e6, percentile(t, runs, 0.9) / 1e6,
           (double)t[0] / 1e6, (double)t[runs - 1] / 1e6, floor_fields, failed_exit);
    free(t);
    free(floor_t);
    free(above);
    return bad || failed_exit ? 1 : 0;
}

static int startexit(long runs) {
    uint64_t *t = malloc(sizeof *t * (size_t)runs);
    int failed_exit = 0;
    for (long i = 0; i < runs; i++) {
        uint64_t t0 = now_ns();
        struct server s = spawn_server();
        int status = finish_server(&s, NULL);
        t[i] = now_ns() - t0;
        if (exit_code(status)) failed_exit = exit_code(status);
    }
    qsort(t, (size_t)runs, sizeof *t, compare_u64);
    printf("{\"mode\":\"startexit\",\"framing\":\"%s\",\"runs\":%ld,\"bad\":0,"
           "\"median_ms\":%.3f,\"p90_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f,\"exit_status\":%d}\n",
           lsp ? "lsp" : "ndjson", runs, percentile(t, runs, 0.5) / 1e6, percentile(t, runs, 0.9) / 1e6,
           (double)t[0] / 1e6, (double)t[runs - 1] / 1e6, failed_exit);
    free(t);
    return failed_exit ? 1 : 0;
}

static void on_alarm(int sig) {
    (void)sig;
    static const char msg[] = "loadgen: timed out\n";
    if (write(2, msg, sizeof msg - 1)) {}
    _exit(3);
}

static void usage(void) {
    fprintf(stderr, "usage: loadgen throughput|pingpong|coldstart|startexit [--framing ndjson|lsp] [--method M] "
                    "[--params JSON] [-n N] [--warmup N] [--idle-ms MS] [--settle-ms MS] [--stderr PATH] [--timeout S] "
                    "[--expect TEXT] [--requests FILE [--expect-file FILE]] [--floor \"CMD ARGS\"] -- COMMAND [ARGS...]\n");
    exit(2);
}

int main(int argc, char **argv) {
    if (argc < 2) usage();
    const char *mode = argv[1];
    long n = -1, warmup = 2000;
    int idle_ms = 200, settle_ms = 1500, timeout = 120;
    int i;
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (i + 1 >= argc) usage();
        const char *v = argv[++i];
        if (strcmp(a, "--framing") == 0) {
            if (strcmp(v, "lsp") == 0) lsp = 1;
            else if (strcmp(v, "ndjson") == 0) lsp = 0;
            else usage();
        } else if (strcmp(a, "--method") == 0) method = v;
        else if (strcmp(a, "--params") == 0) params = v;
        else if (strcmp(a, "-n") == 0) n = atol(v);
        else if (strcmp(a, "--warmup") == 0) warmup = atol(v);
        else if (strcmp(a, "--idle-ms") == 0) idle_ms = atoi(v);
        else if (strcmp(a, "--settle-ms") == 0) settle_ms = atoi(v);
        else if (strcmp(a, "--stderr") == 0) stderr_path = v;
        else if (strcmp(a, "--timeout") == 0) timeout = atoi(v);
        else if (strcmp(a, "--expect") == 0) expect = v;
        else if (strcmp(a, "--floor") == 0) floor_command = split_words(v);
        else if (strcmp(a, "--requests") == 0) request_lines = read_lines(v, &request_count);
        else if (strcmp(a, "--expect-file") == 0) expected_lines = read_lines(v, &expected_count);
        else usage();
    }
    if (i >= argc) usage();
    if (expected_lines && (!request_lines || expected_count != request_count)) {
        fprintf(stderr, "loadgen: --expect-file needs --requests with as many lines\n");
        exit(2);
    }
    command = argv + i;
    signal(SIGPIPE, SIG_IGN);
    signal(SIGALRM, on_alarm);
    alarm((unsigned)timeout);
    if (strcmp(mode, "throughput") == 0) return throughput(n > 0 ? n : 200000, idle_ms, settle_ms);
    if (strcmp(mode, "pingpong") == 0) return pingpong(n > 0 ? n : 20000, warmup);
    if (strcmp(mode, "coldstart") == 0) return coldstart(n > 0 ? n : 50);
    if (strcmp(mode, "startexit") == 0) return startexit(n > 0 ? n : 50);
    usage();
    return 2;
}

/*
 * baseline: the bare C JSON-RPC 2.0 server that Bunting's transport is
 * measured against. It is what a C programmer would write in an afternoon:
 * read() stdin into a buffer, cut it into messages, parse each with jansson,
 * build the reply with jansson, dump it compact, write it to stdout.
 *
 * Framing: newline-delimited JSON by default, LSP (Content-Length headers)
 * with --lsp.
 *
 * Methods: evaluateFlag, given --flags FILE (a JSON object of flag key ->
 * result, which the benchmark fills with the results Bunting gave for the
 * same requests), looks the flag up by params.flagKey and answers with that
 * result: the reply has the same bytes as Bunting's (the benchmark checks
 * it), and the work is what any server does around an evaluation: parse,
 * find the method and the flag, build and dump the reply. An unknown flag
 * gets flagd's FLAG_NOT_FOUND result. With --answers FILE (a JSON object
 * {"results": [result, ...], "answers": {"<flagKey> <targetingKey>": index}},
 * which the benchmark fills with Bunting's results for its generated
 * requests, each a context of its own), evaluateFlag looks the result up by
 * the flag key and the context's targeting key instead: the work of a server
 * that answers each context from a table (parse, find the method, the flag
 * and the context's answer, build and dump the reply), with the bytes of
 * Bunting's reply. Every other method is answered with
 * the fixed result given with --result JSON. Without --result, status
 * answers {"version","framing","uptime"} and other methods -32601 method not
 * found.
 * A message that does not parse gets -32700 with "id":null; a notification
 * (no "id") gets no reply.
 *
 * Flushing: replies are appended to an output buffer, and the buffer is
 * written to stdout with write(2) whenever every complete message of the last
 * read(2) has been answered, that is, just before the program would block
 * waiting for more input. So a reply never waits for the next request
 * (ping-pong works), and a pipelined burst is answered with one write per read
 * instead of one per reply. This is the usual "flush before you block" loop;
 * Bunting's writer thread batches the same way (it writes whatever piled up
 * while it was writing). With --flush-each, every reply is written by itself
 * (one write(2) per reply, as printf + fflush would do): the benchmark shows
 * that variant as a reference point, not as the baseline.
 *
 * Build: gcc -O2 -o baseline baseline.c -ljansson
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int lsp;
static int flush_each;
static double started;
static json_t *fixed_result;
static json_t *flag_results; /* flag key -> evaluateFlag result */
static json_t *answer_results; /* --answers: the distinct results */
static json_t *answer_index;   /* --answers: "<flagKey> <targetingKey>" -> index in answer_results */

static char *out;
static size_t out_len, out_cap;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void out_reserve(size_t more) {
    if (out_len + more <= out_cap) return;
    size_t cap = out_cap ? out_cap : 1 << 16;
    while (cap < out_len + more) cap *= 2;
    out = realloc(out, cap);
    if (!out) { perror("realloc"); exit(1); }
    out_cap = cap;
}

static void out_append(const char *bytes, size_t n) {
    out_reserve(n);
    memcpy(out + out_len, bytes, n);
    out_len += n;
}

static void flush_out(void) {
    size_t off = 0;
    while (off < out_len) {
        ssize_t w = write(1, out + off, out_len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            exit(0); /* the client went away */
        }
        off += (size_t)w;
    }
    out_len = 0;
}

/* Frames and queues one reply; takes the reference to `reply`. */
static void flush_out(void);

static void send_reply(json_t *reply) {
    char *body = json_dumps(reply, JSON_COMPACT);
    json_decref(reply);
    if (!body) return;
    size_t n = strlen(body);
    if (lsp) {
        char header[64];
        int h = snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", n);
        out_append(header, (size_t)h);
        out_append(body, n);
    } else {
        out_append(body, n);
        out_append("\n", 1);
    }
    free(body);
    if (flush_each) flush_out();
}

static void send_error(json_t *id, int code, const char *message) {
    send_reply(json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                         "error", "code", code, "message", message));
}

static void handle_message(const char *bytes, size_t n) {
    json_error_t error;
    json_t *request = json_loadb(bytes, n, 0, &error);
    if (!request) {
        send_error(NULL, -32700, "Parse error");
        return;
    }
    json_t *id = json_object_get(request, "id");
    const char *method = json_string_value(json_object_get(request, "method"));
    if (!json_is_object(request) || !method) {
        send_error(id, -32600, "Invalid Request");
    } else if (id) {
        json_t *result;
        if (answer_index && strcmp(method, "evaluateFlag") == 0) {
            json_t *params = json_object_get(request, "params");
            const char *key = json_string_value(json_object_get(params, "flagKey"));
            const char *user = json_string_value(json_object_get(json_object_get(params, "context"), "targetingKey"));
            char both[512];
            result = NULL;
            if (key && user && (size_t)snprintf(both, sizeof both, "%s %s", key, user) < sizeof both)
                result = json_array_get(answer_results,
                                        (size_t)json_integer_value(json_object_get(answer_index, both)));
            result = result ? json_incref(result)
                            : json_pack("{s:n, s:n, s:s, s:s}", "value", "variant", "reason", "ERROR", "errorCode",
                                        "FLAG_NOT_FOUND");
        } else if (flag_results && strcmp(method, "evaluateFlag") == 0) {
            const char *key = json_string_value(json_object_get(json_object_get(request, "params"), "flagKey"));
            result = key ? json_object_get(flag_results, key) : NULL;
            result = result ? json_incref(result)
                            : json_pack("{s:n, s:n, s:s, s:s}", "value", "variant", "reason", "ERROR", "errorCode",
                                        "FLAG_NOT_FOUND");
        } else if (fixed_result) {
            result = json_incref(fixed_result);
        } else if (strcmp(method, "status") == 0) {
            result = json_pack("{s:s, s:s, s:f}", "version", "0.1.0", "framing", lsp ? "lsp" : "ndjson",
                               "uptime", now_seconds() - started);
        } else {
            result = NULL;
        }
        if (result) {
            send_reply(json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id, "result", result));
        } else {
            send_error(id, -32601, "Method not found");
        }
    }
    json_decref(request);
}

/* Answers every complete message in buf[0..len); returns the bytes consumed. */
static size_t handle_buffer(const char *buf, size_t len) {
    size_t pos = 0;
    while (pos < len) {
        if (!lsp) {
            const char *nl = memchr(buf + pos, '\n', len - pos);
            if (!nl) break;
            size_t end = (size_t)(nl - buf);
            size_t line_end = end;
            if (line_end > pos && buf[line_end - 1] == '\r') line_end--;
            if (line_end > pos) handle_message(buf + pos, line_end - pos);
            pos = end + 1;
        } else {
            /* Headers up to a blank line; only Content-Length matters. */
            const char *blank = memmem(buf + pos, len - pos, "\r\n\r\n", 4);
            if (!blank) break;
            size_t body = (size_t)(blank - buf) + 4;
            long length = -1;
            for (size_t i = pos; i + 15 <= body; i++) {
                if ((i == pos || buf[i - 1] == '\n') && strncasecmp(buf + i, "Content-Length:", 15) == 0) {
                    length = strtol(buf + i + 15, NULL, 10);
                    break;
                }
            }
            if (length < 0) {
                send_error(NULL, -32700, "missing Content-Length");
                pos = body;
                continue;
            }
            if (len - body < (size_t)length) break;
            handle_message(buf + body, (size_t)length);
            pos = body + (size_t)length;
        }
    }
    return pos;
}

int main(int argc, char **argv) {
    started = now_seconds();
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--lsp") == 0) {
            lsp = 1;
        } else if (strcmp(argv[i], "--flush-each") == 0) {
            flush_each = 1;
        } else if (strcmp(argv[i], "--result") == 0 && i + 1 < argc) {
            json_error_t error;
            fixed_result = json_loads(argv[++i], JSON_DECODE_ANY, &error);
            if (!fixed_result) {
                fprintf(stderr, "baseline: --result: %s\n", error.text);
                return 2;
            }
        } else if (strcmp(argv[i], "--flags") == 0 && i + 1 < argc) {
            json_error_t error;
            flag_results = json_load_file(argv[++i], 0, &error);
            if (!json_is_object(flag_results)) {
                fprintf(stderr, "baseline: --flags: %s\n", flag_results ? "not an object" : error.text);
                return 2;
            }
        } else if (strcmp(argv[i], "--answers") == 0 && i + 1 < argc) {
            json_error_t error;
            json_t *answers = json_load_file(argv[++i], 0, &error);
            answer_results = json_object_get(answers, "results");
            answer_index = json_object_get(answers, "answers");
            if (!json_is_array(answer_results) || !json_is_object(answer_index)) {
                fprintf(stderr, "baseline: --answers: %s\n", answers ? "not {results, answers}" : error.text);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: baseline [--lsp] [--flush-each] [--result JSON] [--flags FILE] [--answers FILE]\n");
            return 2;
        }
    }

    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        ssize_t n = read(0, buf + len, cap - len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        len += (size_t)n;
        size_t used = handle_buffer(buf, len);
        memmove(buf, buf + used, len - used);
        len -= used;
        flush_out(); /* before blocking in read() again */
    }
    if (!lsp && len > 0) handle_message(buf, len); /* a last line without newline */
    flush_out();
    return 0;
}

/* counters_known.c - the well-known providers and counters of `clrattach counters list`.
 *
 * System.Runtime's EventCounters and its .NET 9+ Meter instruments (names, units, kinds) are
 * as the runtime published them in sessions on 8.0.31, 9.0.20 and 10.0.14; the others are from
 * the .NET documentation of well-known counters and built-in metrics. Every description is
 * written here. A counter whose units are "" is a count.
 */
#include "counters/counters_known.h"

#include <string.h>

static const known_counter_t runtime_counters[] = {
    {"cpu-usage", "%", "Metric", 0, "CPU time the process used in the interval, as a share of all the machine's CPUs (0-100)"},
    {"working-set", "MB", "Metric", 0, "physical memory mapped into the process"},
    {"gc-heap-size", "MB", "Metric", 0, "bytes the GC thinks are allocated on the managed heap"},
    {"gen-0-gc-count", "", "Rate", 0, "generation 0 collections in the interval"},
    {"gen-1-gc-count", "", "Rate", 0, "generation 1 collections in the interval"},
    {"gen-2-gc-count", "", "Rate", 0, "generation 2 (full) collections in the interval"},
    {"gen-0-gc-budget", "MB", "Metric", 7, "how much may be allocated before the next generation 0 collection"},
    {"threadpool-thread-count", "", "Metric", 0, "thread pool threads that exist now"},
    {"monitor-lock-contention-count", "", "Rate", 0, "times a thread waited to take a Monitor lock in the interval"},
    {"threadpool-queue-length", "", "Metric", 0, "work items queued to the thread pool and not started yet"},
    {"threadpool-completed-items-count", "", "Rate", 0, "work items the thread pool finished in the interval"},
    {"alloc-rate", "B", "Rate", 0, "bytes allocated on the managed heap in the interval"},
    {"active-timer-count", "", "Metric", 0, "timers that are set and will fire"},
    {"gc-fragmentation", "%", "Metric", 0, "free space inside the managed heap as a share of it, at the last collection"},
    {"gc-committed", "MB", "Metric", 6, "memory the GC has committed from the OS"},
    {"exception-count", "", "Rate", 0, "exceptions thrown in the interval (first chance)"},
    {"time-in-gc", "%", "Metric", 0, "share of the time between the last two collections spent paused in the GC"},
    {"total-pause-time-by-gc", "ms", "Rate", 7, "time the GC kept managed threads paused in the interval"},
    {"gen-0-size", "B", "Metric", 0, "size of generation 0 at the last collection"},
    {"gen-1-size", "B", "Metric", 0, "size of generation 1 at the last collection"},
    {"gen-2-size", "B", "Metric", 0, "size of generation 2 at the last collection"},
    {"loh-size", "B", "Metric", 0, "size of the large object heap at the last collection"},
    {"poh-size", "B", "Metric", 5, "size of the pinned object heap at the last collection"},
    {"assembly-count", "", "Metric", 0, "assemblies loaded now"},
    {"il-bytes-jitted", "B", "Metric", 6, "bytes of IL the JIT compiled since the process started"},
    {"methods-jitted-count", "", "Metric", 6, "methods the JIT compiled since the process started"},
    {"time-in-jit", "ms", "Rate", 6, "time spent JIT-compiling in the interval"},
    {NULL, NULL, NULL, 0, NULL},
};

static const known_counter_t runtime_meter[] = {
    {"dotnet.gc.collections", "{collection}", "Rate", 9, "garbage collections (tag gc.heap.generation)"},
    {"dotnet.process.memory.working_set", "By", "Metric", 9, "physical memory mapped into the process"},
    {"dotnet.gc.heap.total_allocated", "By", "Rate", 9, "bytes allocated on the managed heap"},
    {"dotnet.gc.last_collection.memory.committed_size", "By", "Metric", 9, "memory the GC had committed at the last collection"},
    {"dotnet.gc.last_collection.heap.size", "By", "Metric", 9, "managed heap size per generation at the last collection, free space included"},
    {"dotnet.gc.last_collection.heap.fragmentation.size", "By", "Metric", 9, "free space in the managed heap per generation at the last collection"},
    {"dotnet.gc.pause.time", "s", "Rate", 9, "time the GC kept managed threads paused"},
    {"dotnet.jit.compiled_il.size", "By", "Rate", 9, "bytes of IL the JIT compiled"},
    {"dotnet.jit.compiled_methods", "{method}", "Rate", 9, "methods the JIT compiled (recompilations included)"},
    {"dotnet.jit.compilation.time", "s", "Rate", 9, "time spent JIT-compiling"},
    {"dotnet.monitor.lock_contentions", "{contention}", "Rate", 9, "times a thread waited to take a Monitor lock"},
    {"dotnet.thread_pool.thread.count", "{thread}", "Rate", 9, "thread pool threads that exist now"},
    {"dotnet.thread_pool.work_item.count", "{work_item}", "Rate", 9, "work items the thread pool finished"},
    {"dotnet.thread_pool.queue.length", "{work_item}", "Rate", 9, "work items queued to the thread pool and not started yet"},
    {"dotnet.timer.count", "{timer}", "Metric", 9, "timers that are set and will fire"},
    {"dotnet.assembly.count", "{assembly}", "Metric", 9, "assemblies loaded now"},
    {"dotnet.exceptions", "{exception}", "Rate", 9, "exceptions thrown (tag error.type)"},
    {"dotnet.process.cpu.count", "{cpu}", "Metric", 9, "processors the process may use"},
    {"dotnet.process.cpu.time", "s", "Rate", 9, "CPU time the process used (tag cpu.mode: user, system)"},
    {NULL, NULL, NULL, 0, NULL},
};

static const known_counter_t hosting_counters[] = {
    {"requests-per-second", "", "Rate", 0, "requests that started in the interval"},
    {"total-requests", "", "Metric", 0, "requests since the application started"},
    {"current-requests", "", "Metric", 0, "requests being processed now"},
    {"failed-requests", "", "Metric", 0, "requests that failed since the application started"},
    {NULL, NULL, NULL, 0, NULL},
};

static const known_counter_t hosting_meter[] = {
    {"http.server.request.duration", "s", "Percentiles", 8, "how long the server took per request (tags http.request.method, http.response.status_code, http.route...)"},
    {"http.server.active_requests", "{request}", "Metric", 8, "requests being processed now"},
    {NULL, NULL, NULL, 0, NULL},
};

static const known_counter_t kestrel_counters[] = {
    {"connections-per-second", "", "Rate", 0, "connections accepted in the interval"},
    {"total-connections", "", "Metric", 0, "connections accepted since the server started"},
    {"current-connections", "", "Metric", 0, "connections open now"},
    {"connection-queue-length", "", "Metric", 0, "accepted connections waiting to be served"},
    {"request-queue-length", "", "Metric", 0, "requests waiting for the server to read them"},
    {"current-upgraded-requests", "", "Metric", 0, "upgraded requests (WebSockets) open now"},
    {"tls-handshakes-per-second", "", "Rate", 0, "TLS handshakes in the interval"},
    {"total-tls-handshakes", "", "Metric", 0, "TLS handshakes since the server started"},
    {"current-tls-handshakes", "", "Metric", 0, "TLS handshakes under way now"},
    {"failed-tls-handshakes", "", "Metric", 0, "TLS handshakes that failed since the server started"},
    {NULL, NULL, NULL, 0, NULL},
};

static const known_counter_t kestrel_meter[] = {
    {"kestrel.active_connections", "{connection}", "Metric", 8, "connections open now"},
    {"kestrel.connection.duration", "s", "Percentiles", 8, "how long connections stayed open"},
    {"kestrel.queued_connections", "{connection}", "Metric", 8, "accepted connections waiting to be served"},
    {"kestrel.queued_requests", "{request}", "Metric", 8, "requests waiting for the server to read them"},
    {"kestrel.rejected_connections", "{connection}", "Rate", 8, "connections refused because too many were open"},
    {"kestrel.upgraded_connections", "{connection}", "Metric", 8, "upgraded connections (WebSockets) open now"},
    {"kestrel.tls_handshake.duration", "s", "Percentiles", 8, "how long TLS handshakes took"},
    {"kestrel.active_tls_handshakes", "{handshake}", "Metric", 8, "TLS handshakes under way now"},
    {NULL, NULL, NULL, 0, NULL},
};

static const known_counter_t http_counters[] = {
    {"requests-started", "", "Metric", 5, "HTTP requests started since the process started"},
    {"requests-started-rate", "", "Rate", 5, "HTTP requests started in the interval"},
    {"requests-failed", "", "Metric", 5, "HTTP requests that failed since the process started"},
    {"requests-failed-rate", "", "Rate", 5, "HTTP requests that failed in the interval"},
    {"current-requests", "", "Metric", 5, "HTTP requests under way now"},
    {"http11-connections-current-total", "", "Metric", 5, "HTTP/1.1 connections open now"},
    {"http20-connections-current-total", "", "Metric", 5, "HTTP/2 connections open now"},
    {"http30-connections-current-total", "", "Metric", 7, "HTTP/3 connections open now"},
    {"http11-requests-queue-duration", "ms", "Metric", 5, "mean time HTTP/1.1 requests waited for a connection in the interval"},
    {"http20-requests-queue-duration", "ms", "Metric", 5, "mean time HTTP/2 requests waited for a connection in the interval"},
    {"http30-requests-queue-duration", "ms", "Metric", 7, "mean time HTTP/3 requests waited for a connection in the interval"},
    {NULL, NULL, NULL, 0, NULL},
};

static const known_counter_t http_meter[] = {
    {"http.client.request.duration", "s", "Percentiles", 8, "how long HTTP requests took until the response headers arrived"},
    {"http.client.active_requests", "{request}", "Metric", 8, "HTTP requests under way now"},
    {"http.client.open_connections", "{connection}", "Metric", 8, "HTTP connections open now (tag http.connection.state: active, idle)"},
    {"http.client.connection.duration", "s", "Percentiles", 8, "how long HTTP connections stayed open"},
    {"http.client.request.time_in_queue", "s", "Percentiles", 8, "how long HTTP requests waited for a connection"},
    {NULL, NULL, NULL, 0, NULL},
};

static const known_counter_t sockets_counters[] = {
    {"outgoing-connections-established", "", "Metric", 5, "outgoing connections made since the process started"},
    {"incoming-connections-established", "", "Metric", 5, "incoming connections accepted since the process started"},
    {"current-outgoing-connect-attempts", "", "Metric", 7, "outgoing connections being made now"},
    {"bytes-received", "B", "Metric", 5, "bytes received since the process started"},
    {"bytes-sent", "B", "Metric", 5, "bytes sent since the process started"},
    {"datagrams-received", "", "Metric", 5, "datagrams received since the process started"},
    {"datagrams-sent", "", "Metric", 5, "datagrams sent since the process started"},
    {NULL, NULL, NULL, 0, NULL},
};

static const known_counter_t dns_counters[] = {
    {"dns-lookups-requested", "", "Metric", 5, "DNS lookups since the process started"},
    {"dns-lookups-duration", "ms", "Metric", 5, "mean time a DNS lookup took in the interval"},
    {"current-dns-lookups", "", "Metric", 7, "DNS lookups under way now"},
    {NULL, NULL, NULL, 0, NULL},
};

static const known_counter_t dns_meter[] = {
    {"dns.lookup.duration", "s", "Percentiles", 8, "how long DNS lookups took"},
    {NULL, NULL, NULL, 0, NULL},
};

const known_provider_t counters_known[] = {
    {"System.Runtime", "EventCounters", 0, "the runtime: CPU, memory, GC, JIT, thread pool, locks, exceptions (the default of clrattach counters on .NET 8)", runtime_counters},
    {"System.Runtime", "Meter", 9, "the same figures as instruments with OpenTelemetry names: the default of clrattach counters (as of dotnet-counters 10) on .NET 9 and later", runtime_meter},
    {"Microsoft.AspNetCore.Hosting", "EventCounters", 0, "ASP.NET Core requests", hosting_counters},
    {"Microsoft.AspNetCore.Hosting", "Meter", 8, "ASP.NET Core requests", hosting_meter},
    {"Microsoft-AspNetCore-Server-Kestrel", "EventCounters", 0, "Kestrel's connections and TLS handshakes", kestrel_counters},
    {"Microsoft.AspNetCore.Server.Kestrel", "Meter", 8, "Kestrel's connections and TLS handshakes", kestrel_meter},
    {"System.Net.Http", "EventCounters", 5, "HttpClient's requests and connections", http_counters},
    {"System.Net.Http", "Meter", 8, "HttpClient's requests and connections", http_meter},
    {"System.Net.Sockets", "EventCounters", 5, "sockets' connections and traffic", sockets_counters},
    {"System.Net.NameResolution", "EventCounters", 5, "DNS lookups", dns_counters},
    {"System.Net.NameResolution", "Meter", 8, "DNS lookups", dns_meter},
    {NULL, NULL, 0, NULL, NULL},
};

void counters_known_write(FILE *f, unsigned major)
{
    fprintf(f, "# Well-known counters of .NET %u. A process may publish others: any EventSource's\n"
               "# counters or Meter's instruments can be named in --counters.\n"
               "# PROVIDER  KIND  WHAT, then per counter: NAME  UNITS  SHOWN-AS  WHAT\n", major);
    for (const known_provider_t *p = counters_known; p->name; p++) {
        if (p->since > major)
            continue;
        fprintf(f, "\n%-36s  %-13s  %s\n", p->name, p->kind, p->what);
        for (const known_counter_t *c = p->counters; c->name; c++)
            if (c->since <= major)
                fprintf(f, "    %-48s  %-12s  %-11s  %s\n", c->name, c->units[0] ? c->units : "-",
                        c->shown, c->what);
    }
}

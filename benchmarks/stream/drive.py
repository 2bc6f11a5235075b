"""Drives a fleet of `bunting serve` processes for benchmarks/stream/run.

nginx with the nchan module (README, Running a fleet) serves the definitions
file and the stream. Two fleets of the same size, one after the other in the
same run, each process subscribed to featureFlags and synced:

- stream: --stream on nchan (polls wait while it is connected);
- polling: --poll-interval 1, no stream (the baseline).

A round writes a new version of the file (renamed over the old one, with a
modification time of its own so that nginx's ETag changes) and, for the
stream fleet, POSTs the same document to nchan. Its latency for a process is
the time from just before the publish (the POST; the rename for the polling
fleet) to the moment this driver reads that process's DATA_UPDATED carrying
the new version. One thread reads every process's stdout through a selector,
so a line is timed when it arrives.

Then each fleet idles for 10 s: the CPU time of each process over that window
(every thread's, from /proc/PID/task/*/schedstat, in nanoseconds) and the
requests that reached nginx's definitions file meanwhile.
"""
import argparse, json, os, random, selectors, shutil, signal, socket, statistics, subprocess, sys, tempfile, time
import http.client

NCHAN_LOCATIONS = """
        location = /definitions/publish {
            nchan_publisher;
            nchan_channel_id definitions;
            nchan_message_buffer_length 1;
            nchan_message_timeout 0;
        }
        location = /definitions/stream {
            nchan_subscriber eventsource;
            nchan_channel_id definitions;
            nchan_subscriber_first_message oldest;
            nchan_eventsource_ping_interval 15;
        }
"""


def definitions(version, extra_flags=20):
    flags = {"greeting": {"state": "ENABLED", "defaultVariant": "on",
                          "variants": {"on": {"enabled": True, "properties": {"text": {"type": "string", "value": version}}}}}}
    for index in range(extra_flags):
        flags[f"padding-{index}"] = {"state": "ENABLED", "defaultVariant": "off", "variants": {"on": True, "off": False}}
    return json.dumps({"channels": {"featureFlags": True, "banners": True, "contentCards": True}, "flags": flags},
                      separators=(",", ":"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    def __init__(self, work):
        self.dir = os.path.join(work, "nginx")
        self.root = os.path.join(self.dir, "www")
        for sub in ("www", "tmp"):
            os.makedirs(os.path.join(self.dir, sub), exist_ok=True)
        self.port = free_port()
        d = self.dir
        config = f"""load_module /usr/lib/nginx/modules/ngx_nchan_module.so;
daemon off;
master_process off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log {d}/access.log;
    client_body_temp_path {d}/tmp/body;
    proxy_temp_path {d}/tmp/proxy;
    fastcgi_temp_path {d}/tmp/fastcgi;
    uwsgi_temp_path {d}/tmp/uwsgi;
    scgi_temp_path {d}/tmp/scgi;
    types {{ application/json json; }}
    server {{
        listen 127.0.0.1:{self.port};
        root {d}/www;
{NCHAN_LOCATIONS}
    }}
}}
"""
        with open(os.path.join(d, "nginx.conf"), "w") as f:
            f.write(config)
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen([nginx, "-p", d, "-e", f"{d}/error.log", "-c", f"{d}/nginx.conf"],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline or self.process.poll() is not None:
                    raise SystemExit(f"drive: nginx did not start; see {d}/error.log")
                time.sleep(0.02)
        self.version_time = int(time.time()) - 100_000

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def write_file(self, text):
        """Renamed over the old one, with a modification time of its own (nginx's ETag is size and whole seconds)."""
        temporary = os.path.join(self.root, ".definitions.json.new")
        with open(temporary, "w") as f:
            f.write(text)
        self.version_time += 1
        os.utime(temporary, (self.version_time, self.version_time))
        os.rename(temporary, os.path.join(self.root, "definitions.json"))

    def publish(self, connection, text):
        connection.request("POST", "/definitions/publish", body=text.encode(), headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        if response.status not in (201, 202):
            raise SystemExit(f"drive: nchan answered {response.status} to a publish")

    def requests_for_file(self):
        with open(os.path.join(self.dir, "access.log")) as f:
            return sum(1 for line in f if "GET /definitions.json " in line)

    def stop(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


def request(id_, method, params=None):
    message = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        message["params"] = params
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


class Fleet:
    def __init__(self, bunting, size, arguments, work, name):
        self.selector = selectors.DefaultSelector()
        self.processes = []
        self.pending = {}
        self.greeting = {}
        self.arrived = {}
        self.replies = {}
        self.stderr = open(os.path.join(work, f"{name}-stderr.log"), "ab")
        for index in range(size):
            process = subprocess.Popen([bunting, "serve", "--framing", "ndjson", "--storage", ":memory:", *arguments],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, bufsize=0)
            os.set_blocking(process.stdout.fileno(), False)
            self.selector.register(process.stdout, selectors.EVENT_READ, index)
            self.processes.append(process)
            self.pending[index] = b""
            process.stdin.write(request(1, "subscribe", {"channel": "featureFlags"}) + request(2, "changeUser", {"userId": f"user-{index}"}))

    def pump(self, timeout):
        """Reads what arrived; records when each process's greeting changed."""
        for key, _ in self.selector.select(timeout):
            index = key.data
            now = time.perf_counter()
            try:
                chunk = os.read(key.fileobj.fileno(), 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                self.selector.unregister(key.fileobj)
                continue
            lines = (self.pending[index] + chunk).split(b"\n")
            self.pending[index] = lines.pop()
            for line in lines:
                if b'"DATA_UPDATED"' in line:
                    message = json.loads(line)
                    flags = message["params"]["cacheSnapshot"]["featureFlags"]
                    version = next((f["properties"]["text"]["value"] for f in flags if f["id"] == "greeting"), None)
                    if version != self.greeting.get(index):
                        self.greeting[index] = version
                        self.arrived[index] = now
                elif b'"id":"s' in line:
                    message = json.loads(line)
                    self.replies[(index, message["id"])] = message.get("result")

    def wait_for(self, version, deadline):
        while any(self.greeting.get(i) != version for i in range(len(self.processes))):
            if time.perf_counter() > deadline:
                missing = [i for i in range(len(self.processes)) if self.greeting.get(i) != version]
                raise SystemExit(f"drive: {len(missing)} processes never got {version}")
            self.pump(0.05)

    def statuses(self, tag):
        for index, process in enumerate(self.processes):
            process.stdin.write(request(f"s{tag}", "status"))
        deadline = time.perf_counter() + 30
        while any((i, f"s{tag}") not in self.replies for i in range(len(self.processes))):
            if time.perf_counter() > deadline:
                raise SystemExit("drive: status went unanswered")
            self.pump(0.05)
        return [self.replies[(i, f"s{tag}")] for i in range(len(self.processes))]

    def cpu_ns(self):
        """Each process's CPU time so far, all threads, in nanoseconds."""
        totals = []
        for process in self.processes:
            total = 0
            tasks = f"/proc/{process.pid}/task"
            for task in os.listdir(tasks):
                with open(f"{tasks}/{task}/schedstat") as f:
                    total += int(f.read().split()[0])
            totals.append(total)
        return totals

    def close(self):
        for process in self.processes:
            try:
                process.stdin.close()
            except OSError:
                pass
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        self.stderr.close()


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def measure(name, fleet, nginx, rounds, push, first_version, idle_seconds):
    print(f"{name}: {len(fleet.processes)} processes", file=sys.stderr)
    fleet.wait_for(first_version, time.perf_counter() + 60)
    if push:
        tag = 0
        while True:
            tag += 1
            streams = [s["stream"] for s in fleet.statuses(f"c{tag}")]
            if all(s["connected"] for s in streams):
                break
            time.sleep(0.1)
    connection = http.client.HTTPConnection("127.0.0.1", nginx.port, timeout=30)
    latencies = []
    for round_ in range(rounds):
        version = f"{name}-{round_}"
        text = definitions(version)
        # A pause of its own before each round, so that rounds fall anywhere in the polls' second.
        pause_until = time.perf_counter() + random.uniform(0.2, 0.6)
        while time.perf_counter() < pause_until:
            fleet.pump(0.05)
        if push:
            nginx.write_file(text)
            started = time.perf_counter()
            nginx.publish(connection, text)
        else:
            started = time.perf_counter()
            nginx.write_file(text)
        fleet.wait_for(version, started + 30)
        latencies += [(fleet.arrived[i] - started) * 1000 for i in range(len(fleet.processes))]
        print(f"  round {round_ + 1}: p50 {statistics.median(latencies[-len(fleet.processes):]):.1f} ms, "
              f"max {max(latencies[-len(fleet.processes):]):.1f} ms", file=sys.stderr)
    connection.close()
    # Idle: nothing published; the process's CPU time and the file's requests over the window.
    cpu_before, requests_before = fleet.cpu_ns(), nginx.requests_for_file()
    idle_until = time.perf_counter() + idle_seconds
    while time.perf_counter() < idle_until:
        fleet.pump(0.2)
    cpu_after, requests_after = fleet.cpu_ns(), nginx.requests_for_file()
    cpu_ms = [(b - a) / 1e6 for a, b in zip(cpu_before, cpu_after)]
    return {
        "latencies_ms": latencies,
        "p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99), "max_ms": max(latencies),
        "idle_cpu_ms_median": statistics.median(cpu_ms), "idle_cpu_ms_max": max(cpu_ms),
        "idle_requests": requests_after - requests_before,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bunting", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--processes", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of the idle window")
    parser.add_argument("--quick", action="store_true", help="10 processes, 3 rounds, 3 idle seconds")
    options = parser.parse_args()
    if options.quick:
        options.processes, options.rounds, options.idle = 10, 3, 3.0
    bunting = os.path.abspath(options.bunting)
    work = tempfile.mkdtemp(prefix="bunting-stream-bench-")
    nginx = Nginx(work)
    results = {"benchmark": "stream", "processes": options.processes, "rounds": options.rounds,
               "idle_seconds": options.idle, "quick": options.quick}
    try:
        nginx.write_file(definitions("start"))
        definitions_url = nginx.url("/definitions.json")
        stream = Fleet(bunting, options.processes,
                       ["--definitions", definitions_url, "--stream", nginx.url("/definitions/stream")], work, "stream")
        try:
            results["stream"] = measure("stream", stream, nginx, options.rounds, True, "start", options.idle)
        finally:
            stream.close()
        nginx.write_file(definitions("start-polling"))
        polling = Fleet(bunting, options.processes, ["--definitions", definitions_url, "--poll-interval", "1"], work, "polling")
        try:
            results["polling"] = measure("polling", polling, nginx, options.rounds, False, "start-polling", options.idle)
        finally:
            polling.close()
    finally:
        nginx.stop()
        shutil.rmtree(work, ignore_errors=True)

    s, p = results["stream"], results["polling"]
    rows = []

    def row(metric, value, baseline, target=None, ok=None):
        rows.append({"metric": metric, "stream": value, "polling": baseline,
                     "ratio": value / baseline if baseline else None, "target": target,
                     "verdict": None if ok is None else ("ok" if ok else "MISS")})

    n = options.processes
    row(f"publish -> DATA_UPDATED, {n} processes, p50 (ms)", s["p50_ms"], p["p50_ms"])
    row(f"publish -> DATA_UPDATED, {n} processes, p99 (ms)", s["p99_ms"], p["p99_ms"], "p99 <= 100 ms", s["p99_ms"] <= 100)
    row(f"publish -> DATA_UPDATED, {n} processes, max (ms)", s["max_ms"], p["max_ms"])
    row(f"idle CPU per process over {options.idle:g} s, median (ms)", s["idle_cpu_ms_median"], p["idle_cpu_ms_median"])
    row(f"idle CPU per process over {options.idle:g} s, max (ms)", s["idle_cpu_ms_max"], p["idle_cpu_ms_max"],
        "<= 1 ms", s["idle_cpu_ms_max"] <= 1)
    row(f"requests to the origin over {options.idle:g} idle s, fleet", s["idle_requests"], p["idle_requests"])
    for fleet in (s, p):
        del fleet["latencies_ms"]
    results["table"] = rows
    results["targets_missed"] = [r["metric"] for r in rows if r["verdict"] == "MISS"]
    with open(os.path.join(options.out, "stream.json"), "w") as f:
        json.dump(results, f, indent=2)

    print(f"stream benchmark: release build, {n} processes per fleet, {options.rounds} publishes each "
          f"({n * options.rounds} latencies per fleet), nginx {nchan_version()} with nchan")
    w = max(len(r["metric"]) for r in rows)
    print(f"{'metric':<{w}}  {'stream':>9}  {'polling':>9}  {'ratio':>6}  target")
    print("-" * (w + 50))
    for r in rows:
        ratio = f"{r['ratio']:.3f}" if r["ratio"] is not None else "-"
        print(f"{r['metric']:<{w}}  {r['stream']:>9.2f}  {r['polling']:>9.2f}  {ratio:>6}  "
              f"{r['target'] or '':<14} {r['verdict'] or ''}")
    print("stream: --stream on nchan (polls wait while connected); polling: --poll-interval 1, the same fleet size,")
    print("the same documents. Latency: from just before the publish (the POST to nchan; the file's rename for")
    print("polling) to this driver reading each process's DATA_UPDATED. ratio = stream / polling.")
    misses = results["targets_missed"]
    print("Targets missed: " + "; ".join(misses) + "." if misses else "All targets met.")
    print(f"Written: {os.path.join(options.out, 'stream.json')}")


def nchan_version():
    try:
        return subprocess.run([shutil.which("nginx") or "/usr/sbin/nginx", "-v"], capture_output=True, text=True).stderr.strip().split("/")[-1]
    except OSError:
        return "?"


if __name__ == "__main__":
    main()

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

# Where `make bench` keeps its raw results, for benchstat or a later comparison.
BENCH_OUT ?= $(or $(TMPDIR),/tmp)/padapi-bench.txt
BENCH_BIN ?= $(or $(TMPDIR),/tmp)/padapi-bench.test
# How many rounds `make bench` runs (docs/performance.md's figures: 3).
ROUNDS ?= 5

# The groups of benchmarks of one round, each with the run length it needs.
# On loopback: the SDK and its hand-written like, side by side; and the
# benchmarks of one call's own work (a transcript, a history replay).
# TestBenchPatternsCoverEveryBenchmark checks that every benchmark of the
# package matches one of the BENCH_ patterns.
BENCH_LOOPBACK := ^Benchmark(QuotaGet|QuotaRaw|PadPage|PadPageRaw|PadPageLive|PadPageLiveRaw|PadPageLiveLoopback|PadPageLiveLoopbackRaw|DecodePadPage|DecodePadPageStdlib|PadsAll|Transcript10|Replay)$$
# 64 goroutines over 6 400 calls, counting connections.
BENCH_PARALLEL := ^BenchmarkQuotaGetParallel$$
# Behind 20 ms of service time (the latency benchmarks of bench_test.go).
BENCH_LATENCY := ^BenchmarkLatency$$
BENCH_PAGES := ^BenchmarkPadsAll200$$

# bench runs ROUNDS rounds; each round runs every benchmark once, in pairs
# (the SDK, then its like), rather than -count N, which runs one benchmark N
# times, then the next: on a shared machine a slow spell then slows the SDK
# and what it is compared with alike, and their ratio holds. It prints, for
# every figure, the median over the rounds with the lowest and highest, and
# for every pair the median of the rounds' ratios: no benchstat needed (the
# raw results in BENCH_OUT suit it too).
.PHONY: bench
bench:
	go test -c -o $(BENCH_BIN) .
	for round in $$(seq $(ROUNDS)); do \
		echo "round $$round" >&2; \
		$(BENCH_BIN) -test.run '^$$' -test.bench '$(BENCH_LOOPBACK)' -test.benchmem || exit 1; \
		$(BENCH_BIN) -test.run '^$$' -test.bench '$(BENCH_PARALLEL)' -test.benchmem -test.benchtime 6400x || exit 1; \
		$(BENCH_BIN) -test.run '^$$' -test.bench '$(BENCH_LATENCY)' -test.benchtime 1s || exit 1; \
		$(BENCH_BIN) -test.run '^$$' -test.bench '$(BENCH_PAGES)' -test.benchtime 1x || exit 1; \
	done | tee $(BENCH_OUT) | grep --line-buffered '^Benchmark'
	@awk "$$BENCH_SUMMARY" $(BENCH_OUT)

# BENCH_SUMMARY reads the rounds (mawk or gawk): a benchmark's k-th line is
# its result in round k, so a ratio pairs two benchmarks' k-th lines.
define BENCH_SUMMARY
/^Benchmark/ {
	name = $$1; sub(/-[0-9]+$$/, "", name)
	k = ++runs[name]; if (k > rounds) rounds = k
	if (k == 1) order[++names] = name
	for (i = 3; i < NF; i += 2) { v[name, $$(i+1), k] = $$i; has[name, $$(i+1)] = 1 }
}
function sortn(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
}
function num(x) { return sprintf(x >= 1000 || x <= -1000 ? "%.0f" : "%.3g", x) }
function summary(a, n) {
	sortn(a, n)
	return num(n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2) " [" num(a[1]) ".." num(a[n]) "]"
}
function figure(name, unit,   k, n, a) {
	n = 0
	for (k = 1; k <= runs[name]; k++) if ((name, unit, k) in v) a[++n] = v[name, unit, k]
	return n ? summary(a, n) : "-"
}
function ratio(label, x, y, unit, diff,   k, n, a) {
	n = 0
	for (k = 1; k <= runs[x] && k <= runs[y]; k++)
		if ((x, unit, k) in v && (y, unit, k) in v && v[y, unit, k] != 0)
			a[++n] = diff ? v[x, unit, k] - v[y, unit, k] : v[x, unit, k] / v[y, unit, k]
	if (n) printf "  %-52s %s %s\n", label, summary(a, n), diff ? unit " more" : "x (" unit ")"
}
END {
	printf "\nmedians of %d rounds [lowest..highest]\n", rounds
	split("ns/op allocs/op calls/s p50-ms p99-ms conns closed s/list peak-pages", units, " ")
	for (i = 1; i <= names; i++) {
		line = ""
		for (u = 1; u in units; u++) if (has[order[i], units[u]]) line = line "  " units[u] " " figure(order[i], units[u])
		printf "  %-52s%s\n", substr(order[i], 10), line
	}
	printf "\nratios, the median of each round's [lowest..highest]\n"
	ratio("Quota.Get / by hand, loopback", "BenchmarkQuotaGet", "BenchmarkQuotaRaw", "ns/op")
	ratio("Quota.Get / by hand, loopback", "BenchmarkQuotaGet", "BenchmarkQuotaRaw", "allocs/op", 1)
	ratio("Pads.List / by hand, 50 pads, whole path", "BenchmarkPadPage", "BenchmarkPadPageRaw", "ns/op")
	ratio("Pads.List / by hand, 50 live pads, whole path", "BenchmarkPadPageLive", "BenchmarkPadPageLiveRaw", "ns/op")
	ratio("Pads.List / by hand, 50 live pads, whole path", "BenchmarkPadPageLive", "BenchmarkPadPageLiveRaw", "allocs/op", 1)
	ratio("Pads.List / by hand, 50 live pads, loopback, wall", "BenchmarkPadPageLiveLoopback", "BenchmarkPadPageLiveLoopbackRaw", "ns/op")
	ratio("decode / json.Unmarshal, 50 pads", "BenchmarkDecodePadPage", "BenchmarkDecodePadPageStdlib", "ns/op")
	split("1 64 256 1024", gs, " ")
	for (p = 1; p <= 2; p++) for (g = 1; g <= 4; g++) {
		pre = "BenchmarkLatency/proto=h" p "/pool="
		ratio("20 ms, h" p ", " gs[g] " goroutines: sdk / v1", pre "sdk/g=" gs[g], pre "v1/g=" gs[g], "calls/s")
		ratio("20 ms, h" p ", " gs[g] " goroutines: net/http h2 8 conns / v1", pre "nethttp8/g=" gs[g], pre "v1/g=" gs[g], "calls/s")
	}
	ratio("20 ms, 1024 goroutines: sdk over h2 / v1 over h1", "BenchmarkLatency/proto=h2/pool=sdk/g=1024", "BenchmarkLatency/proto=h1/pool=v1/g=1024", "calls/s")
	ratio("200 pages at 20 ms: All / page by page", "BenchmarkPadsAll200/loop=all", "BenchmarkPadsAll200/loop=list", "s/list")
	ratio("200 pages at 20 ms: All, 8 at once / page by page", "BenchmarkPadsAll200/loop=all8", "BenchmarkPadsAll200/loop=list", "s/list")
}
endef
export BENCH_SUMMARY

# MUTATE_PKGS are the packages `make mutate` mutation-tests with gremlins;
# append a package here when its tests should kill what gremlins changes in
# it. The target is 90 % test efficacy and 90 % mutator coverage; equivalent
# mutants are listed in a comment in each package's tests. The tests run
# with -short (GOFLAGS below): internal/app/archive's SIGKILL test, which kills
# 20 child processes, is skipped, and its crash-at-every-write test tries
# fewer points; CI runs both in full once. And with -count=1: gremlins
# times each mutant's tests out at its coverage run's time x the
# coefficient, and that run (go test -coverprofile) is otherwise answered
# from the test cache when the package's tests ran before: in about a
# second, so that nearly every mutant is reported TIMED OUT, and left out
# of the efficacy and the coverage.
MUTATE_PKGS ?= ./internal/lib/redact ./internal/lib/safefile ./internal/lib/jsonerr ./internal/lib/retrypolicy ./internal/app/qsync ./internal/app/qsync/qfolder ./internal/app/archive
# --timeout-coefficient 10: gremlins gives each mutant's go test that many
# times the coverage run's time, then kills go test (its test binary runs
# on to its own -timeout). With a small one (gremlins' default is 3), a
# mutant's rebuild alone can outlast it on a busy machine: one such run
# killed go test 38 times in 5 minutes, never after its test binary was
# linked. On a machine others share, pass --workers 1.
MUTATE_FLAGS ?= --workers 2 --timeout-coefficient 10
# MUTATE_ARGS_<path> are one package's own gremlins flags, the path without
# its ./ and with / as _. qsync: -tags mutate leaves out the race test of
# two applies at once (24 real creates on every mutant), -E qfolder
# leaves qfolder to its own run, and lock_other.go is not built on Linux
# (see the comment at the top of internal/app/qsync/qsync_test.go).
MUTATE_ARGS_internal_app_qsync ?= --tags mutate -E qfolder -E lock_other
# internal/app/archive: lock_other.go is not built on Linux either.
MUTATE_ARGS_internal_app_archive ?= -E lock_other
mutate_args = $(MUTATE_ARGS_$(subst /,_,$(patsubst ./%,%,$(1))))
GREMLINS_VERSION := v0.6.0
GREMLINS ?= $(shell go env GOPATH)/bin/gremlins

$(GREMLINS):
	go install github.com/go-gremlins/gremlins/cmd/gremlins@$(GREMLINS_VERSION)

# mutate runs gremlins on each package of MUTATE_PKGS, one after the
# other, and prints the mutants that lived and each package's efficacy and
# coverage.
.PHONY: mutate
mutate: $(GREMLINS)
	@run() { \
		p=$$1; shift; \
		out=$$(GOFLAGS='-short -count=1' $(GREMLINS) unleash $(MUTATE_FLAGS) "$$@" $$p 2>&1) || { echo "$$out"; return 1; }; \
		echo "$$out" | grep -E '^ *(LIVED|TIMED OUT|NOT VIABLE)'; \
		printf '%-28s %s\n' "$$p" "$$(echo "$$out" | grep -E 'Killed|Test efficacy|Mutator coverage' | tr -s ' \n' ' ')"; \
	}; \
	$(foreach p,$(MUTATE_PKGS),run $(p) $(call mutate_args,$(p)) && ) true

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

# Where `make bench` keeps its raw results, for benchstat or a later comparison.
BENCH_OUT ?= $(or $(TMPDIR),/tmp)/padapi-bench.txt

# bench runs the benchmarks of bench_test.go six times. Each round runs every
# benchmark once (rather than -count 6, which runs one benchmark six times,
# then the next): on a shared machine a slow spell then slows the SDK and
# what it is compared with alike, and their ratio holds. When benchstat is
# installed (go install golang.org/x/perf/cmd/benchstat@latest), it prints
# the medians the README's Performance section quotes.
.PHONY: bench
bench:
	for round in 1 2 3 4 5 6; do \
		go test -run '^$$' -bench . -benchmem -count 1 . || exit 1; \
	done | tee $(BENCH_OUT)
	@if command -v benchstat >/dev/null; then benchstat $(BENCH_OUT); \
	else echo "raw results in $(BENCH_OUT); benchstat would summarise them"; fi

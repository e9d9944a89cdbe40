# gpucoh - the README's two commands, and a few more.
#   make demo    install what is missing, build, run the main job
#   make test    install what is missing, build, run every default test
#                (the unit tests also under ASan+UBSan)
#   make test-asan  the command-line tests (tests/cli/*.sh) against the ASan+UBSan
#                build, failing on any sanitizer report (tests/asan-cli.sh; CI runs it
#                after make test), less the slowest (CMakeLists.txt, ASAN_CLI_SLOW)
#   make test-asan-all  every command-line test under ASan+UBSan, the slowest too
#   make long    the long runs (1 M stress episodes, every litmus test, a sweep on a
#                single-node Slurm started on localhost: long-deps installs slurm-wlm, munge)
#   make bench   simulator speed table (bench/README.md)
#   make verify  exhaustive exploration of the explorable protocols: the result table
#                in docs/verify.md regenerated (tools/verify-table.sh)
#   make verify-stress  the cells the explorer and the stress tester reach, per
#                protocol: the comparison in docs/verify.md regenerated
#                (tools/verify-stress-table.sh)
#   make ptx     regenerate the committed PTX with nvcc (needs the CUDA toolkit)
#   make fuzz    run each libFuzzer harness for FUZZ_SECONDS (default 60; fuzz/README.md)
#   make fuzz-long  each harness until it has had an hour of CPU (resumable)
#   make validate  gpucoh's side of the GPGPU-Sim comparison (VALIDATE_SIZE, default
#                tiny; docs/validation.md) into results/validate-SIZE
#   make validation-hosts  the validation host programs (needs nvcc; build/validation-hosts)
#   make protocol-docs  rewrite docs/protocols/*.md's tables and docs/layers.md from the code
#   make format  format the C sources with clang-format and .clang-format (cli/format checks them)
JOBS  ?= $(shell nproc)
BUILD ?= build
ASAN  ?= build-asan

DEB_PACKAGES := cmake gcc make pkg-config libinih-dev libcjson-dev libcmocka-dev libzstd-dev liblz4-dev python3-matplotlib \
	python3-pandas chromium clang-format zstd
FUZZ_PACKAGES := clang
# tests/long/slurm-local.sh: a single-node Slurm on localhost (not a default dependency)
LONG_PACKAGES := slurm-wlm munge
FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := $(filter-out replay,$(basename $(notdir $(wildcard fuzz/*.c))))

.PHONY: all deps fuzz-deps long-deps build asan fuzz-build demo test test-asan test-asan-all long bench verify verify-stress ptx \
	cuda-examples fuzz fuzz-long validate validation-hosts protocol-docs format clean

all: build

# Install the Debian packages that are missing, waiting for apt's locks if
# another apt holds them (tools/install-deps.sh).
deps:
	@tools/install-deps.sh $(DEB_PACKAGES)

fuzz-deps:
	@tools/install-deps.sh $(FUZZ_PACKAGES)

long-deps:
	@tools/install-deps.sh $(LONG_PACKAGES)

# The project's own builds treat warnings as errors (GPUCOH_WERROR); a plain
# cmake does not.
build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUCOH_WERROR=ON >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

asan: deps
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DGPUCOH_SANITIZE=ON -DGPUCOH_WERROR=ON >/dev/null
	cmake --build $(ASAN) -j $(JOBS)

demo: build
	./$(BUILD)/gpucoh repro tc --size quick -j $(JOBS) --out results/repro-tc-quick

# Each test line reads "[elapsed] N/M Test #k: name ... Passed  t sec" (tools/elapsed.sh).
ELAPSED = $(CURDIR)/tools/elapsed.sh

test: build asan
	cd $(ASAN) && $(ELAPSED) ctest -L unit -j $(JOBS) --output-on-failure
	cd $(BUILD) && $(ELAPSED) ctest -LE long -j $(JOBS) --output-on-failure

test-asan: asan
	cd $(ASAN) && $(ELAPSED) ctest -L asan-cli -LE asan-slow -j $(JOBS) --output-on-failure

test-asan-all: asan
	cd $(ASAN) && $(ELAPSED) ctest -L asan-cli -j $(JOBS) --output-on-failure

long: build fuzz-build long-deps
	cd $(BUILD) && ctest -L long -j $(JOBS) --output-on-failure

# libFuzzer harnesses (clang, ASan, UBSan): fuzz/*.c; findings go to $(FUZZ)/findings/
fuzz-build: deps fuzz-deps
	CC=clang cmake -S . -B $(FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUCOH_FUZZ=ON \
	  -DGPUCOH_WERROR=ON >/dev/null
	cmake --build $(FUZZ) -j $(JOBS) --target $(addprefix fuzz-,$(FUZZ_TARGETS))

fuzz: fuzz-build
	tools/fuzz.sh $(FUZZ) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# An hour of CPU per harness, counted in $(FUZZ)/fuzz-ledger.tsv: resumable,
# each call runs for at most FUZZ_BLOCK_SECONDS of wall time (fuzz/README.md).
FUZZ_BLOCK_SECONDS ?= 86400
fuzz-long: fuzz-build
	FUZZ_CPU_BUDGET=3600 FUZZ_LEDGER=fuzz/ledger.tsv tools/fuzz.sh $(FUZZ) $(FUZZ_BLOCK_SECONDS) $(FUZZ_TARGETS)
	tools/fuzz.sh --ledger fuzz/ledger.tsv

# One table (bench/table.sh, bench/README.md); the other bench-* programs
# (kernels, oracle, order) run on their own.
bench: build
	@bench/table.sh $(BUILD)

verify: build
	@tools/verify-table.sh $(BUILD)/gpucoh docs/verify.md

verify-stress: build
	@tools/verify-stress-table.sh $(BUILD)/gpucoh docs/verify.md

VALIDATE_SIZE ?= tiny
validate: build
	tools/validate.sh --size $(VALIDATE_SIZE) -j $(JOBS) --out results/validate-$(VALIDATE_SIZE)

validation-hosts:
	@command -v nvcc >/dev/null || { echo "make validation-hosts needs nvcc (CUDA toolkit)"; exit 2; }
	$(MAKE) -C validation/hosts OUT=$(CURDIR)/$(BUILD)/validation-hosts

# docs/protocols/NAME.md: the tables from the code, the hand-written notes kept
protocol-docs: build
	tools/protocol-docs.sh $(BUILD)/gpucoh .
	python3 tools/layers.py --write docs/layers.md

# The ordinary CUDA programs of examples/cuda/, built as a user builds them (the
# binaries are committed: the tests run them where nvcc is absent; docs/cuda.md). With
# -lineinfo, as a user debugging them would build: the front end skips its DWARF.
cuda-examples:
	@command -v nvcc >/dev/null || { echo "make cuda-examples needs nvcc (CUDA toolkit)"; exit 2; }
	@mkdir -p examples/cuda/bin
	@for cu in examples/cuda/*.cu; do \
	  bin=examples/cuda/bin/$$(basename $${cu%.cu}); echo "nvcc $$cu"; \
	  nvcc -arch=sm_75 -cudart shared -O2 -lineinfo -o $$bin $$cu || exit 1; done

format: deps
	tools/format.sh

ptx:
	@command -v nvcc >/dev/null || { echo "make ptx needs nvcc (CUDA toolkit)"; exit 2; }
	@for cu in workloads/*/*.cu bench/kernels/*.cu examples/*.cu tests/ptx-sm/*.cu \
	    tests/exec/constants.cu tests/exec/alu_latency.cu; do \
	  ptx=$${cu%.cu}.ptx; echo "nvcc -ptx $$cu"; \
	  nvcc -ptx -arch=sm_75 -O3 -o $$ptx $$cu || exit 1; done
	@echo "nvcc -ptx -lineinfo tests/exec/lineinfo_loop.cu"; \
	  nvcc -ptx -arch=sm_75 -O3 -lineinfo -o tests/exec/lineinfo_loop.ptx tests/exec/lineinfo_loop.cu && \
	  sed -i 's|^\(\t\.file\t1 "\).*/|\1|' tests/exec/lineinfo_loop.ptx

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ)

# gpucoh - the README's two commands, and a few more.
#   make demo    install what is missing, build, run the main job
#   make test    install what is missing, build, run every default test
#                (the unit tests also under ASan+UBSan)
#   make test-asan  the command-line tests (tests/cli/*.sh) against the ASan+UBSan
#                build, failing on any sanitizer report (tests/asan-cli.sh; CI runs it
#                after make test), less the five slowest (CMakeLists.txt, ASAN_CLI_SLOW)
#   make test-asan-all  every command-line test under ASan+UBSan, the slowest too
#   make long    the long runs (1 M stress episodes, every litmus test)
#   make bench   simulator speed table (bench/README.md)
#   make ptx     regenerate the committed PTX with nvcc (needs the CUDA toolkit)
#   make fuzz    run each libFuzzer harness for FUZZ_SECONDS (default 60; fuzz/README.md)
#   make validate  gpucoh's side of the GPGPU-Sim comparison (VALIDATE_SIZE, default
#                tiny; docs/validation.md) into results/validate-SIZE
#   make validation-hosts  the validation host programs (needs nvcc; build/validation-hosts)
JOBS  ?= $(shell nproc)
BUILD ?= build
ASAN  ?= build-asan

DEB_PACKAGES := cmake gcc make pkg-config libinih-dev libcjson-dev libcmocka-dev python3-matplotlib python3-pandas chromium
FUZZ_PACKAGES := clang
FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := $(filter-out replay,$(basename $(notdir $(wildcard fuzz/*.c))))

.PHONY: all deps fuzz-deps build asan fuzz-build demo test test-asan test-asan-all test-fast long bench ptx fuzz \
	validate validation-hosts clean

all: build

# Install the Debian packages that are missing, waiting for apt's locks if
# another apt holds them (tools/install-deps.sh).
deps:
	@tools/install-deps.sh $(DEB_PACKAGES)

fuzz-deps:
	@tools/install-deps.sh $(FUZZ_PACKAGES)

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

test: build asan
	cd $(ASAN) && ctest -L unit -j $(JOBS) --output-on-failure
	cd $(BUILD) && ctest -LE long -j $(JOBS) --output-on-failure

test-asan: asan
	cd $(ASAN) && ctest -L asan-cli -LE asan-slow -j $(JOBS) --output-on-failure

test-asan-all: asan
	cd $(ASAN) && ctest -L asan-cli -j $(JOBS) --output-on-failure

long: build fuzz-build
	cd $(BUILD) && ctest -L long -j $(JOBS) --output-on-failure

# libFuzzer harnesses (clang, ASan, UBSan): fuzz/*.c; findings go to $(FUZZ)/findings/
fuzz-build: deps fuzz-deps
	CC=clang cmake -S . -B $(FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUCOH_FUZZ=ON \
	  -DGPUCOH_WERROR=ON >/dev/null
	cmake --build $(FUZZ) -j $(JOBS) --target $(addprefix fuzz-,$(FUZZ_TARGETS))

fuzz: fuzz-build
	tools/fuzz.sh $(FUZZ) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# One table (bench/table.sh, bench/README.md); the other bench-* programs
# (kernels, oracle, order) run on their own.
bench: build
	@bench/table.sh $(BUILD)

VALIDATE_SIZE ?= tiny
validate: build
	tools/validate.sh --size $(VALIDATE_SIZE) -j $(JOBS) --out results/validate-$(VALIDATE_SIZE)

validation-hosts:
	@command -v nvcc >/dev/null || { echo "make validation-hosts needs nvcc (CUDA toolkit)"; exit 2; }
	$(MAKE) -C validation/hosts OUT=$(CURDIR)/$(BUILD)/validation-hosts

ptx:
	@command -v nvcc >/dev/null || { echo "make ptx needs nvcc (CUDA toolkit)"; exit 2; }
	@for cu in workloads/*/*.cu bench/kernels/*.cu examples/*.cu tests/ptx-sm/*.cu \
	    tests/exec/constants.cu; do \
	  ptx=$${cu%.cu}.ptx; echo "nvcc -ptx $$cu"; \
	  nvcc -ptx -arch=sm_75 -O3 -o $$ptx $$cu || exit 1; done

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ)

# The two set-up commands: `make run` and `make test`. Only Python 3.11+ is assumed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat requirements.txt requirements-dev.txt | cksum | cut -d' ' -f1)
# Ray (bench --ray) is optional for the arcade: make test installs it, so the suite tests the Ray runner
RAY_STAMP := $(VENV)/.ray-$(shell cat requirements-ray.txt | cksum | cut -d' ' -f1)
# JAX and optax (AlphaZero's learner) are optional too: make test installs them, so the learner's tests run
TRAIN_STAMP := $(VENV)/.train-$(shell cat requirements-train.txt | cksum | cut -d' ' -f1)

.PHONY: run test test-loaded train-deps bench bytecode bench-venv screenshots clean kernels

$(STAMP): requirements.txt requirements-dev.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Arcade needs Python 3.11 or newer; found " + sys.version.split()[0] + ". Run: make PYTHON=python3.11 ...")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

# The modules' bytecode (compileall writes it even where PYTHONDONTWRITEBYTECODE is set, as on CI machines and
# containers: there every process the arcade and the suite start compiled them again, ~0.3 s each).
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q arcade agents benchmarks examples tools main.py

# numba compiles the agents' kernels once and keeps them beside their source (about a minute the first time on
# two cores, a second after): done here, so every test process finds them.
kernels: bytecode
	@$(BIN)/python -m agents.warm_kernels

# The window opens at once; it starts the kernels' warm-up beside it (arcade/kernel_warmup.py: low priority, a
# line in the terminal every few seconds while a first start compiles) and stops it when it closes. Exit code 2
# is the arcade's own refusal (no display, a bad option), already said in one line: make adds no "Error 2".
run: bytecode
	@$(BIN)/python main.py; status=$$?; [ $$status -eq 0 ] || [ $$status -eq 2 ]

$(RAY_STAMP): $(STAMP) requirements-ray.txt
	$(BIN)/python -m pip install --quiet -r requirements-ray.txt
	@rm -f $(VENV)/.ray-*
	@touch $(RAY_STAMP)

$(TRAIN_STAMP): $(STAMP) requirements-train.txt
	$(BIN)/python -m pip install --quiet -r requirements-train.txt
	@rm -f $(VENV)/.train-*
	@touch $(TRAIN_STAMP)

# AlphaZero's learner in the arcade's environment (then `t` trains alphazero in the window)
train-deps: $(TRAIN_STAMP)

# on every core (pytest-xdist); tests that share one Ray cluster stay on one worker (--dist loadgroup).
# tools/run_suite.py keeps the run's report in reports/, prints each failing test's output and the suite's CPU
# time, and lets pytest keep its rewritten test modules as bytecode (collecting them again costs ~5 s a worker)
test: $(STAMP) $(RAY_STAMP) $(TRAIN_STAMP) kernels
	$(BIN)/python tools/run_suite.py

# the suite beside busy processes it starts and stops by PID: LOAD=2 (both cores busy) by default, LOAD=4 more
LOAD ?= 2
test-loaded: $(STAMP) $(RAY_STAMP) $(TRAIN_STAMP) kernels
	$(BIN)/python tools/run_suite.py --load $(LOAD)

bench: $(STAMP)
	@for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# Outside programs to measure against (OpenSpiel): a separate environment, so the arcade's stays light.
bench-venv: .venv-bench/.installed

.venv-bench/.installed: requirements.txt requirements-bench.txt
	$(PYTHON) -m venv .venv-bench
	.venv-bench/bin/python -m pip install --quiet --upgrade pip
	.venv-bench/bin/python -m pip install --quiet -r requirements-bench.txt
	@touch $@

screenshots: $(STAMP)
	$(BIN)/python tools/screenshots.py --out docs

clean:
	rm -rf $(VENV) .venv-bench

